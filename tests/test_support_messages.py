"""tests/support/messages.py: patterns built from message constants match what they format to."""

from __future__ import annotations

import doctest
import re

import pytest

import tests.support.messages as messages_module
from tests.support.messages import message_pattern
from vecgym.core.env import WRAPPER_NO_ATTR_MSG
from vecgym.core.registration import MALFORMED_ID_MSG, NO_ENV_BUILDER_MSG


def test_a_template_without_fields_matches_itself_literally() -> None:
    pattern = message_pattern(NO_ENV_BUILDER_MSG)
    assert re.fullmatch(pattern, NO_ENV_BUILDER_MSG)
    assert not re.search(pattern, NO_ENV_BUILDER_MSG.replace("`", "'"))


@pytest.mark.parametrize("value", ["sometimes", 3, None, "a.b*c"])
def test_positional_fields_match_their_formatted_values_only(value: object) -> None:
    pattern = message_pattern(WRAPPER_NO_ATTR_MSG, "W", value)
    assert re.fullmatch(pattern, WRAPPER_NO_ATTR_MSG.format("W", value))
    assert not re.fullmatch(pattern, WRAPPER_NO_ATTR_MSG.format("W", "other"))
    assert re.fullmatch(message_pattern(WRAPPER_NO_ATTR_MSG), WRAPPER_NO_ATTR_MSG.format(1, 2))


def test_fields_left_out_match_anything_including_newlines() -> None:
    pattern = message_pattern(MALFORMED_ID_MSG)
    assert re.fullmatch(pattern, MALFORMED_ID_MSG.format(env_id="a/b\nc-v-1"))
    given = message_pattern(MALFORMED_ID_MSG, env_id="Bad Id")
    assert re.fullmatch(given, MALFORMED_ID_MSG.format(env_id="Bad Id"))
    assert not re.fullmatch(given, MALFORMED_ID_MSG.format(env_id="Other"))


def test_conversion_spec_attribute_and_index_are_applied() -> None:
    template = "{name!r} at {x:.2f}, {pair[1]} and {obj.real}"
    pattern = message_pattern(template, name="n", x=1.0, pair=(0, "two"), obj=3)
    assert re.fullmatch(pattern, "'n' at 1.00, two and 3")
    assert not re.fullmatch(pattern, "n at 1.0, two and 3")


def test_the_docstring_example_runs() -> None:
    results = doctest.testmod(messages_module, verbose=False)
    assert results.attempted > 0
    assert results.failed == 0
