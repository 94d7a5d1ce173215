"""History as data (the screens draw, the play layer decides): finished games, and
who wins them by name, by seat and by starting position, said in the device's language.
The screen (companion/app/screens/history.py) draws it and opens a game's result on a tap."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.language import Message
from companion.language.message import Value
from companion.language.render import Language
from companion.play.home import players_of, when
from companion.play.language_setting import ENGLISH
from companion.store.store import GameSummary, Store
from models.rules import WINNING_ENERGY

# Ordinals with their own ending ('1st', '2nd', '3rd'; French '1er'); any other: 'app.history.nth'.
_ORDINALS = {"1": "app.history.first", "2": "app.history.second", "3": "app.history.third"}


@dataclass(frozen=True, slots=True)
class Wins:
    """One way of counting wins: its title and a line per name, seat or place."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game's line: who won, then whose game, how it was won and when."""

    game_id: str
    won: str
    detail: str
    # Where a tap on it leads: the game's result.
    route: str


@dataclass(frozen=True, slots=True)
class HistoryView:
    """Everything History shows; no games: none was finished yet."""

    finished: str
    wins: tuple[Wins, ...]
    how_won: str
    games: tuple[FinishedGame, ...]


def history_view(store: Store, words: Language = ENGLISH) -> HistoryView:
    """The finished games of `store` and their counts, in `words`' language."""
    history = store.history()

    def say(message_id: str, /, **values: Value) -> str:
        return words.render(Message(message_id, **values))

    def wins(title: str, counts: dict[str, int], place: Callable[[str], str]) -> Wins:
        return Wins(
            say(title),
            tuple(
                say("app.history.wins_of", place=place(key), count=n) for key, n in counts.items()
            ),
        )

    return HistoryView(
        finished=say("app.history.finished", count=history.games),
        wins=(
            wins("app.history.by_player", history.wins_by_name, lambda name: name),
            wins(
                "app.history.by_seat",
                history.wins_by_seat,
                lambda seat: say("app.new.player", seat=int(seat)),
            ),
            wins(
                "app.history.by_place",
                history.wins_by_start_position,
                lambda place: ordinal(place, words),
            ),
        ),
        how_won=say(
            "app.history.how_won",
            energy=WINNING_ENERGY,
            summoner=history.summoner_wins,
            final=history.final_round_wins,
        ),
        games=tuple(
            finished_game(summary, words) for summary in store.games() if summary.winner is not None
        ),
    )


def finished_game(summary: GameSummary, words: Language = ENGLISH) -> FinishedGame:
    """A won game's line: 'Ragna won', then 'Ragna and Bjorn · Summoner (36) · 3 h ago'."""
    assert summary.winner is not None, "only a won game is listed"
    winner = summary.labels[summary.players.index(summary.winner)]
    how = (
        Message("app.history.summoner", energy=WINNING_ENERGY)
        if summary.summoner
        else Message("app.history.final_round")
    )
    return FinishedGame(
        game_id=summary.id,
        won=words.render(Message("app.history.won", player=winner)),
        detail=" · ".join(
            [players_of(summary.labels, words), words.render(how), when(summary.updated, words)]
        ),
        route=f"/game/{summary.id}/end",
    )


def ordinal(place: str, words: Language = ENGLISH) -> str:
    """'1' as '1st', '2' as '2nd', and so on, in `words`' language."""
    message = _ORDINALS.get(place)
    if message is not None:
        return words.render(Message(message))
    return words.render(Message("app.history.nth", place=int(place))) if place.isdigit() else place
