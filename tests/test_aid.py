"""The player aid says the rules table's numbers and the engine's odds, and follows them.

Every number on the aid is checked against models/rules.py (rulings 1, 2, 5, 7, 8, 11, 13
and 14 name them); a copy of the table with a cost changed changes the aid.
"""

import re
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.aid.content import Section, aid_sections
from companion.aid.numbers import rule_numbers
from companion.boards import shipped_board
from companion.language import Message, Term
from companion.language.render import language
from models.rules import (
    CREATURES,
    DIE_SIDES,
    DOMINATION_BONUS_RANGE,
    ENERGY_BANDS,
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    KIND_ORDER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
    STARTING_ENERGY,
    WINNING_ENERGY,
    WYRM_SWAP_COST,
    CreatureKind,
)

CATALOGS = Path(__file__).resolve().parent.parent / "companion" / "language" / "catalogs"


def sections(**kwargs) -> dict[str, Section]:
    return {section.key: section for section in aid_sections(**kwargs)}


def said(section: Section, message_id: str) -> Message:
    (found,) = [line for line in section.lines if line.id == message_id]
    return found


def enumerated_odds(attacker: CreatureKind, defender: CreatureKind, support: int) -> Fraction:
    """Ruling 7 counted here from the rules table, every pair of faces, apart from the engine."""
    bonus = CREATURES[attacker].attack_bonus
    fixed = CREATURES[defender].defence
    faces = range(1, DIE_SIDES + 1)
    if fixed is not None:
        return Fraction(sum(roll + bonus >= fixed for roll in faces), DIE_SIDES)
    wins = sum(a + bonus >= d + support for a, d in product(faces, faces))
    return Fraction(wins, DIE_SIDES**2)


def test_the_aid_has_every_part_in_reading_order():
    assert list(sections()) == [
        "round",
        "creatures",
        "swap",
        "movement",
        "energy",
        "sprites",
        "domination",
        "order",
        "end",
        "odds",
        "rulings",
    ]


def test_the_creature_table_is_the_rules_tables_row_by_row():
    """Rulings 5, 7 and 14: owned, cost, attack, defence, actions, bounty of each kind."""
    table = sections()["creatures"].table
    assert table is not None
    assert [row[0] for row in table.rows] == [Term(kind.title, "creature") for kind in KIND_ORDER]
    for kind, (_, owned, cost, attack, defence, actions, bounty) in zip(
        KIND_ORDER, table.rows, strict=True
    ):
        stats = CREATURES[kind]
        assert (owned, cost, actions, bounty) == (
            stats.owned,
            stats.cost,
            stats.actions,
            stats.bounty,
        )
        assert attack == Message("aid.cell.roll_plus", sides=DIE_SIDES, bonus=stats.attack_bonus)
        if stats.defence is None:
            assert defence == Message("aid.cell.rolled_defence", sides=DIE_SIDES)
        else:
            assert defence == stats.defence


def test_the_energy_bands_and_the_game_numbers_are_the_rules_tables():
    """Rulings 1, 2, 8, 11 and 13."""
    aid = sections()
    bands = aid["energy"].table
    assert bands is not None
    assert [row[1:] for row in bands.rows] == [
        (Message("aid.cell.change", change=band.modifier),) for band in ENERGY_BANDS
    ]
    assert [row[0] for row in bands.rows] == [
        Message("aid.cell.band", low=band.low, high=band.high) for band in ENERGY_BANDS
    ]
    start = said(aid["energy"], "aid.energy.start")
    assert start.fields == {
        "start": Message("count.energy", count=STARTING_ENERGY),
        "win": WINNING_ENERGY,
    }
    swap = said(aid["swap"], "aid.swap.text")
    assert swap.fields["cost"] == Message("count.energy", count=WYRM_SWAP_COST)
    low, high = DOMINATION_BONUS_RANGE
    assert said(aid["domination"], "aid.domination.text").fields == {"low": low, "high": high}
    assert said(aid["end"], "aid.end.summoner").fields == {"win": WINNING_ENERGY}
    assert said(aid["end"], "aid.end.final").fields == {"rounds": STANDARD_ROUNDS}
    assert said(aid["end"], "aid.end.extended").fields == {
        "players": EXTENDED_ROUNDS_MIN_PLAYERS,
        "rounds": EXTENDED_ROUNDS,
        "standard": STANDARD_ROUNDS,
    }


def test_the_odds_table_is_the_engines_for_every_attacker_defender_and_support():
    """Ruling 7: each chance is the engine's, and the engine's is the count of every roll."""
    table = sections()["odds"].table
    assert table is not None
    assert table.columns[1:] == tuple(Term(kind.title, "creature") for kind in KIND_ORDER)
    defenders = [
        (kind, support)
        for kind in KIND_ORDER
        for support in (range(CREATURES[kind].owned) if CREATURES[kind].defence is None else (0,))
    ]
    assert len(table.rows) == len(defenders)
    for (defender, support), (_, *chances) in zip(defenders, table.rows, strict=True):
        assert chances == [enumerated_odds(attacker, defender, support) for attacker in KIND_ORDER]
    # A Sprite's support runs to every other Sprite its owner has: 0 to 8.
    assert table.rows[-1][0] == Message(
        "aid.cell.supported",
        kind=Term("Sprite", "creature"),
        support=CREATURES[CreatureKind.SPRITE].owned - 1,
    )


