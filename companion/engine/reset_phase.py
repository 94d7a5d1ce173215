"""The Energy and Reset phase as one pure function, every number kept for explaining.

Ruling 10: three passes, each in turn order: energy modifiers, then uncontested
Sprites, then domination bonuses (each optional). Ruling 11: the first player to
reach the winning total wins at once and nothing after that is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from companion.engine.isle import Isle
from companion.engine.turn_order import final_winner, next_turn_order, tie_notes
from companion.engine.wording import counted, joined
from models.rules import WINNING_ENERGY, CreatureKind, EnergyBand, band_for

Occupant = tuple[str, CreatureKind] | None


class Pass(StrEnum):
    """The three passes of Energy and Reset, and the end of the final round."""

    MODIFIERS = "modifiers"
    SPRITES = "sprites"
    DOMINATION = "domination"
    FINAL_ROUND = "final round"


@dataclass(frozen=True, slots=True)
class DominationLine:
    """A territory a player holds entirely, its bonus, and whether they took it."""

    territory: str
    name: str
    bonus: int
    taken: bool


@dataclass(slots=True)
class PlayerTally:
    """One player's numbers through Energy and Reset."""

    player: str
    before: int
    band: EnergyBand
    modifier: int = 0
    sprites: int = 0
    # (territory name, Sprites counted there), for territories that earned something.
    sprite_territories: list[tuple[str, int]] = field(default_factory=list)
    domination: int = 0
    dominated: list[DominationLine] = field(default_factory=list)
    after: int = 0

    def explain(self, label: str) -> str:
        """The player's tally as one sentence."""
        parts = [f"{label} starts on {self.before}"]
        sign = f"{self.modifier:+d}" if self.modifier else "no change"
        parts.append(f"band {self.band.label} gives {sign}")
        if self.sprite_territories:
            where = ", ".join(f"{count} in {name}" for name, count in self.sprite_territories)
            parts.append(f"uncontested Sprites give +{self.sprites} ({where})")
        for line in self.dominated:
            verb = f"+{line.bonus}" if line.taken else f"declined ({line.bonus})"
            parts.append(f"holding all of {line.name}: {verb}")
        return "; ".join(parts) + f"; ends on {self.after}."

    def brief(self, label: str) -> str:
        """The player's numbers in a few words, for the log: 'Ragna 12 → 16 (band 10-18 +3)'."""
        sign = f"{self.modifier:+d}" if self.modifier else "no change"
        parts = [f"band {self.band.label} {sign}"]
        parts.extend(
            f"{counted(count, 'Sprite')} in {name}" for name, count in self.sprite_territories
        )
        parts.extend(
            f"{line.name} +{line.bonus}" if line.taken else f"{line.name} declined"
            for line in self.dominated
        )
        return f"{label} {self.before} → {self.after} ({', '.join(parts)})"


@dataclass(slots=True)
class Tally:
    """The whole Energy and Reset result."""

    players: list[PlayerTally]
    turn_order: tuple[str, ...]
    order_notes: tuple[str, ...] = ()
    winner: str | None = None
    summoner: bool = False
    game_over: bool = False
    decided_in: Pass | None = None
    winner_note: str = ""
    # The round it ended, when run for a game (None for a tally asked on its own).
    round: int | None = None

    def player(self, player: str) -> PlayerTally:
        """The tally line of one player."""
        for line in self.players:
            if line.player == player:
                return line
        raise KeyError(player)

    def log_line(self, labels: Mapping[str, str]) -> str:
        """The whole Energy and Reset as one log entry: each player's numbers, then the next
        round's order and how its ties were broken, or how the game ended."""
        when = "" if self.round is None else f", round {self.round}"
        players = ", ".join(line.brief(labels[line.player]) for line in self.players)
        if self.game_over:
            return f"Energy and Reset{when}: {players}. {self.winner_note}"
        order = " → ".join(labels[player] for player in self.turn_order)
        notes = "".join(f" {note}" for note in self.order_notes)
        return f"Energy and Reset{when}: {players}; next order: {order}.{notes}"


Gain = Callable[[str, int, "Pass"], None]


class _Won(Exception):
    """Raised inside the passes when a player reaches the winning total."""


def domination_opportunities(
    isle: Isle, turn_order: Sequence[str], occupants: Sequence[Occupant]
) -> list[tuple[str, str]]:
    """Every (player, territory id) where the player holds every location, in turn order."""
    survey = _survey(isle, occupants)
    return [
        (player, isle.territory_ids[t])
        for player in turn_order
        for t, (owner, _, full) in enumerate(survey)
        if full and owner == player
    ]


