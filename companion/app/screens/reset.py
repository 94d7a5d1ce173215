"""Energy and Reset: who holds what in each territory, then the engine's tally, explained."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.game_panels import tally_lines
from companion.app.session import GameSession
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, TAP
from companion.app.widgets import WIDE, big_button, notify, player_chip, screen, section
from companion.engine import Phase, Tally
from models.board import Territory
from models.commands import Declined, EnergyAndReset, Placement
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.app.main import App

# counts[territory id][player id][kind index]
Counts = dict[str, dict[str, list[int]]]


def build(app: App, game_id: str) -> ft.View:
    """The Energy and Reset screen for one saved game."""
    session = GameSession(app.store, game_id)
    view = screen(f"/game/{game_id}/reset", spacing=10)
    ResetScreen(app, session, view).render()
    return view


class ResetScreen:
    """Counts per territory, pre-filled from the board last seen, and the live tally."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        state = session.state
        board = state.game.board
        self.players = [state.game.players[seat] for seat in state.turn_order]
        self.counts: Counts = {
            t.id: {p: [0, 0, 0] for p in self.players} for t in board.territories
        }
        isle = state.game.isle
        # Creatures stay on the board across rounds (ruling 4): start from the last board seen.
        for i, token in enumerate(state.occupant):
            if token is not None:
                territory = isle.territory_ids[isle.territory_of[i]]
                self.counts[territory][state.game.players[token[0]]][token[1]] += 1
        self.declined: set[tuple[str, str]] = set()
        self.view.appbar = ft.AppBar(
            title=ft.Text("Energy and Reset"),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip="Back to the table",
                on_click=lambda _: self.app.go(f"/game/{self.session.id}"),
            ),
        )
        # Made on the first render: (territory, player, kind index) -> its count button.
        self.cells: dict[tuple[str, str, int], CountCell] | None = None
        self.titles: dict[str, ft.Text] = {}
        self.tally = ft.Column(spacing=10)
        # Applied on another phone: this screen's counts are for a round that is over.
        app.follow(session.id, lambda _revision: app.go(f"/game/{session.id}"))

    def placements(self) -> list[Placement]:
        """The counts laid out on each territory's locations, in order."""
        result = []
        for territory in self.session.state.game.board.territories:
            free = list(territory.locations)
            for player in self.players:
                for k, kind in enumerate(KIND_ORDER):
                    for _ in range(self.counts[territory.id][player][k]):
                        result.append(Placement(free.pop(0), player, kind))
        return result

    def territory(self, territory_id: str) -> Territory:
        """A territory of this game's board by id."""
        game = self.session.state.game
        return game.board.territories[game.isle.territory_index[territory_id]]

    def command(self) -> EnergyAndReset:
        """The Energy and Reset record for what is entered now."""
        declined = [Declined(p, t) for p, t in sorted(self.declined)]
        return self.session.reset_command(self.placements(), declined)

    def tap(self, territory: str, player: str, kind: int) -> None:
        """One more of that creature there; past what fits (or what is on the board), back to 0."""
        state = self.session.state
        seat = state.game.seat[player]
        size = len(self.territory(territory).locations)
        used = sum(sum(row) for row in self.counts[territory].values())
        elsewhere = sum(self.counts[t][player][kind] for t in self.counts if t != territory)
        row = self.counts[territory][player]
        if used < size and row[kind] + elsewhere < state.on_board[seat][kind]:
            row[kind] += 1
        else:
            row[kind] = 0
        self.render()
        self.app.page.update()

    def toggle(self, player: str, territory: str, take: bool) -> None:
        """Take or decline a domination bonus (ruling 10: each is optional)."""
        if take:
            self.declined.discard((player, territory))
        else:
            self.declined.add((player, territory))
        self.render()
        self.app.page.update()

    def apply(self, _: ft.ControlEvent) -> None:
        """Record the Energy and Reset and go on to the next round (or the result)."""
        outcome = self.session.do(self.command())
        if not outcome.ok:
            notify(self.app.page, outcome.message, error=True)
            return
        self.app.announce(self.session.id, self.session.saved.revision)
        state = self.session.state
        if state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
        else:
            self.app.go(f"/game/{self.session.id}")

    def render(self) -> None:
        """Show the counts and the engine's tally for them."""
        state = self.session.state
        if state.phase is not Phase.ENERGY_AND_RESET:
            self.view.controls = [
                ft.Text("Energy and Reset comes after every creature has acted.", size=16),
                big_button("Back to the table", lambda _: self.app.go(f"/game/{self.session.id}")),
            ]
            return
        if self.cells is None:
            self.lay_out()
        for territory_id, title in self.titles.items():
            territory = self.territory(territory_id)
            used = sum(sum(row) for row in self.counts[territory_id].values())
            title.value = (
                f"{territory.label} · {used}/{len(territory.locations)} places · "
                f"bonus {territory.bonus}"
            )
        for (territory_id, player, k), cell in self.cells.items():
            cell.show(self.counts[territory_id][player][k])
        preview = self.session.reset_preview(self.command())
        if isinstance(preview, str):
            self.tally.controls = [
                section("Tally", ft.Text(preview, size=16, color=ft.Colors.ERROR))
            ]
        else:
            self.tally.controls = [
                self.tally_card(preview),
                big_button("Apply Energy and Reset", self.apply, icon=ft.Icons.CHECK),
            ]

    def lay_out(self) -> None:
        """Make the territory cards once; taps change their numbers in place."""
        self.cells = {}
        cards: list[ft.Control] = [
            ft.Text(
                "Tap a count to add one of that creature (tap past the most that fits to go back "
                "to 0). W Wyrm, T Troll, S Sprite.",
                size=14,
            )
        ]
        for territory in self.session.state.game.board.territories:
            title = ft.Text(size=13, weight=ft.FontWeight.BOLD, color=ACCENT_TEXT)
            self.titles[territory.id] = title
            rows = []
            for player in self.players:
                name = self.session.label(player)
                cells = []
                for k, kind in enumerate(KIND_ORDER):
                    cell = CountCell(
                        f"{name}'s {kind.plural} in {territory.label}",
                        CREATURE_MARK[kind],
                        lambda _, t=territory.id, p=player, k=k: self.tap(t, p, k),
                    )
                    self.cells[territory.id, player, k] = cell
                    cells.append(cell.control)
                rows.append(
                    ft.Row(
                        [
                            player_chip(name, self.session.colour(player)),
                            ft.Text(
                                name,
                                size=15,
                                expand=True,
                                max_lines=1,
                                overflow=ft.TextOverflow.ELLIPSIS,
                                tooltip=name,
                            ),
                            *cells,
                        ],
                        spacing=6,
                    )
                )
            cards.append(
                ft.Card(
                    content=ft.Container(padding=14, content=ft.Column([title, *rows], spacing=10))
                )
            )
        # One column on a phone; the counts beside the tally on a tablet or desktop.
        self.view.data = WIDE
        self.view.controls = [
            ft.ResponsiveRow(
                [
                    ft.Column(cards, spacing=10, col={"md": 7}),
                    ft.Column([self.tally], col={"md": 5}),
                ]
            )
        ]

    def tally_card(self, tally: Tally) -> ft.Control:
        """The engine's tally: each player's sentence and numbers, bonuses to take, next order."""
        lines = tally_lines(self.session, tally, self.toggle)
        order = " → ".join(self.session.label(p) for p in tally.turn_order)
        lines.append(ft.Divider())
        if tally.game_over:
            lines.append(
                ft.Text(tally.winner_note, size=17, weight=ft.FontWeight.BOLD, color=ACCENT_TEXT)
            )
        else:
            lines.append(
                ft.Text(f"Next round's order: {order}", size=16, weight=ft.FontWeight.BOLD)
            )
        lines.extend(ft.Text(note, size=14) for note in tally.order_notes)
        return ft.Semantics(identifier="tally", content=section("Tally", *lines))


class CountCell:
    """One count button: how many of a kind a player has in a territory; a tap adds one."""

    def __init__(self, label: str, mark: str, on_click: Callable[[ft.ControlEvent], None]) -> None:
        self.label = label
        self.mark = mark
        self.text = ft.Text(size=16, weight=ft.FontWeight.BOLD)
        self.box = ft.Container(
            width=TAP + 4,
            height=TAP,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            on_click=on_click,
            content=self.text,
        )
        self.control = ft.Semantics(button=True, container=True, content=self.box)

    def show(self, count: int) -> None:
        """Show a count: gold when there are any."""
        self.control.label = f"{self.label}: {count}"
        self.text.value = f"{self.mark} {count}"
        self.text.color = "#1B1B1B" if count else None
        self.box.bgcolor = ACCENT if count else ft.Colors.SURFACE_CONTAINER_HIGHEST
