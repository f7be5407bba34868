"""Match error and warning messages through the package's message constants.

vecgym keeps every message template as a module-level constant next to the code that raises it
(``NO_ENV_BUILDER_MSG``, ``SEED_TYPE_MSG``, ...). Tests match those constants instead of copying
their text, so rewording a message changes one line::

    with pytest.raises(error.Error, match=message_pattern(SEED_TYPE_MSG, "<class 'str'>")):
        np_random("7")

A format field given a value matches that value exactly as the template would format it (its
conversion and format spec applied); a field left out matches anything, within one line or
across lines.
"""

from __future__ import annotations

import re
import string
from typing import Any

__all__ = ["exact_pattern", "message_pattern"]

_FORMATTER = string.Formatter()
#: What a field without a value matches: anything, newlines included, as little as possible.
WILDCARD = "(?s:.*?)"


def message_pattern(template: str, /, *args: Any, **fields: Any) -> str:
    """A regular expression (for ``re.search`` / ``pytest.raises(match=...)``) for ``template``.

    Args:
        template: a ``str.format`` template, usually a message constant of the package.
        *args: values of the positional fields (``{}``, ``{0}``, ``{!r}``), in order.
        **fields: values of the named fields; a field without a value matches anything.

    Returns:
        The template's literal text escaped, each field replaced by its formatted value (escaped)
        or by a wildcard.

    Example:
        >>> import re
        >>> pattern = message_pattern("expected {expected}, got {actual!r}", expected=3)
        >>> bool(re.search(pattern, "expected 3, got 'four'"))
        True
        >>> bool(re.search(pattern, "expected 4, got 'four'"))
        False
    """
    parts: list[str] = []
    auto_index = 0
    for literal, field_name, format_spec, conversion in _FORMATTER.parse(template):
        parts.append(re.escape(literal))
        if field_name is None:
            continue
        if field_name == "":
            field_name = str(auto_index)
            auto_index += 1
        parts.append(_field_pattern(field_name, format_spec or "", conversion, args, fields))
    return "".join(parts)


def exact_pattern(template: str, /, *args: Any, **fields: Any) -> str:
    """:func:`message_pattern` anchored at both ends: the whole message is ``template``."""
    return f"^{message_pattern(template, *args, **fields)}$"


def _field_pattern(
    field_name: str,
    format_spec: str,
    conversion: str | None,
    args: tuple[Any, ...],
    fields: dict[str, Any],
) -> str:
    """The escaped formatted value of one field, or the wildcard when no value was given."""
    first = re.split(r"[.\[]", field_name, maxsplit=1)[0]
    given = int(first) < len(args) if first.isdigit() else first in fields
    if not given:
        return WILDCARD
    value, _ = _FORMATTER.get_field(field_name, args, fields)
    value = _FORMATTER.convert_field(value, conversion)
    return re.escape(_FORMATTER.format_field(value, format_spec))
