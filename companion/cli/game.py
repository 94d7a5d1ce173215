"""`python -m companion game ...`: saved games from the command line, for scripts and support.

Every subcommand takes `--db` (a SQLAlchemy URL or a file path; default $SUMMONERS_ISLE_DB,
else the file in the user's data directory) and `--json`. Bad input exits with status 2
and one line on stderr; a write based on an old revision exits with status 3.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError

from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.cli.io import (
    OneLineErrors,
    UserError,
    echo,
    fail,
    parse_json,
    print_json,
    read_text,
    text_option,
    unicode_argument,
)
from companion.cli.language import Lang
from companion.engine import GameState, IllegalCommand, Phase
from companion.engine.names import kinds_term
from companion.engine.serialize import state_to_json
from companion.language import Message, by_commas
from companion.language.render import DEFAULT_LANGUAGE, language, render
from companion.store import DB_ENV
from companion.store.errors import GameMovedOn, StoreError
from models.commands import (
    Command,
    CommandFormatError,
    EnergyAndReset,
    command_from_json,
    command_to_json,
)
from models.game_log import MAX_LOG_BYTES, GameLog
from models.problems import problem
from models.rules import (
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
    WINNING_ENERGY,
)
from models.setup import GameSetup, Mode, default_colours
from models.text import json_printable, printable

if TYPE_CHECKING:
    from companion.store.store import GameSummary, LogEntry, SavedGame, Store

game_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=OneLineErrors,
    help="Saved games: start, play, undo, resume, delete, export and import.",
)

# Exit statuses: bad input, and a write that lost a race with another device.
EXIT_MOVED_ON = 3
# Anyone's write permission: a file with none of these bits is read-only.
_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH

Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar=DB_ENV,
        metavar="URL",
        help="A SQLAlchemy URL or a SQLite file path (default: the user data directory).",
        show_default=False,
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
GameId = Annotated[
    str, typer.Argument(metavar="ID", help="The game's id.", callback=unicode_argument)
]
ROUNDS_HELP = (
    f"{STANDARD_ROUNDS}, or {EXTENDED_ROUNDS} for "
    f"{EXTENDED_ROUNDS_MIN_PLAYERS}-{MAX_PLAYERS} players who agree."
)
Revision = Annotated[
    int | None,
    typer.Option(
        min=0,
        help="The revision this change is based on (default: the latest); "
        "a stale one is refused with exit status 3.",
    ),
]


@contextmanager
def opened(db: str | None, lang: str = DEFAULT_LANGUAGE) -> Iterator[Store]:
    """The store, with every failure turned into one line and an exit status.

    Refusals are said in `lang` (a database's own error text stays as the database wrote it).
    """
    # SQL is loaded only here, so other commands of the CLI start as fast as before.
    from companion.store.store import open_store

    try:
        store = open_store(db)
    except StoreError as error:
        fail(str(error))
    for notice in store.notices:
        typer.echo(f"warning: {printable(render(notice, lang))}", err=True)
    try:
        yield store
    except GameMovedOn as error:
        fail(render(error.message, lang), EXIT_MOVED_ON)
    except (IllegalCommand, StoreError, CommandFormatError, BoardError) as error:
        fail(render(error.message, lang))
    except UserError as error:
        fail(str(error))
    finally:
        store.close()


def entry_json(entry: LogEntry, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """One log line as JSON, its sentences in `lang`."""
    return {
        "seq": entry.seq,
        "command": command_to_json(entry.command),
        "description": render(entry.sentence, lang),
        "at": entry.created.isoformat(),
        "energy_and_reset": _said(entry.reset, lang),
    }


def summary_json(game: GameSummary) -> dict[str, Any]:
    """A listing row as JSON."""
    return {
        "id": game.id,
        "status": game.status.value,
        "board": game.board,
        "mode": game.mode,
        "players": dict(zip(game.players, game.labels, strict=True)),
        "round": game.round,
        "final_round": game.final_round,
        "winner": game.winner,
        "summoner": game.summoner,
        "revision": game.revision,
        "created": game.created.isoformat(),
        "updated": game.updated.isoformat(),
    }


def change_json(saved: SavedGame, entry: LogEntry, lang: str) -> dict[str, Any]:
    """What a write did, as JSON: the command concerned and where the game now stands."""
    return {
        "id": saved.id,
        "revision": saved.revision,
        **entry_json(entry, lang),
        "status": saved.status.value,
        "winner": saved.state.winner_id,
        "undo": _said(saved.undo_label, lang),
        "redo": _said(saved.redo_label, lang),
    }


def _said(message: Message | None, lang: str) -> str | None:
    """A message in `lang`, or None for none."""
    return None if message is None else render(message, lang)


def parse_players(text: str) -> list[dict[str, str]]:
    """'red:Ragna,blue' -> players with ids, optional names and distinct default colours.

    UserError when one has no id, a name is left blank after its colon, or the count is off.
    """
    players = []
    for seat, item in enumerate(text.split(","), start=1):
        player_id, colon, name = item.strip().partition(":")
        if not player_id.strip():
            raise UserError(
                f"--players: player {seat} has no id (give ids and names as red:Ragna,blue)"
            )
        if colon and not name.strip():
            # 'red' goes by its id; 'red:' is a name left blank, maybe by mistake.
            raise UserError(f"Player {seat}'s name is blank: write {player_id.strip()} alone")
        players.append({"id": player_id.strip(), "name": name})
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise UserError(
            f"--players: {len(players)} player{'' if len(players) == 1 else 's'}; "
            f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    colours = default_colours([player["id"] for player in players])
    return [player | {"colour": colour} for player, colour in zip(players, colours, strict=True)]


def board_for(players: int) -> str:
    """The first shipped board made for this many players."""
    for board_id in shipped_board_ids():
        board = shipped_board(board_id)
        if board.min_players <= players <= board.max_players:
            return board_id
    raise UserError(f"no shipped board is made for {players} players; name one with --board")


@game_app.command()
def new(
    players: Annotated[
        str, text_option("Comma-separated player ids, each optionally id:Name, in seat order.")
    ],
    board: Annotated[
        str | None, text_option("A shipped board id (default: one made for the players).")
    ] = None,
    rounds: Annotated[int, typer.Option(help=ROUNDS_HELP)] = STANDARD_ROUNDS,
    mode: Annotated[str, text_option("table or digital.")] = "table",
    turn_order: Annotated[
        str | None, text_option("Round 1's order as comma-separated ids (default: seats).")
    ] = None,
    as_json: AsJson = False,
    db: Db = None,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Start a game and print its id."""
    with opened(db, lang) as store:
        seats = parse_players(players)
        data: dict[str, Any] = {
            "players": seats,
            "board": board or board_for(len(seats)),
            "final_round": rounds,
            "mode": mode,
        }
        if turn_order:
            data["turn_order"] = [player.strip() for player in turn_order.split(",")]
        try:
            setup = GameSetup.model_validate(data)
        except ValidationError as error:
            raise UserError(render(problem(error, data), lang)) from None
        saved = store.new_game(setup)
    if as_json:
        print_json(
            {"id": saved.id, "revision": saved.revision, "state": state_to_json(saved.state)}
        )
    else:
        typer.echo(saved.id)


@game_app.command()
def legal(
    game_id: GameId, as_json: AsJson = False, db: Db = None, lang: Lang = DEFAULT_LANGUAGE
) -> None:
    """List the commands the rules allow now, each with its sentence."""
    with opened(db, lang) as store:
        saved = store.load(game_id)
    state = saved.state
    words = language(lang)
    rows = [
        {"command": command_to_json(command), "description": words.render(state.sentence(command))}
        for command in map(state.sign, state.legal_commands())
    ]
    if as_json:
        print_json({"id": saved.id, "revision": saved.revision, "legal": rows})
        return
    for row in rows:
        echo(f"{json.dumps(row['command'], ensure_ascii=False)}  {row['description']}")


@game_app.command("do")
def do_command(
    game_id: GameId,
    command: Annotated[
        str,
        typer.Argument(
            metavar="COMMAND_JSON",
            help="One command as JSON, or - for stdin.",
            callback=unicode_argument,
        ),
    ],
    revision: Revision = None,
    as_json: AsJson = False,
    db: Db = None,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Record one command; an attack without dice gets seeded dice, stored with it."""
    with opened(db, lang) as store:
        text = read_text("-") if command == "-" else command
        parsed = command_from_json(parse_json(text, "the command"))
        latest = store.load(game_id)
        base = latest.revision if revision is None else revision
        saved = store.append(game_id, as_new_record(latest.state, parsed), base)
    entry = saved.log[-1]
    if as_json:
        print_json(change_json(saved, entry, lang))
    else:
        echo(render(entry.sentence, lang))
        if entry.reset:
            echo(render(entry.reset, lang))


def as_new_record(state: GameState, command: Command) -> Command:
    """A command typed at one terminal, as log version 2 records it.

    Left without `by`, it is made by the player whose turn it is (one person at one
    terminal); an Energy and Reset without `removed` says no creature left the board
    unrecorded, so every creature on the board by the record must be placed.
    """
    if isinstance(command, EnergyAndReset) and command.removed is None:
        return command._replace(removed=())
    return state.sign(command)


def _taking(*, redo: bool) -> Callable[..., None]:
    """The `undo` command, or the `redo` one: one tap taken back or brought back."""

    def take(
        game_id: GameId,
        revision: Revision = None,
        as_json: AsJson = False,
        db: Db = None,
        lang: Lang = DEFAULT_LANGUAGE,
    ) -> None:
        """Undo (or redo) one tap from `revision` (None: the latest), and say what it was."""
        with opened(db, lang) as store:
            base = store.load(game_id).revision if revision is None else revision
            saved = store.redo(game_id, base) if redo else store.undo(game_id, base)
        entry = saved.log[-1] if redo else saved.undone[0]
        if as_json:
            print_json(change_json(saved, entry, lang))
        else:
            sentence = entry.sentence
            said = (
                Message("cli.redone", sentence=sentence)
                if redo
                else Message("cli.undone", sentence=sentence)
            )
            echo(render(said, lang))

    return take


game_app.command(
    "undo", help="Take back the newest command (it stays on record, and redo can bring it back)."
)(_taking(redo=False))
game_app.command(
    "redo", help="Bring back the command undone last, if nothing new was recorded since."
)(_taking(redo=True))


@game_app.command()
def show(
    game_id: GameId, as_json: AsJson = False, db: Db = None, lang: Lang = DEFAULT_LANGUAGE
) -> None:
    """Show a game: where it stands, its log, what undo and redo would do."""
    with opened(db, lang) as store:
        saved = store.load(game_id)
        energy = store.energy_by_round(game_id)
    if as_json:
        print_json(
            {
                "id": saved.id,
                "revision": saved.revision,
                "status": saved.status.value,
                "created": saved.created.isoformat(),
                "updated": saved.updated.isoformat(),
                "setup": saved.setup.model_dump(mode="json"),
                "state": state_to_json(saved.state),
                "position": saved.state.position(),
                "log": [entry_json(entry, lang) for entry in saved.log],
                "undone": [entry_json(entry, lang) for entry in saved.undone],
                "undo": _said(saved.undo_label, lang),
                "redo": _said(saved.redo_label, lang),
                "energy_by_round": energy,
            }
        )
        return
    for line in show_lines(saved, energy, lang):
        echo(line)


def show_lines(
    saved: SavedGame, energy: dict[str, list[int]], lang: str = DEFAULT_LANGUAGE
) -> list[str]:
    """A game as readable lines, in a language."""
    words = language(lang)
    say = words.render
    state = saved.state
    labels = saved.game.labels
    setup = saved.setup
    board = setup.board if isinstance(setup.board, str) else setup.board.id
    status = Message("cli.status.finished") if state.is_terminal else Message("cli.status.active")
    mode = Message("cli.mode.table") if setup.mode is Mode.TABLE else Message("cli.mode.digital")
    lines = [
        say(
            Message(
                "cli.show.game",
                id=saved.id,
                revision=saved.revision,
                status=status,
                board=board,
                mode=mode,
                round=state.round,
                final=setup.final_round,
            )
        )
    ]
    if state.is_terminal:
        assert state.winner_id is not None, "a finished game has a winner"
        winner = labels[state.winner_id]
        if state.summoner:
            lines.append(say(Message("cli.show.summoner", player=winner, energy=WINNING_ENERGY)))
        else:
            lines.append(say(Message("cli.show.most_energy", player=winner)))
    else:
        where = say(_phase(state))
        if state.current_player:
            where = say(Message("cli.show.to_play", now=where, player=labels[state.current_player]))
        lines.append(where)
    totals = [
        Message("cli.show.player_energy", player=labels[p], energy=state.energy_of(p))
        for p in saved.game.players
    ]
    lines.append(say(Message("cli.show.energy", players=by_commas(totals))))
    lines.append(say(Message("cli.show.position", position=state.position())))
    if any(energy.values()):
        lines.append(say(Message("cli.show.rounds")))
        lines.extend(
            "  "
            + say(
                Message(
                    "cli.show.round_energy",
                    player=labels[p],
                    energies=" ".join(words.number(e) for e in rounds),
                )
            )
            for p, rounds in energy.items()
        )
    lines.append(say(Message("cli.show.log", count=len(saved.log))))
    for entry in saved.log:
        lines.append(f"  {entry.seq:4}  {say(entry.sentence)}")
        if entry.reset:
            lines.append(f"        {say(entry.reset)}")
    lines.append(say(Message("cli.show.undo", label=saved.undo_label or "-")))
    lines.append(say(Message("cli.show.redo", label=saved.redo_label or "-")))
    return lines


def _phase(state: GameState) -> Message:
    """Where the round is, for `game show`: 'actions, Troll step'."""
    phases = {
        Phase.SUMMONING: Message("cli.phase.summoning"),
        Phase.ACTIONS: Message("cli.phase.actions"),
        Phase.ENERGY_AND_RESET: Message("cli.phase.energy_and_reset"),
        Phase.GAME_OVER: Message("cli.phase.game_over"),
    }
    phase = phases[state.phase]
    if state.step_kind is None:
        return phase
    return Message("cli.show.step", phase=phase, kinds=kinds_term(state.step_kind))


@game_app.command()
def delete(game_id: GameId, as_json: AsJson = False, db: Db = None) -> None:
    """Delete a saved game and its whole log, for good."""
    with opened(db) as store:
        store.delete_game(game_id)
    if as_json:
        print_json({"id": game_id, "deleted": True})
    else:
        typer.echo(f"deleted {game_id}")


@game_app.command("list")
def list_command(
    unfinished: Annotated[bool, typer.Option(help="Only games that can be resumed.")] = False,
    finished: Annotated[bool, typer.Option(help="Only games that are over.")] = False,
    as_json: AsJson = False,
    db: Db = None,
) -> None:
    """List saved games, most recently played first."""
    with opened(db) as store:
        if unfinished and finished:
            raise UserError("choose --unfinished or --finished, not both")
        from models.records import GameStatus

        status = GameStatus.ACTIVE if unfinished else GameStatus.FINISHED if finished else None
        games = store.games(status)
    if as_json:
        print_json([summary_json(game) for game in games])
        return
    for game in games:
        outcome = f"won by {game.labels[game.players.index(game.winner)]}" if game.winner else ""
        when = game.updated.strftime("%Y-%m-%d %H:%M UTC")
        echo(
            f"{game.id}  {game.status.value:8}  round {game.round}/{game.final_round}  "
            f"{', '.join(game.labels)}  {when}  {outcome}".rstrip()
        )


@game_app.command()
def history(as_json: AsJson = False, db: Db = None) -> None:
    """Finished games summed up: wins by name, seat and starting position, how they were won."""
    with opened(db) as store:
        report = store.history()
    if as_json:
        print_json(report.to_json())
        return

    def row(counts: dict[str, int]) -> str:
        return "  ".join(f"{key}: {value}" for key, value in counts.items())

    typer.echo(f"finished games:          {report.games}")
    typer.echo(f"wins by name:            {row(report.wins_by_name)}")
    typer.echo(f"wins by seat:            {row(report.wins_by_seat)}")
    typer.echo(f"wins by start position:  {row(report.wins_by_start_position)}")
    typer.echo(f"Summoner ({WINNING_ENERGY}) wins:      {report.summoner_wins}")
    typer.echo(f"final-round wins:        {report.final_round_wins}")


@game_app.command()
def export(
    game_id: GameId,
    output: Annotated[
        Path | None, typer.Option(help="Write to this file instead of standard output.")
    ] = None,
    as_json: AsJson = False,
    db: Db = None,
) -> None:
    """Write the game log (docs/game-log.md) of the game's active commands; always JSON."""
    with opened(db) as store:
        log = store.export(game_id)
        text = json.dumps(log.to_json(), indent=2, ensure_ascii=False) + "\n"
        if output is None:
            typer.echo(json_printable(text), nl=False)
        else:
            write_whole(output, text)


def write_whole(path: Path, text: str) -> None:
    """Write a file so it is either complete or untouched: a temporary file, then a rename.

    A symbolic link is written through (the file it points to is replaced, the link stays);
    an existing file keeps its permissions; a read-only file is left as it is (the rename
    needs only the folder's permission, so it is checked here); anything but a regular file
    or a new path (a folder, a FIFO, a device) is refused. Whatever stops the writing, no
    temporary file is left behind.
    """
    path = Path(os.path.realpath(path.expanduser()))
    temporary: str | None = None
    try:
        try:
            existing = path.stat()
        except FileNotFoundError:
            mode = _new_file_mode()
        else:
            if not stat.S_ISREG(existing.st_mode):
                raise UserError(f"cannot write {path}: it is not a regular file")
            mode = stat.S_IMODE(existing.st_mode)
            # Root may write anything: the permission bits still say what the owner meant.
            if not mode & _WRITABLE or not os.access(path, os.W_OK):
                raise UserError(str(Message("input.output.read_only", path=str(path))))
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def _new_file_mode() -> int:
    """The permissions a new file gets here: read and write for all, less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


@game_app.command("import")
def import_command(
    source: Annotated[str, typer.Argument(metavar="FILE", help="A game log, or - for stdin.")],
    as_json: AsJson = False,
    db: Db = None,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Save a game log as a new game (every command checked) and print its id."""
    with opened(db, lang) as store:
        text = read_text(source, MAX_LOG_BYTES)
        data = parse_json(text, "standard input" if source == "-" else source)
        try:
            log = GameLog.model_validate(data)
        except ValidationError as error:
            said = Message("problem.in_game_log", problem=problem(error, data))
            raise UserError(render(said, lang)) from None
        saved = store.import_log(log)
    if as_json:
        print_json({"id": saved.id, "revision": saved.revision, "status": saved.status.value})
    else:
        typer.echo(saved.id)
