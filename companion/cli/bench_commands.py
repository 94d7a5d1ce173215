"""`python -m companion bench ...`: one subcommand per measure; `bench` alone is `bench engine`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer import _click as click
from typer.core import TyperGroup

from companion.cli.io import Clock, UserError, fail, interrupted, print_json
from companion.store.errors import StoreError

DEFAULT_MEASURE = "engine"
MAX_BENCH_SECONDS = 600
MAX_WAIT_GAMES = 100
MAX_LOAD_TABLES = 500
MAX_CALIBRATION_GAMES = 1000
MAX_CALIBRATION_BUDGET = 10_000


class EngineByDefault(TyperGroup):
    """A group whose subcommand may be left out: `bench --json` is `bench engine --json`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The arguments, `engine` put first when they start with an option other than help."""
        if not args or (args[0].startswith("-") and args[0] not in ctx.help_option_names):
            args = [DEFAULT_MEASURE, *args]
        return super().parse_args(ctx, args)


bench_app = typer.Typer(
    cls=EngineByDefault,
    help="Measure the engine, the coach, the app and a hosted server (`bench` alone: the engine).",
)

AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def counted(metavar: str, help: str, low: int = 1, high: int = MAX_WAIT_GAMES) -> Any:
    """A measure's count argument (games, loads, tables), from `low` to `high`."""
    return typer.Argument(min=low, max=high, metavar=metavar, help=help)


Seconds = Annotated[float, typer.Option(help="How long the measure runs.")]
Seed = Annotated[int, typer.Option(help="Seed of the games played.")]
TimedOn = Annotated[
    Clock,
    typer.Option(
        help="What the figures are timed on: wall, or cpu (this thread's own CPU time, so "
        "other work on the machine does not count)."
    ),
]
Db = Annotated[str | None, typer.Option(help="The PostgreSQL database to use (a URL).")]


def checked_seconds(seconds: float) -> float:
    """`--seconds` as given, if it is a finite positive number within the limit."""
    # NaN passes a `<= 0` test, and infinity would never end.
    if not math.isfinite(seconds) or not 0 < seconds <= MAX_BENCH_SECONDS:
        fail(f"--seconds must be a positive number, at most {MAX_BENCH_SECONDS}, not {seconds}")
    return seconds


def report(measure: Callable[[], dict[str, Any]], as_json: bool) -> None:
    """Run a measure and print its figures (JSON, or one line each); a failure in one line."""
    from companion.cli.app_waits import AppWaitsUnavailable
    from companion.cli.bench import OpenSpielMissing

    try:
        result = measure()
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


