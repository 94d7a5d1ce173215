"""End of game: the winner, how they won, energy round by round, and play again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.coach_panels import RoundsTable
from companion.app.play_on_dialog import open_play_on
from companion.app.theme import ACCENT, colour_of
from companion.app.widgets import big_button, notify, player_chip, screen, section
from companion.coach import win_chances
from companion.language import Message
from companion.language.render import Language
from companion.play.coach_view import round_rows
from companion.play.result import result_view, undo_result
from companion.play.review_view import round_choices
from companion.play.session import GameSession
from models.rules import STARTING_ENERGY, WINNING_ENERGY

if TYPE_CHECKING:
    from companion.app.main import App


def build(app: App, game_id: str) -> ft.View:
    """The end-of-game screen."""
    session = app.session(game_id)
    state = session.state
    view = screen(f"/game/{game_id}/end", spacing=12)
    view.appbar = ft.AppBar(
        title=ft.Text(app.say("app.end.title")),
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
        ),
    )
    shown = result_view(session, app.words)
    if shown is None:
        view.controls = [
            ft.Text(app.say("app.end.still_playing"), size=16),
            big_button(app.say("app.log.back"), lambda _: app.go(f"/game/{game_id}")),
        ]
        return view

    def play_again(_: ft.Event[Any]) -> None:
        saved = app.store.new_game(session.saved.setup)
        app.go(f"/game/{saved.id}")

    def undo(_: ft.Event[Any]) -> None:
        outcome, route = undo_result(session)
        if route is None:
            notify(app.page, outcome.text(app.words), error=True)
            return
        app.go(route, outcome.text(app.words))

    undo_label = session.undo_text(app.words)
    game = session.saved.game
    records = [entry.command for entry in session.saved.log]
    energies = session.energy_by_round()
    result = win_chances(state)  # the game is over: its result, no playouts
    rounds = RoundsTable(
        app,
        session,
        lambda told: round_rows(game.players, energies, told, result),
        lambda: app.service.coach.review(game_id, game, records),
    )
    rounds.start_if_shown()
    view.controls = [
        ft.Semantics(
            identifier="winner",
            content=ft.Container(
                padding=18,
                border_radius=14,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
                border=ft.Border.all(3, ACCENT),
                content=ft.Column(
                    [
                        ft.Row(
                            [
                                player_chip(shown.winner.label, shown.winner.colour, size=48),
                                ft.Text(
                                    shown.title, size=26, weight=ft.FontWeight.BOLD, expand=True
                                ),
                            ]
                        ),
                        ft.Text(shown.how, size=16),
                    ]
                ),
            ),
        ),
        section(
            app.say("app.end.final_energy"),
            *[
                ft.Row(
                    [
                        player_chip(placed.label, placed.colour),
                        ft.Text(placed.label, size=16, expand=True),
                        ft.Text(placed.energy, size=22, weight=ft.FontWeight.BOLD),
                    ]
                )
                for placed in shown.standings
            ],
        ),
        section(app.say("app.end.by_round"), energy_chart(session, app.words)),
        rounds.control,
        big_button(app.say("app.end.play_again"), play_again, icon=ft.Icons.REPLAY),
        big_button(
            app.say("coachui.review.open"),
            lambda _: app.go(f"/game/{game_id}/review"),
            icon=ft.Icons.INSIGHTS,
            primary=False,
        ),
        big_button(
            app.say("coachui.play_on.open"),
            lambda _: open_play_on(app, game_id, round_choices(game, records)),
            icon=ft.Icons.CALL_SPLIT,
            primary=False,
        ),
        # A win recorded by mistake (a late removal, say) is taken back from here too.
        *(
            []
            if undo_label is None
            else [
                big_button(
                    app.say("app.end.undo"),
                    undo,
                    icon=ft.Icons.UNDO,
                    primary=False,
                    tooltip=app.say("game.bar.undo", what=undo_label),
                ),
                ft.Text(undo_label, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ]
        ),
    ]
    return view


# Each seat's line has its own dash pattern as well as its colour (named in the legend), so
# no line is told from another by colour alone.
LINE_STYLES: tuple[tuple[list[int] | None, str], ...] = (
    (None, "app.end.line.solid"),
    ([10, 5], "app.end.line.dashed"),
    ([3, 4], "app.end.line.dotted"),
    ([12, 4, 3, 4], "app.end.line.dash_dot"),
)


def energy_chart(session: GameSession, words: Language) -> ft.Control:
    """Every player's energy at the start and at the end of each round, with a legend."""
    # flet_charts takes a while to import; only this screen needs it, so the app starts sooner.
    import flet_charts as fch

    series = []
    legend: list[ft.Control] = []
    for seat, (player, values) in enumerate(session.energy_by_round().items()):
        points = [STARTING_ENERGY, *values]
        colour = colour_of(session.colour(player)).hex
        dashes, style = LINE_STYLES[seat % len(LINE_STYLES)]
        series.append(
            fch.LineChartData(
                points=[fch.LineChartDataPoint(x=i, y=v) for i, v in enumerate(points)],
                color=colour,
                stroke_width=3,
                dash_pattern=dashes,
                point=True,
            )
        )
        name = session.label(player)
        legend.append(
            ft.Semantics(
                label=words.render(Message("app.end.legend", player=name, line=Message(style))),
                content=ft.Row(
                    [
                        _line_sample(colour, dashes),
                        player_chip(name, session.colour(player)),
                        ft.Text(name, size=15),
                    ],
                    spacing=6,
                    tight=True,
                ),
            )
        )
    rounds = max((len(s.points) for s in series), default=1) - 1
    # A label on every grid line: left to itself, the chart samples its labels 30 apart.
    step = 6
    chart = ft.Container(
        height=240,
        content=fch.LineChart(
            data_series=series,
            min_y=0,
            max_y=WINNING_ENERGY,
            min_x=0,
            max_x=max(rounds, 1),
            left_axis=fch.ChartAxis(
                labels=[
                    fch.ChartAxisLabel(value=v, label=ft.Text(words.number(v)))
                    for v in range(0, WINNING_ENERGY + 1, step)
                ],
                label_spacing=step,
                label_size=32,
                title=ft.Text(words.render(Message("app.end.axis_energy")), size=12),
                title_size=20,
            ),
            bottom_axis=fch.ChartAxis(
                labels=[
                    fch.ChartAxisLabel(value=r, label=ft.Text(words.number(r)))
                    for r in range(rounds + 1)
                ],
                label_spacing=1,
                label_size=24,
                title=ft.Text(words.render(Message("app.end.axis_round")), size=12),
                title_size=20,
            ),
            horizontal_grid_lines=fch.ChartGridLines(interval=step, color="#33FFFFFF", width=1),
        ),
    )
    return ft.Column(
        [
            chart,
            ft.Semantics(
                identifier="chart-legend",
                content=ft.Row(legend, wrap=True, spacing=16, run_spacing=8),
            ),
        ]
    )


def _line_sample(colour: str, dashes: list[int] | None) -> ft.Control:
    """A short stretch of a player's line, drawn as the chart draws it, for the legend."""
    import flet.canvas as cv

    pattern: list[int | float] | None = list(dashes) if dashes else None
    paint = ft.Paint(color=colour, stroke_width=3, stroke_dash_pattern=pattern)
    return cv.Canvas(width=40, height=14, shapes=[cv.Line(0, 7, 40, 7, paint=paint)])
