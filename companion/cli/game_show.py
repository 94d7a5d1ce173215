"""`game show`, `game list` and `game history`: saved games read, never changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.game_store import AsJson, Db, GameId, entry_json, opened, rendered, summary_json
from companion.cli.io import UserError, echo, print_json
from companion.cli.language import Lang
from companion.engine import GameState, Phase
from companion.engine.names import kinds_term
from companion.engine.serialize import state_to_json
from companion.language import Message, by_commas
from companion.language.render import DEFAULT_LANGUAGE, language
from models.rules import WINNING_ENERGY
from models.setup import Mode

if TYPE_CHECKING:
    from companion.store.store import SavedGame


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
                "undo": rendered(saved.undo_label, lang),
                "redo": rendered(saved.redo_label, lang),
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
