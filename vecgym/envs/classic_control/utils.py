"""Helpers shared by the classic-control environments: parsing ``reset`` options.

Several environments accept ``options={"low": ..., "high": ...}`` in ``reset`` to widen or narrow
the uniform distribution their initial state is drawn from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat

__all__ = ["maybe_parse_reset_bounds", "verify_number_and_cast"]

NOT_A_NUMBER_MSG = "a reset option must be a real number, got {!r}"
BOUNDS_ORDER_MSG = "the reset option 'low' must not exceed 'high', got low={} and high={}"


def verify_number_and_cast(x: SupportsFloat) -> float:
    """Return ``x`` as a Python ``float``.

    Args:
        x: a value ``float()`` accepts (a Python or numpy number, or a numeric string).

    Raises:
        ValueError: ``x`` cannot be converted to a float.
    """
    try:
        return float(x)
    except (TypeError, ValueError) as exc:
        raise ValueError(NOT_A_NUMBER_MSG.format(x)) from exc


def maybe_parse_reset_bounds(
    options: Mapping[str, Any] | None, default_low: float, default_high: float
) -> tuple[float, float]:
    """Return the ``(low, high)`` bounds of the initial-state distribution for a ``reset``.

    Each of ``"low"`` and ``"high"`` is read from ``options`` when present there, else its
    default is used; both are converted to ``float``.

    Args:
        options: the ``options`` passed to ``reset`` (``None`` for none).
        default_low: the lower bound used when ``options`` has no ``"low"``.
        default_high: the upper bound used when ``options`` has no ``"high"``.

    Returns:
        ``(low, high)`` as floats.

    Raises:
        ValueError: a bound is not a number, or ``low > high``.

    Example:
        >>> maybe_parse_reset_bounds({"high": 0.2}, -0.05, 0.05)
        (-0.05, 0.2)
    """
    if options is None:
        return default_low, default_high
    low = verify_number_and_cast(options.get("low", default_low))
    high = verify_number_and_cast(options.get("high", default_high))
    if low > high:
        raise ValueError(BOUNDS_ORDER_MSG.format(low, high))
    return low, high
