"""The Energy and Reset draft is the table's, kept in the store; dice
come from a secret the store keeps, and an attack tried again rolls the same.

Run against SQLite and, when a server is given, PostgreSQL (tests/store_support.py).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from store_support import BACKENDS, DUEL, choose, database_url

from companion.engine import Phase
from companion.engine.table_reset import Creature, draft_from
from companion.store.dice import dice_for
from companion.store.errors import DraftMovedOn
from companion.store.store import open_store
from models.commands import Attack, LateRemoval, LateSummon, Skip, Summon
from models.reset_draft import DraftDeclined, DraftEntries, entries_from_json, entries_to_json
from models.rules import CreatureKind
from models.seeded_dice import SeededDice
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
TABLE = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


@pytest.fixture
def store(url):
    with open_store(url) as opened:
        yield opened


def to_reset(store):
    """Round 1 at Energy and Reset: Ann a Wyrm, Bob a Troll, Cy two Sprites."""
    saved = store.new_game(TABLE)
    for tap in (
        [Summon(W, by="a")],
        [Skip("summoning", T, "b"), Summon(T, by="b")],
        [Skip("summoning", S, "c"), Summon(S, by="c")],
        [Summon(S, by="c")],
        [Skip("summoning")],
        [Skip("actions")],
    ):
        saved = store.append_all(saved.id, tap, saved.revision)
    assert saved.state.phase is Phase.ENERGY_AND_RESET
    return saved


def placed(draft) -> dict[str, list[tuple[str, str]]]:
    """Territory -> [(player, kind)] of a draft, for short assertions."""
    return {
        territory: [(c.player, c.kind.value) for c in creatures]
        for territory, creatures in draft.placed.items()
        if creatures
    }


def test_a_draft_is_stored_with_its_version_and_read_back(store):
    saved = to_reset(store)
    assert store.draft(saved.id).entries is None
    draft = draft_from(saved.state, None)
    north = draft.territories[0].id
    assert draft.put(Creature("a", W), north) is None
    stored = store.save_draft(saved.id, saved.state.round, draft.entries(), 0)
    assert stored.version == 1
    again = draft_from(saved.state, store.draft(saved.id).entries)
    assert placed(again) == {north: [("a", "wyrm")]}
    assert again.left == 3


def test_a_declined_bonus_keeps_the_seat_that_declined_it():
    """Who declined a bonus is stored with it; a draft stored before says nobody."""
    declined = DraftEntries(declined=(DraftDeclined("c", "skalds-stair", "c"),))
    assert entries_from_json(json.loads(json.dumps(entries_to_json(declined)))) == declined
    older = {"placed": [], "gone": [], "declined": [{"player": "c", "territory": "skalds-stair"}]}
    assert entries_from_json(older).declined == (DraftDeclined("c", "skalds-stair", ""),)


def test_a_change_made_from_an_older_draft_is_refused_not_lost(store):
    """Two phones: the second one's change must be made again from the first one's."""
    saved = to_reset(store)
    first = draft_from(saved.state, None)
    first.put(Creature("a", W), first.territories[0].id)
    store.save_draft(saved.id, 1, first.entries(), 0)
    second = draft_from(saved.state, None)
    second.put(Creature("b", T), second.territories[1].id)
    with pytest.raises(DraftMovedOn):
        store.save_draft(saved.id, 1, second.entries(), 0)
    latest = store.draft(saved.id)
    redone = draft_from(saved.state, latest.entries)
    redone.put(Creature("b", T), redone.territories[1].id)
    store.save_draft(saved.id, 1, redone.entries(), latest.version)
    both = draft_from(saved.state, store.draft(saved.id).entries)
    assert placed(both) == {
        both.territories[0].id: [("a", "wyrm")],
        both.territories[1].id: [("b", "troll")],
    }


def test_applying_clears_the_draft_and_undo_brings_it_back(store):
    saved = to_reset(store)
    draft = draft_from(saved.state, None)
    ids = [t.id for t in draft.territories]
    draft.put(Creature("a", W), ids[0])
    draft.put(Creature("b", T), ids[1])
    draft.put(Creature("c", S), ids[2])
    draft.mark_gone(Creature("c", S))
    store.save_draft(saved.id, 1, draft.entries(), 0)
    saved = store.append(saved.id, draft.command(), saved.revision)
    assert saved.state.round == 2
    assert store.draft(saved.id).entries is None
    saved = store.undo(saved.id, saved.revision)
    back = store.draft(saved.id)
    assert back.round == 1
    restored = draft_from(saved.state, back.entries)
    assert placed(restored) == placed(draft)
    assert restored.gone_groups() == [(Creature("c", S), 1)]
    assert restored.left == 0
    saved = store.redo(saved.id, saved.revision)
    assert store.draft(saved.id).entries is None


def test_a_late_summon_adds_one_to_place_and_a_late_removal_takes_one_off(store):
    saved = to_reset(store)
    draft = draft_from(saved.state, None)
    ids = [t.id for t in draft.territories]
    draft.put(Creature("a", W), ids[0])
    draft.put(Creature("b", T), ids[0])
    draft.put(Creature("c", S), ids[1])
    draft.put(Creature("c", S), ids[2])
    store.save_draft(saved.id, 1, draft.entries(), 0)
    saved = store.append(saved.id, LateSummon("b", S), saved.revision)
    later = draft_from(saved.state, store.draft(saved.id).entries)
    assert later.groups() == [(Creature("b", S), 1)]
    assert str(later.notes[Creature("b", S)]) == "1 summoned this round"
    # Ann's late removal of Bob's Troll: it stood alone in its territory, so it goes.
    saved = store.append(saved.id, LateRemoval("a", "b", T), saved.revision)
    later = draft_from(saved.state, store.draft(saved.id).entries)
    assert ("b", "troll") not in placed(later)[ids[0]]
    # Bob's removal of one of Cy's Sprites: they stood in two territories, so both are asked
    # about again, never guessed.
    saved = store.append(saved.id, LateRemoval("b", "c", S), saved.revision)
    later = draft_from(saved.state, store.draft(saved.id).entries)
    assert dict(later.groups())[Creature("c", S)] == 1
    assert "where is each now" in str(later.notes[Creature("c", S)])


def test_deleting_a_game_deletes_its_draft(store):
    saved = to_reset(store)
    store.save_draft(saved.id, 1, DraftEntries(), 0)
    store.delete_game(saved.id)
    assert store.draft(saved.id).entries is None


# --- dice nobody can outguess --------------------------------------------------------------------


def attacks(store, seed: int, count: int):
    """`count` attacks rolled by the store in digital duels: (game id, seq, stored command)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        saved = store.new_game(DUEL)
        while not saved.state.is_terminal and len(found) < count:
            command = choose(saved, rng)
            saved = store.append(saved.id, command, saved.revision)
            if type(command) is Attack:
                found.append((saved.id, saved.last_seq, saved.log[-1].command))
    return found


