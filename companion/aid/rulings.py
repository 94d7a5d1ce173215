"""The rulings the app follows where the rulebook leaves room (docs/rulings.md), one sentence
each, their numbers read from the rules table."""

from __future__ import annotations

from companion.aid.numbers import RuleNumbers
from companion.engine.names import kind_term, kinds_term
from companion.language import Message
from companion.language.message import Value
from models.rules import CreatureStats


def _each(numbers: RuleNumbers, field: str) -> tuple[int | None, ...]:
    """One column of the creature table, in the kinds' order: (Wyrm, Troll, Sprite)."""
    return tuple(getattr(numbers.stats(kind), field) for kind in numbers.kind_order)


def _by_kind(numbers: RuleNumbers, field: str) -> str:
    """One column as players say it: '5/3/1'."""
    return "/".join(str(value) for value in _each(numbers, field))


def _fixed_defences(numbers: RuleNumbers) -> tuple[Message, ...]:
    """'8 for a Wyrm', for each kind that defends with a number (a Sprite rolls)."""
    fixed: list[tuple[CreatureStats, int]] = []
    for kind in numbers.kind_order:
        stats = numbers.stats(kind)
        if stats.defence is not None:
            fixed.append((stats, stats.defence))
    return tuple(
        Message("aid.ruling.defence", kind=kind_term(stats.kind), defence=defence)
        for stats, defence in fixed
    )


def rulings(numbers: RuleNumbers) -> tuple[Message, ...]:
    """Rulings 1 to 14, in order."""
    kinds: tuple[Value, ...] = tuple(kinds_term(kind) for kind in numbers.kind_order)
    return (
        Message("aid.ruling.start", start=numbers.starting_energy),
        Message(
            "aid.ruling.bands",
            bands=tuple(
                Message("aid.ruling.band", low=band.low, high=band.high, change=band.modifier)
                for band in numbers.bands
            ),
        ),
        Message("aid.ruling.summoning", kinds=kinds),
        Message("aid.ruling.stay"),
        Message("aid.ruling.actions", kinds=kinds, actions=_by_kind(numbers, "actions")),
        Message("aid.ruling.move"),
        Message(
            "aid.ruling.attack",
            sides=numbers.die_sides,
            bonuses=_by_kind(numbers, "attack_bonus"),
            defences=_fixed_defences(numbers),
            bounties=_by_kind(numbers, "bounty"),
        ),
        Message("aid.ruling.swap", cost=Message("count.energy", count=numbers.swap_cost)),
        Message("aid.ruling.face_down"),
        Message("aid.ruling.reset"),
        Message("aid.ruling.win", win=numbers.winning_energy),
        Message("aid.ruling.order"),
        Message(
            "aid.ruling.rounds",
            rounds=numbers.standard_rounds,
            extended=numbers.extended_rounds,
            players=numbers.extended_min_players,
        ),
        Message(
            "aid.ruling.players",
            low=numbers.min_players,
            high=numbers.max_players,
            owned=tuple(
                Message(
                    "aid.ruling.owned",
                    count=numbers.stats(kind).owned,
                    one=kind_term(kind),
                    many=kinds_term(kind),
                )
                for kind in numbers.kind_order
            ),
            costs=_by_kind(numbers, "cost"),
        ),
    )
