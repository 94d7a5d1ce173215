"""The command line: `python -m companion tally|replay|game|analyse|aid|simulate|bench|app`.

Every command reads or prints JSON where it makes sense; bad input exits with
status 2 and one line on stderr naming the problem, never a traceback.
"""

from __future__ import annotations

import math
import os
import sys
from enum import StrEnum
from typing import Annotated, Any, NoReturn

import typer
from pydantic import ValidationError

from companion.boards import BoardError, resolve_board
from companion.cli.aid import aid
from companion.cli.analyse import analyse
from companion.cli.game import game_app
from companion.cli.io import (
    OneLineErrors,
    UserError,
    echo,
    fail,
    print_json,
    read_json,
    unicode_argument,
)
from companion.cli.language import Lang
from companion.cli.logs import replayed_log
from companion.cli.serve import app_command
from companion.engine import reset_phase
from companion.engine.isle import compile_isle
from companion.engine.serialize import state_to_json
from companion.language.render import DEFAULT_LANGUAGE, language, render
from companion.store.errors import StoreError
from models.problems import problem
from models.tally_request import TallyRequest

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=OneLineErrors,
    help="Summoner's Isle Companion: rules engine tools.",
)
app.add_typer(game_app, name="game")
app.command("analyse")(analyse)
app.command("aid")(aid)

INPUT_HELP = "A JSON file, or - to read standard input."


class Clock(StrEnum):
    """What the bots of a simulation read their budgets on, or a bench's playouts are timed on."""

    WALL = "wall"
    CPU = "cpu"


MAX_BENCH_SECONDS = 600
MAX_WAIT_GAMES = 100
MAX_LOAD_TABLES = 500
MAX_CALIBRATION_GAMES = 1000
MAX_CALIBRATION_BUDGET = 10_000


