"""The engine's sentences: counts agree with their nouns."""

from companion.engine.wording import counted


def test_counts_agree_with_their_nouns():
    assert counted(1, "action") == "1 action"
    assert counted(3, "action") == "3 actions"
    assert counted(0, "creature") == "0 creatures"
    assert counted(2, "bonus", "bonuses") == "2 bonuses"
    assert counted(1, "bonus", "bonuses") == "1 bonus"
