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
from companion.engine.names import board_context
from companion.engine.turn_order import Tie, final_winner, next_turn_order, tie_notes, ties
from companion.language import Message, Term, Value, by_arrows, by_commas, by_semicolons, by_spaces
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
    # The catalog context of the board's names (a shipped one's are translated): kept as
    # text, the term is made only when a sentence is asked for.
    context: str | None = None

    @property
    def named(self) -> Term | str:
        """The territory as a message names it."""
        return self.name if self.context is None else Term(self.name, self.context)


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
    # The catalog context of the board's names, for the sentences' terms.
    context: str | None = None
    domination: int = 0
    dominated: list[DominationLine] = field(default_factory=list)
    after: int = 0

    @property
    def sprite_terms(self) -> list[tuple[Term, int]]:
        """The territories whose Sprites earned something, as messages name them."""
        return [(Term(name, self.context), count) for name, count in self.sprite_territories]

    def explanation(self, label: str) -> Message:
        """The player's tally as one sentence: 'Red starts on 12; band 10-18 gives +3; ...'."""
        parts: list[Value] = [Message("tally.start", player=label, before=self.before)]
        if self.modifier:
            parts.append(Message("tally.band", band=band_range(self.band), change=self.modifier))
        else:
            parts.append(Message("tally.band_unchanged", band=band_range(self.band)))
        if self.sprite_terms:
            where = by_commas(
                [
                    Message("tally.sprites_in", count=count, territory=territory)
                    for territory, count in self.sprite_terms
                ]
            )
            parts.append(Message("tally.sprites", sprites=self.sprites, where=where))
        for line in self.dominated:
            if line.taken:
                parts.append(Message("tally.holding", territory=line.named, bonus=line.bonus))
            else:
                parts.append(
                    Message("tally.holding_declined", territory=line.named, bonus=line.bonus)
                )
        return Message("tally.explain", clauses=by_semicolons(parts), after=self.after)

    def summary(self, label: str) -> Message:
        """The player's numbers in a few words, for the log: 'Ragna 12 → 16 (band 10-18 +3)'."""
        band = band_range(self.band)
        parts: list[Value] = [
            Message("tally.brief_band", band=band, change=self.modifier)
            if self.modifier
            else Message("tally.brief_band_unchanged", band=band)
        ]
        parts.extend(
            Message(
                "tally.brief_sprites", sprites=Message("count.sprite", count=count), territory=name
            )
            for name, count in self.sprite_terms
        )
        parts.extend(
            Message("tally.brief_taken", territory=line.named, bonus=line.bonus)
            if line.taken
            else Message("tally.brief_declined", territory=line.named)
            for line in self.dominated
        )
        return Message(
            "tally.brief",
            player=label,
            before=self.before,
            after=self.after,
            parts=by_commas(parts),
        )


def band_range(band: EnergyBand) -> Message:
    """An energy band as players read it: '10-18'."""
    return Message("band.range", low=band.low, high=band.high)


@dataclass(slots=True)
class Tally:
    """The whole Energy and Reset result."""

    players: list[PlayerTally]
    turn_order: tuple[str, ...]
    # Each tie in the next order (ruling 12): its total and players; `order_messages` says
    # how it was broken, made only when asked for.
    order_ties: tuple[Tie, ...] = ()
    winner: str | None = None
    summoner: bool = False
    game_over: bool = False
    decided_in: Pass | None = None
    # How the game was won, once it is over.
    winner_message: Message | None = None
    # The round it ended, when run for a game (None for a tally asked on its own).
    round: int | None = None

    # The players' names for the sentences (as the tally was run with them).
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def order_messages(self) -> tuple[Message, ...]:
        """How each tie in the next order was broken (ruling 12), one sentence each."""
        return tie_notes(self.order_ties, self.labels)

    def player(self, player: str) -> PlayerTally:
        """The tally line of one player."""
        for line in self.players:
            if line.player == player:
                return line
        raise KeyError(player)

    def log_message(self, labels: Mapping[str, str]) -> Message:
        """The whole Energy and Reset as one log entry: each player's numbers, then the next
        round's order and how its ties were broken, or how the game ended."""
        players = by_commas([line.summary(labels[line.player]) for line in self.players])
        if self.game_over:
            assert self.winner_message is not None, "a game over has its winner's sentence"
            if self.round is None:
                return Message("log.reset_over", players=players, winner=self.winner_message)
            return Message(
                "log.reset_over_round",
                round=self.round,
                players=players,
                winner=self.winner_message,
            )
        order = by_arrows([labels[player] for player in self.turn_order])
        if self.round is None:
            line = Message("log.reset", players=players, order=order)
        else:
            line = Message("log.reset_round", round=self.round, players=players, order=order)
        whole = by_spaces([line, *self.order_messages])
        assert isinstance(whole, Message), "sentences joined are a message"
        return whole


Gain = Callable[[str, int, "Pass"], None]
# Ruling 11: the sentence for a win at once, by the pass it came in.
_SUMMONER = {
    Pass.MODIFIERS: "winner.summoner_modifiers",
    Pass.SPRITES: "winner.summoner_sprites",
    Pass.DOMINATION: "winner.summoner_domination",
}


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
            tally.winner_message = Message(
                _SUMMONER[stage], player=labels[player], total=totals[player]
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
    tally.order_ties = ties(turn_order, totals)
    tally.labels = labels
    if final_round and not tally.game_over:
        winner, tied = final_winner(turn_order, totals)
        tally.winner, tally.game_over, tally.decided_in = winner, True, Pass.FINAL_ROUND
        if len(tied) > 1:
            tally.winner_message = Message(
                "winner.tie",
                players=tuple(labels[p] for p in tied),
                total=totals[winner],
                player=labels[winner],
            )
        else:
            tally.winner_message = Message(
                "winner.most", player=labels[winner], total=totals[winner]
            )
    return tally


def _sprite_pass(
    isle: Isle,
    turn_order: Sequence[str],
    survey: list[tuple[str | None, int, bool]],
    lines: dict[str, PlayerTally],
    gain: Gain,
) -> None:
    """Ruling 10, pass two: 1 energy per Sprite in a territory holding no rival creature."""
    earned: dict[str, list[tuple[int, int]]] = {player: [] for player in turn_order}
    for t, (owner, sprites, _) in enumerate(survey):
        if owner is not None and sprites:
            earned[owner].append((t, sprites))
    board = isle.board
    context = board_context(board)
    for player in turn_order:
        if earned[player]:
            line = lines[player]
            line.sprite_territories = [
                (board.territories[t].label, count) for t, count in earned[player]
            ]
            line.context = context
            line.sprites = sum(count for _, count in earned[player])
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
    context = board_context(isle.board)
    for player in turn_order:
        refused = declined.get(player, ())
        for t, owner in held:
            if owner != player:
                continue
            territory = isle.board.territories[t]
            taken = territory.id not in refused
            lines[player].dominated.append(
                DominationLine(territory.id, territory.label, territory.bonus, taken, context)
            )
            if taken:
                lines[player].domination += territory.bonus
        if lines[player].domination:
            gain(player, lines[player].domination, Pass.DOMINATION)
