"""The player aid as data: sections of messages and small tables, every number read from
the rules table (`RuleNumbers`) and every chance from the engine's `attack_odds`.

Nothing here is in a language: a section holds messages, names (`Term`s), whole numbers and
chances (`Fraction`s); `companion.aid.page` renders them. The chances are the engine's,
from the rules table it plays by, whatever `RuleNumbers` the rest is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from companion.aid.numbers import RuleNumbers, rule_numbers
from companion.aid.rulings import rulings
from companion.engine.constants import KIND_INDEX
from companion.engine.dice import attack_odds, rolls_defence
from companion.engine.names import board_term, kind_term, kinds_term, territory_term
from companion.language import Message
from companion.language.message import Value
from models.board import Board
from models.rules import CreatureKind

# What a table's cell holds: a name, a number, a message, or an attack's chance.
Cell: TypeAlias = "Value | Fraction"


@dataclass(frozen=True, slots=True)
class Table:
    """A small table: its column heads, then rows that each start with their own head."""

    columns: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True, slots=True)
class Section:
    """One part of the aid: a title, sentences (`numbered`: in order), perhaps a table."""

    key: str
    title: Message
    lines: tuple[Message, ...] = ()
    table: Table | None = None
    numbered: bool = False


def energy(amount: int) -> Message:
    """An amount of energy: '3 energy' ('3 points d'énergie')."""
    return Message("count.energy", count=amount)


def _kinds(numbers: RuleNumbers) -> tuple[Value, ...]:
    return tuple(kinds_term(kind) for kind in numbers.kind_order)


def round_section(numbers: RuleNumbers) -> Section:
    """The round's three phases, in order."""
    kinds = _kinds(numbers)
    return Section(
        "round",
        Message("aid.round.title"),
        (
            Message("aid.round.summoning", kinds=kinds),
            Message("aid.round.actions", kinds=kinds),
            Message("aid.round.reset"),
        ),
        numbered=True,
    )


def creatures_section(numbers: RuleNumbers) -> Section:
    """Each creature's numbers, and what an attack is."""
    sides = numbers.die_sides
    rows = []
    for kind in numbers.kind_order:
        stats = numbers.stats(kind)
        defence: Cell = (
            Message("aid.cell.rolled_defence", sides=sides)
            if stats.defence is None
            else stats.defence
        )
        rows.append(
            (
                kind_term(kind),
                stats.owned,
                stats.cost,
                Message("aid.cell.roll_plus", sides=sides, bonus=stats.attack_bonus),
                defence,
                stats.actions,
                stats.bounty,
            )
        )
    columns = (
        Message("aid.column.creature"),
        Message("aid.column.owned"),
        Message("aid.column.cost"),
        Message("aid.column.attack"),
        Message("aid.column.defence"),
        Message("aid.column.actions"),
        Message("aid.column.bounty"),
    )
    return Section(
        "creatures",
        Message("aid.creatures.title"),
        (
            Message("aid.creatures.attack", sides=sides),
            Message("aid.creatures.support", sides=sides),
            Message("aid.creatures.success"),
            Message("aid.creatures.removed"),
            Message("aid.creatures.face_down"),
        ),
        Table(columns, tuple(rows)),
    )


def swap_section(numbers: RuleNumbers) -> Section:
    """The Wyrm swap."""
    return Section(
        "swap",
        Message("aid.swap.title"),
        (Message("aid.swap.text", cost=energy(numbers.swap_cost)),),
    )


def movement_section() -> Section:
    """How a creature moves."""
    return Section(
        "movement",
        Message("aid.movement.title"),
        (Message("aid.movement.text"), Message("aid.movement.through")),
    )


def energy_section(numbers: RuleNumbers) -> Section:
    """The energy track's bands and what each changes at Energy and Reset."""
    rows = tuple(
        (
            Message("aid.cell.band", low=band.low, high=band.high),
            Message("aid.cell.change", change=band.modifier),
        )
        for band in numbers.bands
    )
    return Section(
        "energy",
        Message("aid.energy.title"),
        (
            Message(
                "aid.energy.start",
                start=energy(numbers.starting_energy),
                win=numbers.winning_energy,
            ),
            Message("aid.energy.modifiers"),
        ),
        Table((Message("aid.column.energy"), Message("aid.column.modifier")), rows),
    )


def sprites_section() -> Section:
    """What uncontested Sprites earn."""
    return Section("sprites", Message("aid.sprites.title"), (Message("aid.sprites.text"),))


def domination_section(numbers: RuleNumbers, board: Board | None) -> Section:
    """Domination bonuses, declining them, and the chosen board's territories."""
    low, high = numbers.domination_bonus
    table = None
    if board is not None:
        table = Table(
            (
                Message("aid.column.territory"),
                Message("aid.column.locations"),
                Message("aid.column.bonus"),
            ),
            tuple(
                (territory_term(board, territory), len(territory.locations), territory.bonus)
                for territory in board.territories
            ),
        )
    lines = [
        Message("aid.domination.text", low=low, high=high),
        Message("aid.domination.decline"),
    ]
    if board is not None:
        lines.append(Message("aid.domination.board", board=board_term(board, short=True)))
    return Section("domination", Message("aid.domination.title"), tuple(lines), table)


def order_section() -> Section:
    """The next round's turn order and its tie rule."""
    return Section("order", Message("aid.order.title"), (Message("aid.order.text"),))


def end_section(numbers: RuleNumbers) -> Section:
    """How the game ends, and the optional longer game."""
    return Section(
        "end",
        Message("aid.end.title"),
        (
            Message("aid.end.summoner", win=numbers.winning_energy),
            Message("aid.end.final", rounds=numbers.standard_rounds),
            Message(
                "aid.end.extended",
                players=numbers.extended_min_players,
                rounds=numbers.extended_rounds,
                standard=numbers.standard_rounds,
            ),
        ),
    )


def odds_table(numbers: RuleNumbers) -> Table:
    """Every defender (a defending Sprite with each possible support) against every attacker."""
    most_support = numbers.stats(CreatureKind.SPRITE).owned - 1
    rows: list[tuple[Cell, ...]] = []
    for defender in numbers.kind_order:
        supports = range(most_support + 1) if rolls_defence(KIND_INDEX[defender]) else (None,)
        for support in supports:
            head: Cell = (
                kind_term(defender)
                if support is None
                else Message("aid.cell.supported", kind=kind_term(defender), support=support)
            )
            rows.append(
                (
                    head,
                    *(
                        attack_odds(attacker, defender, support or 0)
                        for attacker in numbers.kind_order
                    ),
                )
            )
    columns: tuple[Cell, ...] = (
        Message("aid.column.defender"),
        *(kind_term(kind) for kind in numbers.kind_order),
    )
    return Table(columns, tuple(rows))


def odds_section(numbers: RuleNumbers) -> Section:
    """The chance of every attack."""
    return Section(
        "odds",
        Message("aid.odds.title"),
        (Message("aid.odds.text"),),
        odds_table(numbers),
    )


def rulings_section(numbers: RuleNumbers) -> Section:
    """The rulings the app follows where the rulebook leaves room."""
    return Section("rulings", Message("aid.rulings.title"), rulings(numbers), numbered=True)


def aid_sections(numbers: RuleNumbers | None = None, board: Board | None = None) -> list[Section]:
    """The whole aid, in reading order; `board` adds its territories and their bonuses."""
    numbers = numbers or rule_numbers()
    return [
        round_section(numbers),
        creatures_section(numbers),
        swap_section(numbers),
        movement_section(),
        energy_section(numbers),
        sprites_section(),
        domination_section(numbers, board),
        order_section(),
        end_section(numbers),
        odds_section(numbers),
        rulings_section(numbers),
    ]
