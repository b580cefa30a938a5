"""The examples in the Teen Patti modules' docstrings run and give what they say."""

import doctest

import pytest

import engine.teenpatti
import engine.teenpatti.ranking


@pytest.mark.parametrize("module", [engine.teenpatti, engine.teenpatti.ranking], ids=lambda module: module.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
