"""Energy and Reset at the table: the board the screen starts from, and the record it ends in.

Creatures stay on the board across rounds (ruling 4), so the board recorded at the last
Energy and Reset is where each creature most likely still stands: only what changed needs
entering. Nothing is assumed: a creature is never recorded where the table did not
put it, nor taken as removed unless the table says so. When the record cannot tell which of
a player's creatures a recorded removal took (two Trolls last seen in two territories, one
removed), none of them is pre-filled: each is left to place, with where they were last seen.

>>> from companion.boards import shipped_board
>>> from companion.engine import Game
>>> from models.commands import Skip, Summon
>>> from models.setup import GameSetup
>>> setup = GameSetup(players=[{"id": "a", "name": "Alice"}, {"id": "b", "name": "Bob"}],
...                   board="duel-isle")
>>> state = Game(setup, shipped_board("duel-isle")).new_initial_state()
>>> for command in (Summon("wyrm"), Skip("summoning"), Skip("actions")):
...     state.apply(command)
>>> draft = reset_draft(state)
>>> draft.groups()
[(Creature(player='a', kind=<CreatureKind.WYRM: 'wyrm'>), 1)]
>>> draft.place(Creature("a", CreatureKind.WYRM), draft.territories[0].id) is None
True
>>> draft.left, len(draft.command().placements), draft.command().removed
(0, 1, ())
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from companion.engine.isle import Isle
from companion.engine.names import kind_term, territory_term
from companion.engine.reset_phase import Occupant, domination_opportunities
from companion.language import Message, by_commas
from models.board import Territory
from models.commands import Declined, EnergyAndReset, Placement, Removed
from models.reset_draft import DraftDeclined, DraftEntries, DraftPlacement
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


class Creature(NamedTuple):
    """One of a player's creatures of a kind: at the table, creatures of a kind are alike."""

    player: str
    kind: CreatureKind