def under_load(measure: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
    """A load measure whose LoadError is said as bad input."""
    from companion.load.servers import LoadError

    def run() -> dict[str, Any]:
        try:
            return measure()
        except LoadError as error:
            raise UserError(str(error)) from None

    return run


@bench_app.command("engine")
def engine(seconds: Seconds = 3.0, clock: TimedOn = Clock.WALL, as_json: AsJson = False) -> None:
    """Measure the engine (decisions per second, tally, replay) and the store (append, reopen)."""
    from companion.cli.bench import run_bench

    checked_seconds(seconds)
    report(lambda: run_bench(seconds, clock.value), as_json)


@bench_app.command("openspiel")
def openspiel(seconds: Seconds = 3.0, clock: TimedOn = Clock.WALL, as_json: AsJson = False) -> None:
    """Race the engine's random playouts against OpenSpiel's backgammon (the openspiel extra)."""
    from companion.cli.bench import run_openspiel

    checked_seconds(seconds)
    report(lambda: run_openspiel(seconds, clock=clock.value), as_json)


@bench_app.command("waits")
def waits(
    games: Annotated[
        int,
        counted(
            "GAMES",
            "4-player games to play (minutes each).",
        ),
    ],
    as_json: AsJson = False,
) -> None:
    """A person's waits against three mcts:normal seats, with the app's pacing, in GAMES games."""
    from companion.cli.bench import run_waits

    report(lambda: run_waits(games), as_json)


@bench_app.command("waits-app")
def waits_app(
    games: Annotated[
        int,
        counted(
            "GAMES",
            "4-player games, each seat a person at a phone's size (a few minutes each; "
            "needs what `make test` installs).",
        ),
    ],
    as_json: AsJson = False,
) -> None:
    """Four mcts:normal seats' waits as a person's, in the app served to a headless Chromium."""
    from companion.cli.bench import run_app_waits

    report(lambda: run_app_waits(games), as_json)


@bench_app.command("page-load")
def page_load(
    loads: Annotated[
        int,
        counted(
            "LOADS",
            "Times the app is loaded, over an emulated phone network (needs what "
            "`make test` installs).",
        ),
    ],
    as_json: AsJson = False,
) -> None:
    """Seconds until Home is usable over a phone's network, first visit and reload, in Chromium."""
    from companion.cli.page_load import measure_page_load

    report(lambda: measure_page_load(loads), as_json)


@bench_app.command("coach")
def coach(
    games: Annotated[
        int,
        counted(
            "GAMES",
            "Table games of each of 2, 3 and 4 players.",
        ),
    ],
    seed: Seed = 1,
    as_json: AsJson = False,
) -> None:
    """The coach's time on table games: each position's chances, each whole game's review."""
    from companion.cli.bench_coach import run_coach

    report(lambda: run_coach(games, seed), as_json)


@bench_app.command("calibration")
def calibration(
    games: Annotated[
        int,
        counted(
            "GAMES",
            "Games of 2, 3 and 4 mcts:hard seats to play (hours of CPU); 0 with --games-in.",
            0,
            MAX_CALIBRATION_GAMES,
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
        typer.Option(metavar="FILE", help="Save the games played (JSON lines)."),
    ] = None,
    check: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_CALIBRATION_GAMES,
            help="Check the map on this many other games of 2, 3 and 4 players, played with "
            "the next seed (else out of fold on the same games).",
        ),
    ] = 0,
    check_in: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Check the calibration on these saved games."),
    ] = None,
    check_out: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Save the games --check plays (JSON lines)."),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_CALIBRATION_BUDGET,
            help="The playouts each position is judged with (the coach's own budget unless told).",
        ),
    ] = None,
    seed: Seed = 1,
    workers: Annotated[
        int | None, typer.Option(min=1, max=32, help="Processes (default: cores).")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """How well the coach's chances are calibrated, on games at the strongest level."""
    from companion.cli.bench_coach import run_calibration

    if not games and not games_in:
        fail("bench calibration needs a number of games to play, or --games-in FILE")
    report(
        lambda: run_calibration(
            games,
            seed,
            workers,
            games_in,
            games_out,
            as_json,
            (check, check_in, check_out),
            budget,
        ),
        as_json,
    )


Tables = Annotated[
    int,
    counted(
        "TABLES",
        "Tables of 4 devices speaking Flet's websocket protocol; needs --db.",
        1,
        MAX_LOAD_TABLES,
    ),
]


@bench_app.command("tables")
def tables(
    count: Tables,
    processes: Annotated[int, typer.Option(min=1, max=8, help="Server processes.")] = 2,
    seconds: Seconds = 3.0,
    kill_one: Annotated[
        bool, typer.Option("--kill-one", help="Kill one server process mid-run.")
    ] = False,
    behind_nginx: Annotated[
        bool,
        typer.Option(
            "--behind-nginx",
            help="The devices reach the processes through nginx (installed here), set as "
            "docs/hosting.md shows, and come back through it after --kill-one.",
        ),
    ] = False,
    db: Db = None,
    seed: Seed = 1,
    as_json: AsJson = False,
) -> None:
    """Load a hosted server with tables of 4 websocket devices at a human pace (docs/hosting.md)."""
    from companion.load.tables import run_table_load

    checked_seconds(seconds)
    measure = under_load(
        lambda: run_table_load(
            db or "", count, processes, seconds, kill_one, seed, proxy=behind_nginx
        )
    )
    report(measure, as_json)


@bench_app.command("hostile")
def hostile(
    count: Tables, seconds: Seconds = 3.0, db: Db = None, seed: Seed = 1, as_json: AsJson = False
) -> None:
    """Tables on one process while one more address runs every heavy thing its limits allow."""
    from companion.load.hostile import run_hostile_load

    checked_seconds(seconds)
    report(under_load(lambda: run_hostile_load(db or "", count, seconds, seed)), as_json)


@bench_app.command("db-hour")
def db_hour(db: Db = None, as_json: AsJson = False) -> None:
    """One address's hour of writes at a hosted server's limits: how much --db grows."""
    from companion.load.db_growth import run_db_hour

    report(under_load(lambda: run_db_hour(db or "")), as_json)