@app.command()
def tally(
    source: Annotated[str, typer.Argument(metavar="FILE", help=INPUT_HELP)],
    explain: Annotated[bool, typer.Option(help="Add the explanation sentences.")] = False,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Compute one Energy and Reset phase (see docs/tally.md for the JSON in and out)."""
    try:
        data = read_json(source)
        if not isinstance(data, dict):
            raise UserError("the input must be a JSON object")
        try:
            request = TallyRequest.model_validate(data)
        except ValidationError as error:
            raise UserError(render(problem(error, data), lang)) from None
        board = resolve_board(request.board)
        request.check_against(board)
    except BoardError as error:
        fail(render(error.message, lang))
    except (UserError, ValueError) as error:
        fail(str(error))
    isle = compile_isle(board)
    occupants: list[Any] = [None] * isle.size
    for location, placement in request.placements.items():
        occupants[isle.index[location]] = (placement.player, placement.creature)
    result = reset_phase(
        isle,
        request.turn_order,
        request.energy,
        occupants,
        request.decline_domination,
        final_round=request.round == request.final_round,
    )
    output: dict[str, Any] = {
        "players": {
            line.player: {
                "before": line.before,
                "modifier": line.modifier,
                "sprites": line.sprites,
                "domination": line.domination,
                "after": line.after,
            }
            for line in result.players
        },
        "turn_order": list(result.turn_order),
        "winner": result.winner,
        "summoner": result.summoner,
        "game_over": result.game_over,
    }
    if explain:
        words = language(lang)
        winner = result.winner_message
        output["explanation"] = {
            "players": {
                line.player: words.render(line.explanation(line.player)) for line in result.players
            },
            "turn_order": [words.render(note) for note in result.order_messages],
            "winner": "" if winner is None else words.render(winner),
        }
    print_json(output)


@app.command("replay")
def replay_command(
    source: Annotated[str, typer.Argument(metavar="FILE", help=INPUT_HELP)],
    position: Annotated[
        bool, typer.Option("--position", help="Print the final position as one line of text.")
    ] = False,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Replay a game log (docs/game-log.md) and print the final state as JSON."""
    _, _, state = replayed_log(source, lang)
    if position:
        echo(state.position())
    else:
        print_json(state_to_json(state))


@app.command()
def simulate(
    players: Annotated[int, typer.Option(help="Players per game, 2-4.")] = 2,
    games: Annotated[int, typer.Option(help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed for bots and dice.")] = 1,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "--bot",
            help="Bots by seat, comma-separated and cycled: random, greedy, mcts, "
            "mcts:easy|normal|hard.",
            callback=unicode_argument,
        ),
    ] = "random",
    budget_ms: Annotated[
        int | None,
        typer.Option(
            help="Milliseconds per turn of plain mcts seats (default 700); levels have their own."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="Games played at once in processes (default: cores).")
    ] = None,
    board: Annotated[
        str | None, typer.Option(help="A shipped board id.", callback=unicode_argument)
    ] = None,
    clock: Annotated[
        Clock,
        typer.Option(
            help="What bots read their budgets on: wall (as on the digital board) or cpu "
            "(each bot's own CPU time, so other work on the machine does not weaken it)."
        ),
    ] = Clock.WALL,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play whole games between bots and report how they ended."""
    from companion.bots.simulate import default_workers
    from companion.bots.simulate import simulate as run

    names = [name.strip() for name in bots.split(",") if name.strip()]
    try:
        workers = default_workers() if workers is None else workers
        report = run(
            players, games, seed, names, board, budget_ms, workers, cpu_clock=clock is Clock.CPU
        )
    except (BoardError, ValueError) as error:
        fail(str(error))
    except KeyboardInterrupt:
        interrupted()
    if as_json:
        print_json(report.to_json())
    else:
        typer.echo("\n".join(report.lines()))
    if report.errors:
        raise typer.Exit(1)


@app.command()
def bench(
    seconds: Annotated[float, typer.Option(help="How long the playout benchmark runs.")] = 3.0,
    waits: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_WAIT_GAMES,
            help="Instead, play this many 4-player games of a person against three "
            "mcts:normal seats and report how long the person waits (minutes per game).",
        ),
    ] = 0,
    waits_app: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_WAIT_GAMES,
            help="Instead, serve this many games of four mcts:normal seats to a headless "
            "Chromium at a phone's size and report each seat's waits as a person's "
            "(a few minutes per game; needs what `make test` installs).",
        ),
    ] = 0,
    page_load: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_WAIT_GAMES,
            help="Instead, load the app this many times in a headless Chromium over an "
            "emulated phone network and report the seconds until Home is usable, first "
            "visit and reload (needs what `make test` installs).",
        ),
    ] = 0,
    openspiel: Annotated[
        bool,
        typer.Option(
            "--openspiel",
            help="Instead, race the engine's random playouts against OpenSpiel's backgammon "
            "for --seconds (needs the openspiel extra).",
        ),
    ] = False,
    coach: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_WAIT_GAMES,
            help="Instead, time the coach on this many table games of 2, 3 and 4 players: "
            "each position's chances and each whole game's review.",
        ),
    ] = 0,
    calibration: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_CALIBRATION_GAMES,
            help="Instead, play this many games of 2, 3 and 4 mcts:hard seats and measure "
            "how well the coach's chances are calibrated on them (hours of CPU).",
        ),
    ] = 0,
    games_in: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Measure the calibration on these games (JSON lines of game logs) instead "
            "of playing new ones.",
        ),
    ] = None,
    games_out: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Save the games --calibration plays (JSON lines)."),
    ] = None,
    check: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_CALIBRATION_GAMES,
            help="With --calibration, check the map on this many other games of 2, 3 and 4 "
            "players, played with the next seed (else out of fold on the same games).",
        ),
    ] = 0,
    check_in: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Check the calibration on these saved games."),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_CALIBRATION_BUDGET,
            help="With --calibration or --games-in, the playouts each position is judged "
            "with (the coach's own budget unless told).",
        ),
    ] = None,
    check_out: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Save the games --check plays (JSON lines)."),
    ] = None,
    tables: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_LOAD_TABLES,
            help="Instead, load a hosted server: this many tables of 4 devices speaking Flet's "
            "websocket protocol, records at a human pace for --seconds (docs/hosting.md); "
            "needs --db with a PostgreSQL URL.",
        ),
    ] = 0,
    processes: Annotated[
        int, typer.Option(min=1, max=8, help="Server processes for --tables.")
    ] = 2,
    kill_one: Annotated[
        bool,
        typer.Option("--kill-one", help="With --tables: kill one server process mid-run."),
    ] = False,
    behind_nginx: Annotated[
        bool,
        typer.Option(
            "--behind-nginx",
            help="With --tables: the devices reach the processes through nginx (installed "
            "here), set as docs/hosting.md shows, and come back through it after --kill-one.",
        ),
    ] = False,
    hostile: Annotated[
        bool,
        typer.Option(
            "--hostile",
            help="With --tables: one process serves the tables while one more address runs "
            "every heavy thing its limits allow against it (docs/hosting.md).",
        ),
    ] = False,
    db_hour: Annotated[
        bool,
        typer.Option(
            "--db-hour",
            help="Instead, write what one address may write in an hour at a hosted server's "
            "limits into --db (PostgreSQL), and report how much the database grew.",
        ),
    ] = False,
    db: Annotated[
        str | None, typer.Option(help="With --tables: the PostgreSQL database to serve from.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of --coach and --calibration.")] = 1,
    workers: Annotated[
        int | None,
        typer.Option(min=1, max=32, help="Processes for --calibration (default: cores)."),
    ] = None,
    clock: Annotated[
        Clock,
        typer.Option(
            help="What the engine's figures (and --openspiel) are timed on: wall, or cpu "
            "(this thread's own CPU time, so other work on the machine does not count)."
        ),
    ] = Clock.WALL,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Measure the engine (decisions per second, tally, replay) and the store (append, reopen)."""
    from companion.cli.app_waits import AppWaitsUnavailable
    from companion.cli.bench import (
        OpenSpielMissing,
        run_app_waits,
        run_bench,
        run_calibration,
        run_coach,
        run_openspiel,
        run_waits,
    )

    # NaN passes a `<= 0` test, and infinity would never end.
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_BENCH_SECONDS:
        fail(f"--seconds must be a positive number, at most {MAX_BENCH_SECONDS}, not {seconds}")
    try:
        if tables and hostile:
            from companion.cli.hostile_load import run_hostile_load
            from companion.cli.table_load import LoadError

            try:
                result = run_hostile_load(db or "", tables, seconds, seed)
            except LoadError as error:
                raise UserError(str(error)) from None
        elif tables:
            from companion.cli.table_load import LoadError, run_table_load

            try:
                result = run_table_load(
                    db or "", tables, processes, seconds, kill_one, seed, proxy=behind_nginx
                )
            except LoadError as error:
                raise UserError(str(error)) from None
        elif db_hour:
            from companion.cli.db_growth import run_db_hour
            from companion.cli.table_load import LoadError

            try:
                result = run_db_hour(db or "")
            except LoadError as error:
                raise UserError(str(error)) from None
        elif waits_app:
            result = run_app_waits(waits_app)
        elif page_load:
            from companion.cli.page_load import measure_page_load

            result = measure_page_load(page_load)
        elif waits:
            result = run_waits(waits)
        elif openspiel:
            result = run_openspiel(seconds, clock=clock.value)
        elif coach:
            result = run_coach(coach, seed)
        elif calibration or games_in:
            result = run_calibration(
                calibration,
                seed,
                workers,
                games_in,
                games_out,
                as_json,
                (check, check_in, check_out),
                budget,
            )
        else:
            result = run_bench(seconds, clock.value)
    except AppWaitsUnavailable as error:
        fail(f"cannot measure the app in a browser: {error}")
    except OpenSpielMissing as error:
        fail(str(error))
    except UserError as error:
        fail(str(error))
    except (OSError, StoreError) as error:
        fail(f"cannot run the store benchmark: {getattr(error, 'strerror', None) or error}")
    except KeyboardInterrupt:
        interrupted()
    if as_json:
        print_json(result)
        return
    for key, value in result.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = "\n" + "\n".join(f"  {item}" for item in value)
        typer.echo(f"{key:16} {value}")


app.command("app")(app_command)


def main() -> None:
    """Entry point for `python -m companion` and `summoners-isle`."""
    try:
        app()
    except KeyboardInterrupt:
        interrupted()


def interrupted() -> NoReturn:
    """Ctrl-C: say so in one line and stop with status 130."""
    typer.echo("interrupted", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    # Not sys.exit: the exit handlers of a process pool whose workers Ctrl-C already
    # stopped can print a traceback of their own while the interpreter shuts down.
    os._exit(130)