@dataclass(slots=True)
class ResetDraft:
    """The board as entered so far at Energy and Reset, and the creatures still to account for.

    Every creature on the board by the record is in exactly one place: `placed` in a
    territory, `to_place` (not entered yet) or `gone` (marked as not on the board).
    """

    isle: Isle
    # This round's turn order: groups, chips and records follow it.
    order: tuple[str, ...]
    labels: Mapping[str, str]
    placed: dict[str, list[Creature]]
    to_place: dict[Creature, int] = field(default_factory=dict)
    gone: dict[Creature, int] = field(default_factory=dict)
    # What the record says about a group still to place, e.g. 'last seen: North, South'.
    notes: dict[Creature, Message] = field(default_factory=dict)
    # (player, territory id) bonuses the player chose not to take (ruling 10: each is optional).
    declined: set[tuple[str, str]] = field(default_factory=set)
    # The seat of the device that declined each (models/reset_draft.py), for the card to say.
    declined_by: dict[tuple[str, str], str] = field(default_factory=dict)

    @property
    def territories(self) -> tuple[Territory, ...]:
        """The board's territories, in board order."""
        return self.isle.board.territories

    @property
    def left(self) -> int:
        """How many creatures are still to place (or to mark as not on the board)."""
        return sum(self.to_place.values())

    def territory(self, territory_id: str) -> Territory:
        """A territory of the board by id."""
        return self.territories[self.isle.territory_index[territory_id]]

    def free(self, territory_id: str) -> int:
        """How many of a territory's places hold no creature yet."""
        return len(self.territory(territory_id).locations) - len(self.placed[territory_id])

    def groups(self) -> list[tuple[Creature, int]]:
        """The creatures still to place, as (creature, how many), in turn order then kind order."""
        return sorted(
            ((creature, count) for creature, count in self.to_place.items() if count),
            key=lambda item: self._rank(item[0]),
        )

    def gone_groups(self) -> list[tuple[Creature, int]]:
        """The creatures marked as not on the board, as (creature, how many), in order."""
        return sorted(
            ((creature, count) for creature, count in self.gone.items() if count),
            key=lambda item: self._rank(item[0]),
        )

    def name(self, creature: Creature) -> str:
        """A creature as players say it: "Bob's Troll"."""
        return str(self.naming(creature))

    def naming(self, creature: Creature) -> Message:
        """A creature as players say it, in any language: "Bob's Troll"."""
        return Message(
            "creatures.one", player=self.labels[creature.player], kind=kind_term(creature.kind)
        )

    def place(self, creature: Creature, territory_id: str) -> str | None:
        """Put one creature still to place in a territory; why it cannot (in English), or None."""
        refusal = self.put(creature, territory_id)
        return None if refusal is None else str(refusal)

    def put(self, creature: Creature, territory_id: str) -> Message | None:
        """Put one creature still to place in a territory; why it cannot, or None once done."""
        territory = self.territory(territory_id)
        if not self.to_place.get(creature):
            return Message("draft.not_waiting", creature=self.naming(creature))
        if not self.free(territory_id):
            return Message(
                "draft.full",
                territory=territory_term(self.isle.board, territory),
                size=len(territory.locations),
            )
        self.to_place[creature] -= 1
        self._put(territory_id, creature)
        return None

    def take_back(self, creature: Creature, territory_id: str) -> None:
        """Take a creature off a territory: it is to place again (how a move is entered)."""
        self.placed[territory_id].remove(creature)
        self.to_place[creature] = self.to_place.get(creature, 0) + 1

    def mark_gone(self, creature: Creature) -> None:
        """Mark a creature still to place as not on the board (no bounty: nobody took it)."""
        if not self.to_place.get(creature):
            raise ValueError(f"{self.name(creature)} is not waiting to be placed")
        self.to_place[creature] -= 1
        self.gone[creature] = self.gone.get(creature, 0) + 1

    def restore(self, creature: Creature) -> None:
        """Undo a "not on the board": the creature is to place again."""
        if not self.gone.get(creature):
            raise ValueError(f"{self.name(creature)} is not marked as off the board")
        self.gone[creature] -= 1
        self.to_place[creature] = self.to_place.get(creature, 0) + 1

    def decline(self, player: str, territory_id: str, declined: bool, by: str = "") -> None:
        """Decline (or take after all) the bonus of a territory a player holds entirely, on
        the device seated as `by`."""
        if declined:
            self.declined.add((player, territory_id))
            self.declined_by[player, territory_id] = by
        else:
            self.declined.discard((player, territory_id))
            self.declined_by.pop((player, territory_id), None)

    def next_to_place(self, current: Creature | None) -> Creature | None:
        """The group to ask about next: the same one while any is left, else the following one."""
        groups = [creature for creature, _ in self.groups()]
        if not groups:
            return None
        if current in groups:
            return current
        if current is None:
            return groups[0]
        rank = self._rank(current)
        return next((c for c in groups if self._rank(c) > rank), groups[0])

    def entries(self) -> DraftEntries:
        """What the table has entered, as the store keeps it (models/reset_draft.py)."""
        return DraftEntries(
            placed=tuple(
                DraftPlacement(territory, creature.player, creature.kind)
                for territory, creatures in self.placed.items()
                for creature in creatures
            ),
            gone=tuple(
                Removed(creature.player, creature.kind)
                for creature, count in self.gone_groups()
                for _ in range(count)
            ),
            declined=tuple(
                DraftDeclined(player, territory, self.declined_by.get((player, territory), ""))
                for player, territory in sorted(self.declined)
            ),
        )

    def command(self) -> EnergyAndReset:
        """The record of what is entered (version 2: the engine refuses it while any is left)."""
        return self._record(trial=False)

    def trial(self) -> EnergyAndReset:
        """A record for previewing the tally only: the creatures still to place counted as gone.

        Never to be recorded: it would take as removed what the table has not said is.
        """
        return self._record(trial=True)

    def _record(self, trial: bool) -> EnergyAndReset:
        placements: list[Placement] = []
        occupants: list[Occupant] = [None] * self.isle.size
        for territory in self.territories:
            # Any location of a territory will do: the rules look at who holds a territory.
            for location, creature in zip(
                territory.locations, self.placed[territory.id], strict=False
            ):
                placements.append(Placement(location, creature.player, creature.kind))
                occupants[self.isle.index[location]] = creature
        off = Counter(self.gone)
        if trial:
            off.update(self.to_place)
        removed = tuple(
            Removed(creature.player, creature.kind)
            for creature in sorted(off, key=self._rank)
            for _ in range(off[creature])
        )
        # A bonus declined and then lost (a creature taken off) is no choice any more.
        held = domination_opportunities(self.isle, self.order, occupants)
        declined = tuple(
            Declined(player, territory)
            for player, territory in held
            if (player, territory) in self.declined
        )
        return EnergyAndReset(tuple(placements), declined, removed)

    def placed_of(self, creature: Creature) -> list[str]:
        """The territories where the table put creatures like `creature`, one per creature."""
        return [t for t, creatures in self.placed.items() for c in creatures if c == creature]

    def _put(self, territory_id: str, creature: Creature) -> None:
        here = self.placed[territory_id]
        here.append(creature)
        here.sort(key=self._rank)

    def _rank(self, creature: Creature) -> tuple[int, int]:
        return self.order.index(creature.player), KIND_ORDER.index(creature.kind)


