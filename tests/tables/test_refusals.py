"""The engine's refusals reach players in their language: every code the engine can raise
has a translatable sentence in tables.services.refusals, and a refused move changes nothing."""

from __future__ import annotations

import ast
from pathlib import Path

from django.utils import translation

from engine.api import RuleError, SettingsError
from tables.services.refusals import RULE_MESSAGES, SETTINGS_REFUSED, rule_refusal, settings_refusal_message

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def engine_rule_codes() -> set[str]:
    """Every literal code passed to RuleError(...) anywhere in engine/."""
    codes = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError":
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path}:{node.lineno}: RuleError's code must be a literal string, so the site can translate it"
                )
                codes.add(first.value)
    return codes


def test_the_scan_finds_the_engine_codes():
    codes = engine_rule_codes()

    assert {"not_your_turn", "sideshow_needs_seen", "cannot_check", "must_see"} <= codes
    assert len(codes) > 25


def test_every_engine_refusal_has_a_translatable_sentence():
    missing = engine_rule_codes() - set(RULE_MESSAGES)

    assert not missing, f"add these engine codes to tables/services/refusals.py: {sorted(missing)}"


def test_a_refusal_keeps_the_code_and_speaks_the_active_language():
    error = RuleError("not_your_turn", "It is Asha's turn, not Binod's.")

    refusal = rule_refusal(error)

    assert refusal.code == "not_your_turn"
    with translation.override("en"):
        assert refusal.to_json() == {"code": "not_your_turn", "message": "It is not your turn."}
    with translation.override("de"):
        assert refusal.to_json() == {"code": "not_your_turn", "message": "Du bist nicht dran."}


def test_an_unknown_code_still_gets_a_translated_sentence_and_keeps_its_code():
    refusal = rule_refusal(RuleError("brand_new_rule", "Some English."))

    assert refusal.code == "brand_new_rule"
    assert "Some English" not in refusal.to_json()["message"]


def test_a_settings_refusal_is_translated():
    message = settings_refusal_message(SettingsError("boot", "must be 1, 2 or 5, not 3."))

    assert message == SETTINGS_REFUSED
    with translation.override("hi"):
        assert str(message) == "इस खेल के नियम यह मान नहीं देते।"
