"""What a watcher of a shared table sees, as data (the screens draw, the play layer
decides): the games being played, and one game as it stands now, with nothing to record.
The screen (companion/app/screens/watch.py) draws it and redraws it when the game changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from companion.engine import Phase
from companion.language import Message
from companion.language.render import Language
from companion.play.home import GameCard, Standings, watch_card
from companion.play.language_setting import ENGLISH
from companion.play.session import GameSession
from companion.store.store import Store

# The phase a watcher is told, by the engine's phase.
PHASES = {
    Phase.SUMMONING: "app.watch.phase.summoning",
    Phase.ACTIONS: "app.watch.phase.actions",
    Phase.ENERGY_AND_RESET: "app.watch.phase.energy_and_reset",
    Phase.GAME_OVER: "app.watch.phase.game_over",
}


def watch_list(
    standings: Standings, store: Store, words: Language = ENGLISH
) -> tuple[GameCard, ...]:
    """The games being played at this table, most recently played first, each one to watch."""
    return tuple(watch_card(standings, store, summary, words) for summary in store.unfinished())


class Marker(NamedTuple):
    """A player's counter on the energy track."""

    label: str
    colour: str
    energy: int


@dataclass(frozen=True, slots=True)
class Watched:
    """One game as a watcher sees it now: the round, whose turn in which phase, the last
    record, and each player's energy in turn order."""

    title: str
    turn: str
    last: str
    track: tuple[Marker, ...]


def watched(session: GameSession, words: Language = ENGLISH) -> Watched:
    """The game of `session` as it stands, in `words`' language."""
    state = session.state
    player = state.current_player
    if state.is_terminal:
        turn = Message("app.watch.over")
    elif player:
        turn = Message(
            "app.watch.turn", player=session.label(player), phase=Message(PHASES[state.phase])
        )
    else:
        turn = Message("app.home.energy_and_reset")
    label = session.saved.undo_label
    last = Message("app.watch.last", record=label) if label else Message("app.log.empty")
    return Watched(
        title="◈ "
        + words.render(Message("app.home.round", round=state.round, final=state.game.final_round)),
        turn=words.render(turn),
        last=words.render(last),
        track=tuple(
            Marker(session.label(p), session.colour(p), state.energy_of(p)) for p in state.order()
        ),
    )
