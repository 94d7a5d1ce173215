"""`python -m companion game ...`: saved games from the command line, for scripts and support.

Every subcommand takes `--db` (a SQLAlchemy URL or a file path; default $SUMMONERS_ISLE_DB,
else the file in the user's data directory) and `--json`. Bad input exits with status 2
and one line on stderr; a write based on an old revision exits with status 3.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from companion.boards import shipped_board, shipped_board_ids
from companion.cli.game_files import export, import_command
from companion.cli.game_show import history, list_command, show
from companion.cli.game_store import (
    AsJson,
    Db,
    GameId,
    Revision,
    change_json,
    opened,
)
from companion.cli.io import (
    OneLineErrors,
    UserError,
    echo,
    parse_json,
    print_json,
    read_text,
    text_option,
    unicode_argument,
)
from companion.cli.language import Lang
from companion.engine import GameState
from companion.engine.serialize import state_to_json
from companion.language import Message
from companion.language.render import DEFAULT_LANGUAGE, language, render
from models.commands import Command, EnergyAndReset, command_from_json, command_to_json
from models.problems import problem
from models.rules import (
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
)
from models.setup import GameSetup, default_colours

game_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=OneLineErrors,
    help="Saved games: start, play, undo, resume, delete, export and import.",
)

ROUNDS_HELP = (
    f"{STANDARD_ROUNDS}, or {EXTENDED_ROUNDS} for "
    f"{EXTENDED_ROUNDS_MIN_PLAYERS}-{MAX_PLAYERS} players who agree."
)


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


def delete(game_id: GameId, as_json: AsJson = False, db: Db = None) -> None:
    """Delete a saved game and its whole log, for good."""
    with opened(db) as store:
        store.delete_game(game_id)
    if as_json:
        print_json({"id": game_id, "deleted": True})
    else:
        typer.echo(f"deleted {game_id}")


game_app.command()(new)
game_app.command()(legal)
game_app.command("do")(do_command)
game_app.command(
    "undo", help="Take back the newest command (it stays on record, and redo can bring it back)."
)(_taking(redo=False))
game_app.command(
    "redo", help="Bring back the command undone last, if nothing new was recorded since."
)(_taking(redo=True))
game_app.command()(show)
game_app.command()(delete)
game_app.command("list")(list_command)
game_app.command()(history)
game_app.command()(export)
game_app.command("import")(import_command)
