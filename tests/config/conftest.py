"""Fixtures of the site-wide page tests."""

from __future__ import annotations

import pytest

from tests.config.pages import site_with_a_played_game


@pytest.fixture
def site(db):
    """A host who played a few hands of an ended game, kept as one night of a home game."""
    return site_with_a_played_game()
