"""The command line: `python -m companion tally|replay|game|analyse|aid|simulate|bench|app`.

Every command reads or prints JSON where it makes sense; bad input exits with
status 2 and one line on stderr naming the problem, never a traceback.
"""

from __future__ import annotations

import errno
import ipaddress
import math
import os
import socket
import sys
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

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
from companion.engine import reset_phase
from companion.engine.isle import compile_isle
from companion.engine.serialize import state_to_json
from companion.language.render import DEFAULT_LANGUAGE, language, render
from companion.store.errors import StoreError
from models.problems import problem
from models.tally_request import TallyRequest

if TYPE_CHECKING:
    from companion.play.sharing.links import TableLinks
    from companion.store.store import Store

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


MIN_PORT, MAX_PORT = 1, 65535
MAX_BENCH_SECONDS = 600
MAX_WAIT_GAMES = 100
MAX_LOAD_TABLES = 500
MAX_CALIBRATION_GAMES = 1000
MAX_CALIBRATION_BUDGET = 10_000
MAX_SESSION_TIMEOUT_S = 86_400


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


@app.command("app")
def app_command(
    web: Annotated[bool, typer.Option("--web", help="Serve in the browser, not a window.")] = False,
    host: Annotated[
        str | None,
        typer.Option(
            help="Address to serve on (default 127.0.0.1; with --share, every address, "
            "linked by this machine's address on the network).",
            callback=unicode_argument,
        ),
    ] = None,
    port: Annotated[int, typer.Option(min=MIN_PORT, max=MAX_PORT, help="Port to serve on.")] = 8550,
    db: Annotated[str | None, typer.Option(help="Database URL or file.")] = None,
    share: Annotated[
        bool,
        typer.Option(
            "--share",
            help="Let the phones at the table in with a code: prints Join and Watch links "
            "and a QR code (docs/sharing.md). Serves on the web.",
        ),
    ] = False,
    hosted: Annotated[
        bool,
        typer.Option(
            "--hosted",
            help="Host many tables on one public address: anyone who opens it may start a "
            "table of their own (docs/hosting.md). Needs --public-url; serves on the web.",
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="With --hosted: the address people open (e.g. https://isle.example.org), "
            "which the links and QR codes carry.",
            callback=unicode_argument,
        ),
    ] = None,
    idle_days: Annotated[
        float,
        typer.Option(
            "--idle-days",
            min=0.01,
            max=3650,
            help="With --hosted: a table nobody used for this many days is removed, games and all.",
        ),
    ] = 30.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy's address or network (repeatable): the client's address is "
            "read from its X-Forwarded-For, never from anyone else's (docs/security.md).",
        ),
    ] = None,
    session_timeout: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_SESSION_TIMEOUT_S,
            help="Seconds a page that lost its connection keeps its session on the server.",
        ),
    ] = 300,
) -> None:
    """Start the companion app (a window where there is a display, else http://HOST:PORT)."""
    bind = host or ("0.0.0.0" if share else "127.0.0.1")
    if hosted and share:
        fail("--hosted and --share cannot go together: a hosted server's every table is shared")
    if hosted and not public_url:
        fail("--hosted needs --public-url: the address people open, e.g. https://isle.example.org")
    if public_url and not hosted:
        fail("--public-url goes with --hosted")
    try:
        if public_url:
            public_url = checked_public_url(public_url)
        check_port(bind, port)
        proxies = [proxy_network(proxy) for proxy in trusted_proxy or []]
    except UserError as error:
        fail(str(error))
    from companion.app.server import serve
    from companion.store.store import open_store

    try:
        store = open_store(db)
    except StoreError as error:
        fail(str(error))
    table = None
    hosting = None
    if share:
        table = share_table(bind, port, store)
    elif hosted and public_url:
        from companion.play.sharing.hosting import HostedLimits, Hosting

        hosting = Hosting(store.tables, public_url, HostedLimits(idle_days=idle_days))
        typer.echo(f"Summoner's Isle Companion, hosted at {public_url} (serving {bind}:{port})")
    else:
        if bind not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(
                f"warning: serving on {bind}: anyone who can reach this machine on port {port} "
                "can open and change your games",
                err=True,
            )
        typer.echo(f"Summoner's Isle Companion: http://{bind}:{port}", err=True)
    try:
        serve(
            host=bind,
            port=port,
            db=db,
            web=web,
            table=table,
            store=store,
            hosting=hosting,
            trusted_proxies=proxies,
            session_timeout_s=session_timeout,
        )
    except StoreError as error:
        fail(str(error))


def share_table(bind: str, port: int, store: Store) -> TableLinks:
    """Make a shared table's codes and print its links: Join (with its QR code), Watch, host."""
    from companion.play.sharing.access import TableAccess
    from companion.play.sharing.links import TableLinks, lan_address, terminal_qr

    wildcard = bind in ("0.0.0.0", "::", "")
    name = lan_address() if wildcard else bind
    table = TableLinks.serving(
        TableAccess(store.tables), name, port, "127.0.0.1" if wildcard else bind
    )
    typer.echo(f"Join: {table.join}")
    typer.echo(terminal_qr(table.join), nl=False)
    typer.echo(f"Watch: {table.watch}")
    typer.echo(f"Host: {table.host}  (this machine only: the Share panel; keep it to yourself)")
    typer.echo(
        "Sharing on the local network over plain HTTP: anyone with the code gets in "
        "(docs/sharing.md). Stop with Ctrl-C.",
        err=True,
    )
    sys.stdout.flush()
    return table


def checked_public_url(text: str) -> str:
    """A hosted server's public address as given: http(s)://name[:port], no path (UserError)."""
    from urllib.parse import urlsplit

    text = text.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a port out of range raises here)
    except ValueError:
        raise UserError(f"--public-url {text!r} is not an address") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise UserError(
            f"--public-url {text!r} is not an address like https://isle.example.org "
            "(http or https, a host name, no path)"
        )
    return text


def proxy_network(text: str) -> str:
    """A trusted proxy as given: an address or a network, never a wildcard (UserError)."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise UserError(
            f"--trusted-proxy {text!r} is not an address or a network (e.g. 127.0.0.1, 10.0.0.0/8)"
        ) from None


def check_port(host: str, port: int) -> None:
    """Bind every address of host:port once and let go; UserError says why one cannot be."""
    # The server (uvicorn inside Flet) reports a failed bind as a traceback and then never
    # exits, so the port is tried here first. Another program could still take it in the
    # moment between, which the server would then report its own way.
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UserError(f"cannot serve on {host}: {error.strerror}") from None
    for family, kind, protocol, _, address in addresses:
        try:
            with socket.socket(family, kind, protocol) as probe:
                # As the server does: a port left in TIME_WAIT by a previous run is free to use.
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise UserError(f"port {port} on {host} is already in use") from None
            raise UserError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None


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
