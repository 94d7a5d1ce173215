"""An attack's dice come from the game's secret, its place and the whole command (target
included), so a roll seen on one target and undone says nothing of another's; games saved
before keep the way they rolled; an imported game's secret is drawn from the database's key
and the game it is, so every import of one file rolls alike and none rolls as the game it
was exported from.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import create_engine, text
from store_support import BACKENDS, DUEL, choose, database_url, two_stores

from companion.engine.dice import with_rolls
from companion.store.dice import FIRST_DICE, copy_secret, dice_for
from companion.store.store import SavedGame, Store, open_store
from models.commands import Attack
from models.game_log import GameLog


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def two_targets(store: Store, seed: int = 1) -> tuple[SavedGame, Attack, Attack]:
    """A duel played until its active creature may attack two creatures."""
    rng = random.Random(seed)
    for _ in range(200):
        saved = store.new_game(DUEL)
        while not saved.state.is_terminal:
            attacks = [c for c in saved.state.legal_commands() if type(c) is Attack]
            targets = {attack.target: attack for attack in attacks}
            if len(targets) >= 2:
                first, second = list(targets.values())[:2]
                return saved, saved.state.sign(first), saved.state.sign(second)
            saved = store.append(saved.id, choose(saved, rng), saved.revision)
    raise AssertionError("no attack on two targets came up")


def test_a_roll_depends_on_the_attacks_target():
    # Over fifty places of one game, rolls on two targets differ about five times in six:
    # the roll seen on one tells nothing of the other's.
    one = [dice_for("a secret", i, Attack("n1", by="red"))() for i in range(50)]
    other = [dice_for("a secret", i, Attack("n2", by="red"))() for i in range(50)]
    assert sum(a != b for a, b in zip(one, other, strict=True)) >= 30
    # The dice given with a command are no part of what draws them.
    assert [dice_for("a secret", i, Attack("n1", 6, by="red"))() for i in range(50)] == one
    # The first way (games saved before) knew the place only.
    first = [dice_for("a secret", i, Attack("n1"), FIRST_DICE)() for i in range(50)]
    assert first == [dice_for("a secret", i, Attack("n2"), FIRST_DICE)() for i in range(50)]


def test_a_roll_seen_undone_and_spent_on_another_target_is_that_targets_own(url):
    with open_store(url) as store:
        saved, first, second = two_targets(store)
        index = len(saved.log)
        seen = store.append(saved.id, first, saved.revision)
        assert seen.log[-1].command == with_rolls(
            saved.state, first, dice_for(saved.secret, index, first)
        )
        undone = store.undo(seen.id, seen.revision)
        spent = store.append(undone.id, second, undone.revision)
        assert spent.log[-1].command == with_rolls(
            saved.state, second, dice_for(saved.secret, index, second)
        )
        # Undone and tried again on the first target, the first roll comes back.
        back = store.undo(spent.id, spent.revision)
        again = store.append(back.id, first, back.revision)
        assert again.log[-1].command == seen.log[-1].command


def test_a_game_saved_before_keeps_the_way_it_rolled(url):
    with open_store(url) as store:
        saved, first, _ = two_targets(store, seed=2)
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE games SET dice = NULL WHERE id = :id"), {"id": saved.id})
    engine.dispose()
    with open_store(url) as store:
        reopened = store.load(saved.id)
        assert reopened.dice == FIRST_DICE
        rolled = store.append(saved.id, first, reopened.revision)
        assert rolled.log[-1].command == with_rolls(
            saved.state, first, dice_for(saved.secret, len(saved.log), first, FIRST_DICE)
        )


def test_every_import_of_a_game_rolls_alike_and_none_as_the_original(url):
    for first_store, second_store in two_stores(url):
        saved, attack, _ = two_targets(first_store, seed=3)
        exported = first_store.export(saved.id)
        # Six copies, on two processes, roll the same for the same attack.
        copies = [
            store.import_log(GameLog.model_validate(exported.to_json()))
            for store in (first_store, second_store) * 3
        ]
        assert len({copy.secret for copy in copies}) == 1
        rolled = [
            store.append(copy.id, attack, copy.revision).log[-1].command
            for store, copy in zip((first_store, second_store) * 3, copies, strict=True)
        ]
        assert len(set(rolled)) == 1
        # The copy's secret is not the original's, nor one anybody without the database's
        # key could draw from the file.
        secret = copies[0].secret
        assert secret != saved.secret
        commands = exported.parsed_commands()
        assert copy_secret("another key", exported.setup, commands) != secret
        # What does not decide play (a player's name) does not change it; a command does.
        renamed = exported.to_json()
        renamed["setup"]["players"][0]["name"] = "Someone Else"
        again = first_store.import_log(GameLog.model_validate(renamed))
        assert again.secret == secret
        shorter = GameLog.of(exported.setup, commands[:-1])
        assert first_store.import_log(shorter).secret != secret
