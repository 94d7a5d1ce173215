"""The result of a game as data (the screens draw, the play layer decides): who won
and how (Summoner status at 36, ruling 11, or the most energy after the final round with its
tie-break, ruling 13), every player in the engine's standings, and where an undo from here
leads. The result screen (companion/app/screens/end.py) draws it."""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import Phase
from companion.language import Message
from companion.language.render import Language
from companion.play.session import GameSession, Outcome


@dataclass(frozen=True, slots=True)
class Placed:
    """A player's line in the final standings: who, in which colour, with how much energy."""

    player: str
    label: str
    colour: str
    energy: str


@dataclass(frozen=True, slots=True)
class ResultView:
    """A finished game's result: its winner, the title and how they won, the standings."""

    winner: Placed
    title: str
    how: str
    standings: tuple[Placed, ...]


def result_view(session: GameSession, words: Language) -> ResultView | None:
    """The result of the session's game; None while it is still being played."""
    state = session.state
    winner = state.winner_id
    if not state.is_terminal or winner is None:
        return None
    name = session.label(winner)
    if state.summoner:
        how = Message("app.end.summoner_how", player=name, energy=state.energy_of(winner))
        title = Message("app.end.summoner", player=name)
        # The log's last sentence says how the win came, when it came from a removal.
        if session.saved.log:
            how = Message("app.end.how_with_last", how=how, last=session.saved.log[-1].sentence)
    else:
        tally = state.last_tally
        note = tally.winner_message if tally is not None else None
        how = note or Message("app.end.most_energy", player=name)
        title = Message("app.end.wins", player=name)
    placed = tuple(
        Placed(p, session.label(p), session.colour(p), words.number(state.energy_of(p)))
        for p in state.standings()
    )
    return ResultView(placed[0], words.render(title), words.render(how), placed)


def undo_result(session: GameSession) -> tuple[Outcome, str | None]:
    """Take back the record that ended the game (a win recorded by mistake): the outcome, and
    the screen to go on in (a table game's Energy and Reset, else the game), if undone."""
    outcome = session.undo()
    if not outcome.ok:
        return outcome, None
    state = session.state
    reset = state.phase is Phase.ENERGY_AND_RESET and not state.game.digital
    return outcome, f"/game/{session.id}" + ("/reset" if reset else "")
