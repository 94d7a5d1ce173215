""" "What would the computer do?" on the digital board: the bots' choice for the person to
decide, what it is about on the isle, and the chance it keeps. Plain Python.

The choice is the search's (`bots`, the hardest level), the spaces and the way a move goes
are the engine's (`GameState.places`, `move_path`), and the chance is the coach's, after the
choice, the dice of an attack at their odds (`coach.Estimator`). A hint records nothing:
it is derived data, like the chances (docs/coach.md), and belongs to the position it was
asked for. `HintAsk` keeps a screen's hint in step with the game: one search at a time,
gone when the position moves on, and a late answer dropped.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from companion.bots import make_bot
from companion.coach.chances import DEFAULT_BUDGET, Estimator
from companion.coach.review import percent
from companion.engine import Game, GameState
from companion.engine.replay import replay
from companion.language import Message
from companion.play.coach_work import CoachWork, records_key
from models.commands import Attack, Command, Move, Summon, Swap
from models.rules import CreatureKind

# The computer asked: the strongest level, as a person would want advice from.
HINT_BOT = "mcts:hard"


@dataclass(frozen=True, slots=True)
class HintMarks:
    """What a hint draws on the isle, by location id: the spaces ringed, the way an arrow
    goes (first space to last; empty: no arrow), and the kind a summon would bring."""

    rings: tuple[str, ...]
    arrow: tuple[str, ...] = ()
    summons: CreatureKind | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """The command the computer would play for `player`, and their chance after it."""

    player: str
    command: Command
    # The command as the log would say it, from the position asked about.
    sentence: Message
    marks: HintMarks
    # The player's chance to win after the command (0 to 1), an attack's dice at their odds.
    keeps: float

    def message(self, labels: dict[str, str]) -> Message:
        """'The computer would play: Ann summons a Troll onto Rune Hollow 3 (...). Ann would
        keep a 41% chance to win.'"""
        said = "hint.said_dice" if type(self.command) is Attack else "hint.said"
        return Message(
            said, move=self.sentence, player=labels[self.player], percent=percent(self.keeps)
        )


def hint_marks(state: GameState, command: Command) -> HintMarks:
    """Where a command shows on the isle: its spaces (the engine's), a move's way along the
    paths it takes, an attack's or a swap's from one creature to the other."""
    places = state.places(command)
    kind = type(command)
    if kind is Move:
        assert isinstance(command, Move)
        return HintMarks(rings=(command.to,), arrow=state.move_path(command.to))
    if kind in (Attack, Swap) and len(places) == 2:
        return HintMarks(rings=places[1:], arrow=places)
    if kind is Summon:
        assert isinstance(command, Summon)
        return HintMarks(rings=places, summons=CreatureKind(command.kind))
    return HintMarks(rings=places)


def hint_seed(game_id: str, records: Sequence[Command]) -> int:
    """The search's and the playouts' seed for a position: the same hint for the same records."""
    return zlib.crc32(records_key(game_id, records).encode())


def work_out_hint(
    state: GameState, seed: int, bot: str = HINT_BOT, budget: int = DEFAULT_BUDGET
) -> Hint:
    """The computer's command for the player to decide in `state`, and the chance it keeps.

    Slow (a search, then playouts): run it off the screen's thread (`CoachWork.hint`).
    """
    player = state.current_player
    if player is None:
        raise ValueError("nobody decides in this position")
    command = make_bot(bot, seed=seed).choose(state.clone())
    estimator = Estimator(seed)
    keeps = 0.0
    for probability, outcome in state.chance_outcomes(command):
        after = state.clone()
        after.apply(outcome)
        keeps += probability * estimator.chances(after, budget).chance(player)
    return Hint(player, command, state.sentence(command), hint_marks(state, command), keeps)


def hint_after(game: Game, records: Sequence[Command], seed: int) -> Hint:
    """The hint right after `records` (the coach's worker runs it)."""
    return work_out_hint(replay(game, records), seed)


async def coach_hint(
    coach: CoachWork, game_id: str, game: Game, records: Sequence[Command]
) -> Hint:
    """The hint right after `records`, worked out by the coach's worker (once per position
    for every page of the server; a page asking while it is under way waits for it)."""
    kept = tuple(records)
    key = records_key(game_id, kept)
    seed = hint_seed(game_id, kept)
    return await coach.result("hint/" + key, partial(hint_after, game, kept, seed))


@dataclass(frozen=True, slots=True)
class HintPanel:
    """What the hint's control shows: whether it is offered, its words, whether a tap on it
    asks (not while thinking), and the hint's sentence or that the computer is thinking."""

    offered: bool
    button: Message
    enabled: bool
    thinking: bool
    said: Message | None = None


class HintAsk:
    """One screen's hint: asked for one position (any key naming it, such as the saved game's
    revision), searched once, shown while the game stays there."""

    def __init__(self) -> None:
        # The position asked about, and its hint once worked out (None while thinking).
        self._asked: tuple[object, Hint | None] | None = None
        self._failed: Message | None = None

    @property
    def thinking(self) -> bool:
        """Whether a search asked for here is under way."""
        return self._asked is not None and self._asked[1] is None and self._failed is None

    def ask(self, position: object) -> bool:
        """A tap on the control at `position`: whether to start a search. Not while one is
        under way; a tap on a hint shown hides it."""
        if self._asked is not None and self._asked[0] == position and self._failed is None:
            if self._asked[1] is not None:
                self._asked = None
            return False
        self._asked, self._failed = (position, None), None
        return True

    def moved(self, position: object) -> bool:
        """The game is at `position` now: a hint for another is gone. Whether one went."""
        if self._asked is None or self._asked[0] == position:
            return False
        self._asked, self._failed = None, None
        return True

    def answered(self, position: object, hint: Hint) -> bool:
        """A search's answer for `position`: kept (True) only if the game is still there and
        it was asked for; a late answer is dropped."""
        if self._asked != (position, None) or self._failed is not None:
            return False
        self._asked = (position, hint)
        return True

    def failed(self, position: object, reason: Message) -> bool:
        """The search for `position` failed: said (True) if the game is still there."""
        if self._asked != (position, None):
            return False
        self._failed = reason
        return True

    def shown(self, position: object) -> Hint | None:
        """The hint to draw at `position`, if one was worked out for it."""
        if self._asked is None or self._asked[0] != position:
            return None
        return self._asked[1]

    def panel(self, position: object, offered: bool, labels: dict[str, str]) -> HintPanel:
        """The control and its sentence at `position`; `offered`: a person here decides now."""
        button = Message("hint.ask")
        if not offered:
            return HintPanel(False, button, False, False)
        if self.thinking:
            return HintPanel(True, button, False, True, Message("hint.thinking"))
        if self._failed is not None:
            return HintPanel(True, button, True, False, self._failed)
        hint = self.shown(position)
        if hint is None:
            return HintPanel(True, button, True, False)
        return HintPanel(True, Message("hint.hide"), True, False, hint.message(labels))
