"""The test databases' rows are numbered from a million up (tests/high_ids.py), in a test on
a transaction rolled back, in a transactional one, and after a test that reset the counters."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.high_ids import STEP


def new_id() -> int:
    return User.objects.create(username=f"someone{User.objects.count()}").pk


@pytest.mark.django_db
def test_a_row_in_a_test_is_numbered_from_a_million_up():
    assert new_id() >= STEP


@pytest.mark.django_db(transaction=True)
def test_a_row_in_a_transactional_test_is_numbered_from_a_million_up():
    assert new_id() >= STEP


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_a_test_that_resets_the_counters_gets_small_ids_and_leaves_them_high():
    assert new_id() < STEP
    # ... and the fixture raises them again after it (tests/conftest.py: _ids_high_again)


@pytest.mark.django_db(transaction=True)
def test_after_a_reset_rows_are_numbered_from_a_million_up_again():
    assert new_id() >= STEP
