"""The command line: `python -m companion tally|replay|game|analyse|aid|simulate|bench|app`.

Every command reads or prints JSON where it makes sense; bad input exits with
status 2 and one line on stderr naming the problem, never a traceback.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from pydantic import ValidationError

from companion.boards import BoardError, resolve_board
from companion.cli.aid import aid
from companion.cli.analyse import analyse
from companion.cli.bench_commands import bench_app
from companion.cli.game import game_app
from companion.cli.io import (
    Clock,
    OneLineErrors,
    UserError,
    echo,
    fail,
    interrupted,
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


app.add_typer(bench_app, name="bench")
app.command("app")(app_command)


def main() -> None:
    """Entry point for `python -m companion` and `summoners-isle`."""
    try:
        app()
    except KeyboardInterrupt:
        interrupted()