def test_the_rulings_say_the_rules_tables_numbers():
    """Rulings 1, 2, 5, 7, 8, 11, 13, 14, one sentence each, in order."""
    rulings = sections()["rulings"].lines
    assert len(rulings) == 14
    by_id = {line.id: line.fields for line in rulings}
    slash = "/".join
    assert by_id["aid.ruling.start"] == {"start": STARTING_ENERGY}
    assert by_id["aid.ruling.bands"]["bands"] == tuple(
        Message("aid.ruling.band", low=band.low, high=band.high, change=band.modifier)
        for band in ENERGY_BANDS
    )
    kinds = tuple(Term(kind.plural, "creatures") for kind in KIND_ORDER)
    assert by_id["aid.ruling.summoning"] == {"kinds": kinds}
    assert by_id["aid.ruling.actions"] == {
        "kinds": kinds,
        "actions": slash(str(CREATURES[k].actions) for k in KIND_ORDER),
    }
    attack = by_id["aid.ruling.attack"]
    assert attack["sides"] == DIE_SIDES
    assert attack["bonuses"] == slash(str(CREATURES[k].attack_bonus) for k in KIND_ORDER)
    assert attack["bounties"] == slash(str(CREATURES[k].bounty) for k in KIND_ORDER)
    assert [d.fields["defence"] for d in attack["defences"]] == [
        CREATURES[k].defence for k in KIND_ORDER if CREATURES[k].defence is not None
    ]
    assert by_id["aid.ruling.swap"] == {"cost": Message("count.energy", count=WYRM_SWAP_COST)}
    assert by_id["aid.ruling.win"] == {"win": WINNING_ENERGY}
    assert by_id["aid.ruling.rounds"] == {
        "rounds": STANDARD_ROUNDS,
        "extended": EXTENDED_ROUNDS,
        "players": EXTENDED_ROUNDS_MIN_PLAYERS,
    }
    players = by_id["aid.ruling.players"]
    assert (players["low"], players["high"]) == (MIN_PLAYERS, MAX_PLAYERS)
    assert [owned.fields["count"] for owned in players["owned"]] == [
        CREATURES[k].owned for k in KIND_ORDER
    ]
    assert players["costs"] == slash(str(CREATURES[k].cost) for k in KIND_ORDER)


@pytest.mark.parametrize("board_id", ["duel-isle", "gathering-isle"])
def test_a_chosen_boards_territories_and_bonuses_are_on_the_aid(board_id):
    board = shipped_board(board_id)
    assert sections()["domination"].table is None
    table = sections(board=board)["domination"].table
    assert table is not None
    assert [(row[0].text, row[1], row[2]) for row in table.rows] == [
        (territory.label, len(territory.locations), territory.bonus)
        for territory in board.territories
    ]


def test_a_cost_changed_in_a_copy_of_the_rules_table_changes_the_aid():
    """Ruling 14's costs and the creature table follow the table they are given."""
    numbers = rule_numbers()
    troll = numbers.creatures[CreatureKind.TROLL]
    changed = replace(
        numbers,
        creatures={**numbers.creatures, CreatureKind.TROLL: replace(troll, cost=troll.cost + 1)},
    )
    before, after = sections(numbers=numbers), sections(numbers=changed)
    assert before["creatures"].table.rows[1][2] == troll.cost
    assert after["creatures"].table.rows[1][2] == troll.cost + 1
    english = language("en")
    costs = [
        english.render(line) for line in after["rulings"].lines if line.id == "aid.ruling.players"
    ]
    wyrm, sprite = CREATURES[CreatureKind.WYRM].cost, CREATURES[CreatureKind.SPRITE].cost
    assert f"costing {wyrm}/{troll.cost + 1}/{sprite}." in costs[0]
    # Everything else stays as it was.
    assert [s for s in after if before[s] != after[s]] == ["creatures", "rulings"]


@pytest.mark.parametrize("code", ["en", "fr"])
def test_a_text_of_the_aid_names_no_number_but_through_its_values(code):
    """A number typed into a sentence would not follow the table: the catalogs' texts hold
    only 0 (energy's floor, no action) and the +1 of an example of support."""
    with (CATALOGS / f"{code}-aid.po").open("rb") as file:
        catalog = read_po(file, locale=code)
    typed = set()
    for entry in catalog:
        if not entry.id:
            continue  # the header
        texts = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for text in texts:
            typed.update(re.findall(r"\d+", re.sub(r"\{[^}]*\}", "", text)))
    assert typed <= {"0", "1"}