def test_rolls_cannot_be_foretold_from_the_game_id(store):
    """The game id (in every address) and the record's number do not give the roll."""
    rolled = attacks(store, seed=4, count=30)
    foretold = 0
    for game_id, seq, attack in rolled:
        digest = hashlib.sha256(f"{game_id}:{seq}".encode()).digest()
        guess = SeededDice(int.from_bytes(digest[:8], "big"))
        foretold += guess() == attack.attack_roll
    # Chance alone foretells about one in six; all 30 would mean the id still decides.
    assert foretold < 20


def test_an_attack_undone_and_tried_again_rolls_the_same(store):
    """Undo cannot fish for a better roll: the same position rolls the same."""
    rng = random.Random(9)
    saved = store.new_game(DUEL)
    tried = 0
    while tried < 5 and not saved.state.is_terminal:
        options = [c for c in saved.state.legal_commands() if type(c) is Attack]
        if not options:
            saved = store.append(saved.id, choose(saved, rng), saved.revision)
            continue
        first = store.append(saved.id, options[0], saved.revision)
        undone = store.undo(first.id, first.revision)
        again = store.append(undone.id, options[0], undone.revision)
        assert again.log[-1].command == first.log[-1].command
        saved = again
        tried += 1
    assert tried == 5


def test_the_secret_is_never_in_an_export_a_listing_or_a_log_row(store, url):
    saved = store.new_game(DUEL)
    assert len(saved.secret) == 64
    saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    exported = json.dumps(store.export(saved.id).to_json())
    listing = repr(store.games())
    assert saved.secret not in exported and saved.secret not in listing
    assert saved.secret not in repr(saved)
    # A new game gets a new secret; the same place in two games rolls independently.
    other = store.new_game(DUEL)
    assert other.secret != saved.secret
    attack = Attack("n1")
    mine, theirs = dice_for(saved.secret, 0, attack), dice_for(other.secret, 0, attack)
    assert [mine() for _ in range(12)] != [theirs() for _ in range(12)]
