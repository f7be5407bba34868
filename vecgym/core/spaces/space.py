"""The :class:`Space` base class: the set of valid actions or observations of an environment."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from vecgym.core import seeding

__all__ = ["MaskNDArray", "Space", "space_class"]

T_cov = TypeVar("T_cov", covariant=True)

MaskNDArray = npt.NDArray[np.int8]


class Space(Generic[T_cov]):
    """A set of values (actions or observations) that can be sampled, tested and seeded.

    Subclasses define :meth:`sample`, :meth:`contains` and :attr:`is_np_flattenable`. Spaces are
    value objects: they never modify the arrays passed to them, they compare by value and they
    pickle cleanly (the random generator travels with them).

    Args:
        shape: the shape of the space's values when they are numpy arrays, else ``None``.
        dtype: the dtype of the space's values when they are numpy arrays, else ``None``.
        seed: an ``int`` to seed the sampling generator, or a ``numpy.random.Generator`` to use.

    Example:
        >>> from vecgym.spaces import Discrete
        >>> space = Discrete(3, seed=42)
        >>> int(space.sample())
        0
    """

    dtype: np.dtype[Any] | None
    _shape: tuple[int, ...] | None
    _np_random: np.random.Generator | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        """Where Gymnasium is installed, a vecgym space is an instance of Gymnasium's class of the
        built-in space it derives from too (see :mod:`vecgym.core.flavour`)."""
        from vecgym.core.flavour import flavoured_class  # it imports this module

        return super().__new__(flavoured_class(cls))

    def __init__(
        self,
        shape: Sequence[int] | None = None,
        dtype: npt.DTypeLike | None = None,
        seed: int | np.random.Generator | None = None,
    ) -> None:
        self._shape = None if shape is None else tuple(int(dim) for dim in shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            if isinstance(seed, np.random.Generator):
                self._np_random = seed
            else:
                self.seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        """The sampling generator, seeded randomly on first use if :meth:`seed` was never called."""
        if self._np_random is None:
            self.seed()
        if self._np_random is None:  # composite spaces seed their children, not themselves
            self._np_random, _ = seeding.np_random()
        return self._np_random

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The shape of the values (read-only)."""
        return self._shape

    @property
    def is_np_flattenable(self) -> bool:
        """Whether :func:`vecgym.spaces.flatten_space` can turn this space into a :class:`Box`."""
        raise NotImplementedError

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> T_cov:
        """Draw a random value of this space.

        Args:
            mask: restricts the values that may be drawn (``np.int8`` arrays of 0/1 for the built-in
                spaces; each space documents its form).
            probability: a distribution over values (``np.float64`` arrays for the built-in
                spaces). ``mask`` and ``probability`` cannot be given together.

        Returns:
            A value ``x`` with ``x in space``.
        """
        raise NotImplementedError

    def seed(self, seed: Any | None = None) -> Any:
        """Seed the sampling generator (and, for composite spaces, those of the subspaces).

        Args:
            seed: a non-negative ``int`` or ``None`` (a random seed); composite spaces also accept
                one seed per subspace.

        Returns:
            The seed used (for composite spaces, the seeds used, in the form of the space).
        """
        self._np_random, used_seed = seeding.np_random(seed)
        return used_seed

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a value of this space (``x in space``)."""
        raise NotImplementedError

    def __contains__(self, x: Any) -> bool:
        return self.contains(x)

    def __setstate__(self, state: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> None:
        # Accept states pickled by older Gym versions, which stored ``shape`` and ``np_random``.
        state = dict(state)
        if "shape" in state:
            state["_shape"] = state.pop("shape")
        if "np_random" in state:
            state["_np_random"] = state.pop("np_random")
        self.__dict__.update(state)

    def to_jsonable(self, sample_n: Iterable[Any]) -> list[Any] | Any:
        """Convert a batch of values into a JSON-serialisable form (identity by default)."""
        return list(sample_n)

    def from_jsonable(self, sample_n: list[Any]) -> list[Any]:
        """Convert a JSON-serialisable batch back into values (identity by default)."""
        return sample_n


# ``inspect.signature(Space)`` reports ``__init__``'s parameters, as for Gymnasium's ``Space``,
# rather than ``__new__``'s catch-all ones.
Space.__new__.__signature__ = inspect.signature(Space.__init__).replace(  # type: ignore[attr-defined]
    return_annotation=inspect.Signature.empty
)

#: The class attribute naming, on a Gymnasium-flavoured twin of a space class, the class it was
#: built from (see :func:`vecgym.core.flavour.gymnasium_flavoured`).
FLAVOUR_OF = "_gymnasium_flavour_of"


def space_class(space: Any) -> type:
    """``type(space)``, or the vecgym class whose Gymnasium-flavoured twin it is (every vecgym
    space where Gymnasium is installed): what exact-type dispatch tables are keyed by."""
    kind: type = getattr(type(space), FLAVOUR_OF, type(space))
    return kind