def reset_draft(state: GameState) -> ResetDraft:
    """Where a table game's Energy and Reset starts: the last board seen, and what is to place.

    Per player and kind: with no removal recorded this round, every creature stays where the
    last Energy and Reset saw it and the ones summoned since are to place. With removals, the
    survivors are pre-filled only when the record says which they are (none was on the board
    before, or none was summoned and all stood in one territory); otherwise all of them are
    to place, noted with where they were last seen.
    """
    game = state.game
    isle = game.isle
    order = tuple(game.players[seat] for seat in state.turn_order)
    draft = ResetDraft(isle, order, game.labels, {t.id: [] for t in isle.board.territories})
    seen: dict[tuple[int, int], Counter[int]] = {}
    for location, token in enumerate(state.occupant):
        if token is not None:
            seen.setdefault(token, Counter())[isle.territory_of[location]] += 1
    for seat in state.turn_order:
        for k, kind in enumerate(KIND_ORDER):
            creature = Creature(game.players[seat], kind)
            where = seen.get((seat, k), Counter())
            now = state.on_board[seat][k]
            removed = state.returning[seat][k]
            summoned = now + removed - where.total()
            stays = _survivors(where, now, removed, summoned)
            if stays is None:
                draft.to_place[creature] = now
                places = by_commas(
                    [territory_term(isle.board, isle.board.territories[t]) for t in sorted(where)]
                )
                draft.notes[creature] = Message("draft.last_seen", places=places, count=removed)
                continue
            # Seats in turn order, kinds in kind order: each territory's list stays in order.
            for t, count in sorted(stays.items()):
                draft.placed[isle.territory_ids[t]].extend([creature] * count)
            draft.to_place[creature] = now - stays.total()
            if summoned and draft.to_place[creature]:
                draft.notes[creature] = Message("draft.summoned", count=summoned)
    return draft


def draft_from(state: GameState, entries: DraftEntries | None) -> ResetDraft:
    """The draft the table has entered so far, held against the record as it is now.

    None (nothing entered yet) gives the record's own starting draft (`reset_draft`). Else
    every creature on the board by the record is where the table put it, marked gone, or
    still to place. The record can change under a draft (a late summon, a late removal, an
    undo): a creature summoned since is one more to place; one fewer than entered drops a
    'gone' mark first, then one from its territory when all of that group stood in one, and
    otherwise asks where each of that group is again, never guessing which one went. Groups
    still to place keep what the record says of them ('last seen: ...').
    """
    start = reset_draft(state)
    if entries is None:
        return start
    game = state.game
    isle = game.isle
    order = tuple(game.players[seat] for seat in state.turn_order)
    draft = ResetDraft(isle, order, game.labels, {t.id: [] for t in isle.board.territories})
    placed: dict[Creature, list[str]] = {}
    for entry in entries.placed:
        if entry.territory in draft.placed:
            placed.setdefault(Creature(entry.player, CreatureKind(entry.kind)), []).append(
                entry.territory
            )
    gone = Counter(Creature(entry.player, CreatureKind(entry.kind)) for entry in entries.gone)
    for seat in state.turn_order:
        for k, kind in enumerate(KIND_ORDER):
            creature = Creature(game.players[seat], kind)
            now = state.on_board[seat][k]
            where = placed.get(creature, [])
            marked = gone[creature]
            extra = len(where) + marked - now
            if extra > 0:
                dropped = min(extra, marked)
                marked -= dropped
                extra -= dropped
            if extra > 0:
                if len(set(where)) == 1:
                    where = where[extra:]
                else:
                    draft.notes[creature] = Message("draft.again", count=extra)
                    where = []
            for territory in where:
                if draft.free(territory):
                    draft._put(territory, creature)
            draft.gone[creature] = marked
            draft.to_place[creature] = now - marked - len(draft.placed_of(creature))
            if draft.to_place[creature] and creature in start.notes:
                # What the record says of them (last seen, summoned this round) still holds.
                draft.notes.setdefault(creature, start.notes[creature])
    kept = [
        entry
        for entry in entries.declined
        if entry.player in game.seat and entry.territory in draft.placed
    ]
    draft.declined = {(entry.player, entry.territory) for entry in kept}
    draft.declined_by = {(entry.player, entry.territory): entry.by for entry in kept}
    return draft


def _survivors(where: Counter[int], now: int, removed: int, summoned: int) -> Counter[int] | None:
    """Per territory, the creatures of a group still where they were last seen; None if unknown.

    `where` counts the group's creatures by territory at the last Energy and Reset, `removed`
    the ones a recorded removal took this round and `summoned` the ones summoned since.
    """
    if removed == 0:
        return where
    if not where or now == 0:
        # Nothing was on the board before (the removals took new ones), or nothing is left.
        return Counter()
    if summoned == 0 and len(where) == 1:
        ((territory, count),) = where.items()
        return Counter({territory: count - removed})
    # Old or new, this territory or that one: the record cannot say which were removed.
    return None