def _survey(isle: Isle, occupants: Sequence[Occupant]) -> list[tuple[str | None, int, bool]]:
    """Per territory: its only owner (None if empty or shared), its Sprites, whether it is full."""
    survey: list[tuple[str | None, int, bool]] = []
    sprite = CreatureKind.SPRITE.value  # a plain str compares fastest, and equals the enum
    for members in isle.territory_members:
        owner = None
        shared = False
        sprites = filled = 0
        for i in members:
            occupant = occupants[i]
            if occupant is None:
                continue
            filled += 1
            if owner is None:
                owner = occupant[0]
            elif occupant[0] != owner:
                shared = True
            if occupant[1] == sprite:
                sprites += 1
        survey.append((None if shared else owner, sprites, filled == len(members)))
    return survey


def reset_phase(
    isle: Isle,
    turn_order: Sequence[str],
    energy: Mapping[str, int],
    occupants: Sequence[Occupant],
    declined: Mapping[str, Collection[str]] | None = None,
    final_round: bool = False,
    labels: Mapping[str, str] | None = None,
    round_: int | None = None,
) -> Tally:
    """Run Energy and Reset on the board as it stands; `occupants` is indexed like the isle."""
    labels = labels or {player: player for player in turn_order}
    declined = declined or {}
    totals = dict(energy)
    lines = {
        p: PlayerTally(player=p, before=totals[p], band=band_for(totals[p])) for p in turn_order
    }
    tally = Tally(
        players=[lines[p] for p in turn_order], turn_order=tuple(turn_order), round=round_
    )

    def gain(player: str, amount: int, stage: Pass) -> None:
        totals[player] = max(0, totals[player] + amount)
        if totals[player] >= WINNING_ENERGY:
            tally.winner, tally.summoner, tally.game_over = player, True, True
            tally.decided_in = stage
            tally.winner_note = (
                f"{labels[player]} reached {totals[player]} in the {stage.value} pass and "
                f"wins at once with Summoner status."
            )
            raise _Won

    try:
        for player in turn_order:
            lines[player].modifier = lines[player].band.modifier
            gain(player, lines[player].modifier, Pass.MODIFIERS)
        survey = _survey(isle, occupants)
        _sprite_pass(isle, turn_order, survey, lines, gain)
        _domination_pass(isle, turn_order, survey, lines, declined, gain)
    except _Won:
        pass
    for player in turn_order:
        lines[player].after = totals[player]
    tally.turn_order = next_turn_order(turn_order, totals)
    tally.order_notes = tie_notes(turn_order, totals, labels)
    if final_round and not tally.game_over:
        winner, tied = final_winner(turn_order, totals)
        tally.winner, tally.game_over, tally.decided_in = winner, True, Pass.FINAL_ROUND
        if len(tied) > 1:
            tally.winner_note = (
                f"{joined([labels[p] for p in tied])} tie on {totals[winner]}; {labels[winner]} "
                f"was latest in the final round's order and wins."
            )
        else:
            tally.winner_note = f"{labels[winner]} has the most energy ({totals[winner]}) and wins."
    return tally


def _sprite_pass(
    isle: Isle,
    turn_order: Sequence[str],
    survey: list[tuple[str | None, int, bool]],
    lines: dict[str, PlayerTally],
    gain: Gain,
) -> None:
    """Ruling 10, pass two: 1 energy per Sprite in a territory holding no rival creature."""
    earned: dict[str, list[tuple[str, int]]] = {player: [] for player in turn_order}
    for t, (owner, sprites, _) in enumerate(survey):
        if owner is not None and sprites:
            earned[owner].append((isle.board.territories[t].label, sprites))
    for player in turn_order:
        if earned[player]:
            lines[player].sprite_territories = earned[player]
            lines[player].sprites = sum(count for _, count in earned[player])
            gain(player, lines[player].sprites, Pass.SPRITES)


def _domination_pass(
    isle: Isle,
    turn_order: Sequence[str],
    survey: list[tuple[str | None, int, bool]],
    lines: dict[str, PlayerTally],
    declined: Mapping[str, Collection[str]],
    gain: Gain,
) -> None:
    """Ruling 10, pass three: each territory held entirely may pay its bonus."""
    held = [(t, owner) for t, (owner, _, full) in enumerate(survey) if full and owner is not None]
    for player in turn_order:
        refused = declined.get(player, ())
        for t, owner in held:
            if owner != player:
                continue
            territory = isle.board.territories[t]
            taken = territory.id not in refused
            lines[player].dominated.append(
                DominationLine(territory.id, territory.label, territory.bonus, taken)
            )
            if taken:
                lines[player].domination += territory.bonus
        if lines[player].domination:
            gain(player, lines[player].domination, Pass.DOMINATION)
