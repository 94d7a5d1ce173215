"""Home as data: where each unfinished game stands, whose it is, when it was played, its card
(on Home and on a watcher's list), and a game log file imported, each said in the device's
language (the screens draw, the play layer decides)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from babel.dates import format_date
from pydantic import ValidationError

from companion.boards import BoardError
from companion.engine import IllegalCommand
from companion.engine.names import board_term
from companion.language import Message
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.store.errors import StoreError
from companion.store.store import GameSummary, SavedGame, Store
from models.game_log import MAX_LOG_BYTES, GameLog
from models.problems import problem, reason
from models.setup import Mode
from models.strict_json import JSONInputError, loads_bytes


def when(moment: datetime, words: Language = ENGLISH) -> str:
    """A saved time as people say it: 'just now', '5 min ago', '3 h ago', or the date."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    minutes = int((datetime.now(UTC) - moment).total_seconds() // 60)
    if minutes < 1:
        return words.render(Message("app.home.just_now"))
    if minutes < 60:
        return words.render(Message("app.home.minutes_ago", minutes=minutes))
    if minutes < 24 * 60:
        return words.render(Message("app.home.hours_ago", hours=minutes // 60))
    # '23 Nov 2026', '23 nov. 2026': the language's own month names.
    return format_date(moment.astimezone(), "d MMM y", locale=words.locale)


@dataclass(frozen=True)
class Standing:
    """Where an unfinished game stands, as its card on Home says it."""

    board: str
    round: str
    turn: str
    # Where Resume opens: the table, or straight on to Energy and Reset when it waits for it.
    route: str
    # A digital game whose newest record ended a round: that record's seq, and the round as
    # the game's screen shows it until someone there goes on (the Energy and Reset card's).
    reset_seq: int | None = None
    reset_round: str | None = None

    def on_device(self, went_on: object, words: Language = ENGLISH) -> tuple[str, str]:
        """(round, turn) as this device's game screen shows them: a digital game's Energy
        and Reset this device has not gone on from (`went_on`, the seq it went on from) is
        still being read there, in its round (Home never says 'Round 4/6 · Sigrid's
        turn' beside round 3's Energy and Reset card)."""
        if self.reset_seq is None or self.reset_round is None or went_on == self.reset_seq:
            return self.round, self.turn
        return self.reset_round, words.render(Message("app.home.reset_to_read"))


class Standings:
    """Each game's standing at the revision it was read, per database and language: Home
    lists every unfinished game, and replaying them all on each visit would cost some 5 ms a
    game. One per server (`Service.standings`), shared by its pages."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, str, str], tuple[int, Standing]] = {}
        self._lock = threading.Lock()

    def of(self, store: Store, summary: GameSummary, words: Language = ENGLISH) -> Standing:
        """The game's board as players call it, 'Round 3/6', and whose turn it is."""
        key = (store.label, summary.id, words.code)
        with self._lock:
            known = self._known.get(key)
        if known is not None and known[0] == summary.revision:
            return known[1]
        found = standing(store.load(summary.id), words)
        with self._lock:
            self._known[key] = (summary.revision, found)
        return found


def standing(saved: SavedGame, words: Language = ENGLISH) -> Standing:
    """A saved game's board as players call it, 'Round 3/6', and whose turn it is."""
    player = saved.state.current_player
    turn = (
        Message("app.home.turn", player=saved.game.labels[player])
        if player
        else Message("app.home.energy_and_reset")
    )
    tally = saved.state.last_tally
    shown = tally.round if tally is not None else None
    read = saved.setup.mode is Mode.DIGITAL and bool(saved.log) and saved.log[-1].reset is not None
    found = Standing(
        board=words.value(board_term(saved.game.board, short=True), "nu"),
        round=words.render(
            Message("app.home.round", round=saved.state.round, final=saved.setup.final_round)
        ),
        # Only Energy and Reset is nobody's turn in a game still being played.
        turn=words.render(turn),
        route=f"/game/{saved.id}" + ("" if player else "/reset"),
        reset_seq=saved.log[-1].seq if read and shown is not None else None,
        reset_round=words.render(
            Message("app.home.round", round=shown, final=saved.setup.final_round)
        )
        if read and shown is not None
        else None,
    )
    return found


@dataclass(frozen=True, slots=True)
class Deletion:
    """What Home says of deleting a game: its button, the question, and the deed done."""

    button: str
    title: str
    note: str
    done: str


@dataclass(frozen=True, slots=True)
class GameCard:
    """An unfinished game's card, on Home (resume it) or a watcher's list (watch it)."""

    game_id: str
    # Whose game: 'Ragna and Bjorn'.
    players: str
    # 'Round 3/6 · Bjorn's turn', as this device's game screen shows it.
    where: str
    # What a tap on the card does, as a screen reader says it, and where it leads.
    label: str
    route: str
    # Home only: 'Gathering Isle · digital · 5 min ago', and the words of deleting it.
    place: str = ""
    deletion: Deletion | None = None


def resume_card(
    standings: Standings,
    store: Store,
    summary: GameSummary,
    went_on: object = None,
    words: Language = ENGLISH,
) -> GameCard:
    """Home's card of an unfinished game: resume it where the table needs it next, or delete
    it. `went_on` is the Energy and Reset this device went on from in it (`Standing.on_device`)."""
    where = standings.of(store, summary, words)
    round_, turn = where.on_device(went_on, words)
    players = tuple(summary.labels)
    digital = [words.render(Message("app.home.digital"))] if summary.mode == Mode.DIGITAL else []
    updated = when(summary.updated, words)
    return GameCard(
        game_id=summary.id,
        players=players_of(players, words),
        where=f"{round_} · {turn}",
        label=words.render(Message("app.home.resume_game", players=players)),
        route=where.route,
        place=" · ".join([where.board, *digital, updated]),
        deletion=Deletion(
            button=words.render(Message("app.home.delete_game", players=players)),
            title=words.render(Message("app.home.delete_title", players=players)),
            # 'round 3/6' inside the sentence.
            note=words.render(
                Message(
                    "app.home.delete_note",
                    board=where.board,
                    round=where.round[:1].lower() + where.round[1:],
                    when=updated,
                )
            ),
            done=words.render(Message("app.home.deleted", players=players)),
        ),
    )


def watch_card(
    standings: Standings, store: Store, summary: GameSummary, words: Language = ENGLISH
) -> GameCard:
    """A watcher's card of a game being played: where it stands; a tap watches it live."""
    where = standings.of(store, summary, words)
    return GameCard(
        game_id=summary.id,
        players=players_of(summary.labels, words),
        where=f"{where.round} · {where.turn}",
        label=words.render(Message("app.watch.watch_game", players=tuple(summary.labels))),
        route=f"/game/{summary.id}",
    )


def players_of(labels: Sequence[str], words: Language = ENGLISH) -> str:
    """'Ragna and Bjorn', 'Ragna, Bjorn and Sigrid': whose game it is."""
    return words.value(tuple(labels))


def import_log_file(
    store: Store, data: bytes | None, words: Language = ENGLISH
) -> tuple[SavedGame | None, str]:
    """Save a game log file's bytes as a new game: the game and a note, or None and why not.

    The file is read as every input is (models/strict_json.py): a key given twice, a number
    longer than any field's, nesting deeper than any format's are refused in one sentence.
    """
    parsed = None
    try:
        parsed = loads_bytes(data or b"", Message("input.what.file"), MAX_LOG_BYTES)
        log = GameLog.model_validate(parsed)
        saved = store.import_log(log)
    except JSONInputError as error:
        return None, words.render(_json_problem(error.message))
    except ValidationError as error:
        return None, words.render(
            Message("app.import.refused", problem=_log_problem(error, parsed))
        )
    except (IllegalCommand, StoreError, BoardError) as error:
        # Said in the device's language; a database's own error text stays as it came.
        return None, words.render(Message("app.import.refused", problem=error.message))
    players = tuple(player.label for player in saved.setup.players)
    if saved.state.is_terminal:
        return saved, words.render(Message("app.import.finished", players=players))
    return saved, words.render(Message("app.import.done", players=players))


def _json_problem(said: Message) -> Message:
    """Why a file's JSON is refused, as Import says it."""
    fields = said.fields
    if said.id == "input.json.not_utf8":
        return Message("app.import.not_text")
    if said.id == "input.json.malformed":
        return Message("app.import.bad_json", line=fields["line"], column=fields["column"])
    # A value inside the file: the file need not be named, Import is about it.
    inner = fields["problem"] if said.id == "input.json.in" else said
    return Message("app.import.refused", problem=inner)


def _log_problem(error: ValidationError, data: object) -> Message:
    """Why a file is not a game log this app imports, as a message in any language."""
    first = error.errors()[0]
    where = first["loc"]
    # Not an object, another format, no setup or keys a game log never has: some other file.
    if (
        not where
        or where[0] == "format"
        or (len(where) == 1 and first["type"] in ("missing", "extra_forbidden"))
    ):
        return Message("app.import.not_a_log")
    if where[0] == "version":
        # A newer log's version says so itself (models/game_log.py); any other, by its field.
        newer = reason(first)
        if newer is not None:
            return newer
    # Which field is wrong, said by models/problems.py.
    return Message("app.import.in_log", problem=problem(error, data))
