"""The ledger pages' ``signed`` filter: a gain is written with its plus sign, like {{ value }} otherwise."""

from decimal import Decimal

from django.template import engines
from django.utils import translation

from ledger.templatetags.ledger_numbers import signed


def test_gain_gets_a_plus_loss_and_zero_do_not():
    assert signed(850) == "+850"
    assert signed(Decimal("8.50")) == "+8.50"
    assert signed(Decimal("-3.50")) == "-3.50"
    assert signed(0) == "0"
    assert signed(Decimal("0.00")) == "0.00"


def test_localized_like_the_plain_variable():
    """Rule: the filter writes the number exactly as ``{{ value }}`` would, only with the sign."""
    plain = engines["django"].from_string("{{ value }}")
    with_filter = engines["django"].from_string("{% load ledger_numbers %}{{ value|signed }}")
    with translation.override("de"):
        assert with_filter.render({"value": Decimal("8.50")}) == "+" + plain.render({"value": Decimal("8.50")})
        assert with_filter.render({"value": Decimal("8.50")}) == "+8,50"


def test_a_chip_value_keeps_every_place_with_the_languages_decimal_sign():
    from ledger.templatetags.ledger_numbers import localized_decimal

    with translation.override("de"):
        assert localized_decimal("0.0125") == "0,0125"
        assert localized_decimal("0.01") == "0,01"
    for language in ("en", "ne", "hi"):
        with translation.override(language):
            assert localized_decimal("0.0125") == "0.0125"
