"""The digital board: the isle drawn, play by touch, dice, Energy and Reset, computer opponents.

Every rule comes from the engine: what a tap may do is in `state.legal_commands()`, why it
may not is the engine's refusal, the odds are `attack_odds`, the tallies are the engine's
own run on a copy of the state. Every command, a person's or a bot's, goes through the
session into the store, so a digital game undoes, resumes and replays like any other.
"""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.board_view import (
    IsleCanvas,
    Mark,
    along,
    canvas_height,
    pieces,
    route,
    tap_command,
    targets,
)
from companion.app.game_panels import GameBar, PlayersCard, tally_lines
from companion.app.screens.new_game import SEAT_PLAYERS
from companion.app.session import GameSession, Outcome
from companion.app.theme import ACCENT, ACCENT_TEXT, TAP, colour_of
from companion.app.widgets import (
    WIDE,
    big_button,
    energy_track,
    notify,
    player_chip,
    screen,
    section,
)
from companion.bots import Bot, make_bot
from companion.engine import Game, GameState, Phase, Tally
from companion.engine.dice import attack_odds, needs_defence_roll
from companion.engine.wording import counted
from models.commands import (
    Activate,
    Attack,
    Command,
    Dominate,
    EndActivation,
    Move,
    Pass,
    Summon,
    Swap,
)
from models.rules import CREATURES, DIE_SIDES, KIND_ORDER, WYRM_SWAP_COST
from models.setup import GameSetup

if TYPE_CHECKING:
    from companion.app.main import App

PHASE_NAMES = {
    Phase.SUMMONING: "Summoning",
    Phase.ACTIONS: "Actions",
    Phase.ENERGY_AND_RESET: "Energy and Reset",
}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# How long a computer opponent's command stays pointed out before it is played, in seconds;
# passing changes nothing on the board, so there is little to watch.
BOT_PAUSE = 0.6
BOT_PASS_PAUSE = 0.2
# Frames of the dice animation, and seconds between them.
ROLL_FRAMES = 6
ROLL_FRAME_S = 0.08
# Frames of a computer opponent's creature travelling to where it moves (within BOT_PAUSE).
GLIDE_FRAMES = 8
GLIDE_FRAME_S = 0.05
# A person's own move glides too, quicker: they chose it, they only need to see it go.
HAND_GLIDE_FRAMES = 4
# Page widths from which the board and the panels sit side by side (Flet's "md" breakpoint).
SIDE_BY_SIDE = 768
# The screen's padding and the space between its columns, as `widgets.screen` and Flet set them.
SCREEN_PADDING = 12
ROW_SPACING = 10
# The height of the bar of buttons pinned to the bottom of the screen.
BOTTOM_BAR = 72
BOARD_COLUMNS = 7


def build(app: App, game_id: str) -> ft.View:
    """The digital board for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    board = BoardScreen(app, session, view)
    board.render()
    app.follow(game_id, board.changed_elsewhere)
    board.wake_bots()
    return view


# --- logic under the screen (no Flet) ------------------------------------------------------


def bot_seats(setup: GameSetup) -> dict[str, str]:
    """The seats computer opponents play: player id -> bot name."""
    return {player.id: player.bot for player in setup.players if player.bot}


def undo_depth(game: Game, commands: Sequence[Command], bots: Collection[str]) -> int:
    """How many commands undo takes back so a person decides again: their last and the bots' after.

    0 when no person has made a command yet (undoing bots alone would only let them replay).
    """
    state = game.new_initial_state()
    movers = []
    for command in commands:
        movers.append(state.current_player)
        state.apply(command)
    for depth, mover in enumerate(reversed(movers), start=1):
        if mover not in bots:
            return depth
    return 0


def command_places(state: GameState, command: Command) -> tuple[str, ...]:
    """The spaces a command is about, to point them out while a bot plays it."""
    ids = state.game.isle.location_ids
    here = () if state.active is None else (ids[state.active],)
    if isinstance(command, Summon):
        return (command.location,) if command.location else ()
    if isinstance(command, Activate):
        return (command.location,)
    if isinstance(command, Move):
        return (*here, command.to)
    if isinstance(command, Attack):
        return (*here, command.target)
    if isinstance(command, Swap):
        return (*here, command.with_location) if command.with_location else here
    if isinstance(command, Dominate):
        territory = state.game.board.territories[state.game.isle.territory_index[command.territory]]
        return territory.locations
    return here


def domination_preview(state: GameState, take: bool) -> Tally:
    """The engine's Energy and Reset if the bonus now in question is taken (or declined).

    Run on a copy; the choices still to come after this one are counted as taken.
    """
    trial = state.clone()
    wanted = take
    while trial.phase is Phase.ENERGY_AND_RESET and trial.pending:
        trial.apply(
            next(c for c in trial.legal_commands() if isinstance(c, Dominate) and c.take is wanted)
        )
        wanted = True
    assert trial.last_tally is not None  # the last choice always runs the tally
    return trial.last_tally


def step_guide(state: GameState) -> str:
    """What the player whose turn it is can do now, in a sentence or two."""
    kind = state.step_kind
    seat = state.current_seat
    marks = {target.mark for target in targets(state).values()}
    if state.phase is Phase.SUMMONING:
        assert kind is not None and seat is not None, "a Summoning step is someone's, of a kind"
        stats = CREATURES[kind]
        left = state.reserve[seat][KIND_ORDER.index(kind)]
        return (
            f"Summon {kind.plural}: tap a marked space to summon one for {stats.cost} energy "
            f"({left} in reserve, {state.energy[seat]} energy), then Done."
        )
    if state.phase is Phase.ACTIONS and state.active is None:
        assert kind is not None, "an Actions step is of a kind"
        actions = CREATURES[kind].actions
        return (
            f"{kind.plural} act: tap one of your marked {kind.plural} to activate it "
            f"({counted(actions, 'action')}), then Done."
        )
    if state.phase is Phase.ACTIONS:
        assert kind is not None and state.active is not None, "a creature is being activated"
        where = state.game.isle.location_names[state.active]
        parts = []
        if Mark.MOVE in marks:
            parts.append("a green space to move there (the number is the actions it takes)")
        if Mark.ATTACK in marks:
            parts.append("a red one to attack")
        if Mark.SWAP in marks:
            parts.append(f"a blue one to swap places ({WYRM_SWAP_COST} energy)")
        left = state.actions_left
        head = f"Your {kind.title} at {where} has {counted(left, 'action')} left"
        if not parts:
            return f"{head}: End activation when it is done."
        return f"{head}: tap {', '.join(parts)}; or End activation."
    if state.phase is Phase.ENERGY_AND_RESET and state.pending:
        territory = state.game.board.territories[state.pending[0][1]]
        return (
            f"You hold every space of {territory.label}: take its {territory.bonus}-energy "
            f"bonus, or decline it (a higher total can mean a worse band next round)."
        )
    return ""


# --- the screen ----------------------------------------------------------------------------


class BoardScreen:
    """Draws the game, turns taps into commands and lets computer opponents play their seats."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        setup = session.saved.setup
        self.bot_names = bot_seats(setup)
        # Seeded by game and seat, so a bot's choices can be reproduced; kept for the whole
        # screen, so a searching bot can reuse what it worked out for its last decision.
        base = zlib.crc32(session.id.encode())
        self.bots: dict[str, Bot] = {
            player: make_bot(name, seed=base + session.saved.game.seat[player])
            for player, name in self.bot_names.items()
        }
        self.busy = False
        # Another device recorded last: it plays the bots' turns, this one follows.
        self.following = False
        # The attack panel last opened, closed if another device moves the game on.
        self.attack_dialog: ft.AlertDialog | None = None
        # (player, command) a bot is about to play, pointed out on the board meanwhile.
        self.showing: tuple[str, Command] | None = None
        self.shown_player: str | None = session.state.current_player
        page = app.page
        width = page.width or 360
        height = page.height or 740
        side_by_side = width >= SIDE_BY_SIDE
        # A first guess at the canvas size; the canvas reports its real width once laid out.
        inner = width - 2 * SCREEN_PADDING
        board_width = inner * BOARD_COLUMNS / 12 - ROW_SPACING if side_by_side else inner
        max_height = height - 140 - BOTTOM_BAR if side_by_side else height * 0.7
        board_height = canvas_height(session.saved.game.board, board_width, max_height)
        self.side_by_side = side_by_side
        colours = {player.id: colour_of(player.colour or player.id) for player in setup.players}
        self.isle = IsleCanvas(
            session.saved.game.board, colours, self.tapped, board_width, board_height
        )
        self.end_button = big_button("End activation", lambda _: self.record(EndActivation()))
        self.done_button = big_button("Done", lambda _: self.record(Pass()), primary=False)
        self.bar = ft.BottomAppBar(
            height=BOTTOM_BAR,
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
            content=ft.Row(
                [self.end_button, self.done_button],
                spacing=8,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
        )
        self.game_bar = GameBar(app.go, session.id, self.undo, self.redo)
        view.appbar = self.game_bar.control
        self.players = PlayersCard(session, {player: " · computer" for player in self.bot_names})
        self.die_a = ft.Text("", size=44)
        self.die_d = ft.Text("", size=44)

    # --- whose decision ---------------------------------------------------------------

    def bot_to_move(self) -> Bot | None:
        """The bot whose decision it is, if a computer opponent is to play."""
        player = self.session.state.current_player
        return self.bots.get(player) if player else None

    def human_to_move(self) -> bool:
        """Whether a person decides now (and no bot is playing)."""
        state = self.session.state
        return state.current_player is not None and self.bot_to_move() is None

    def on_screen(self) -> bool:
        """Whether this screen is still the one shown."""
        views = self.app.page.views
        return bool(views) and views[-1] is self.view

    # --- a person's actions -----------------------------------------------------------

    def tapped(self, location: str) -> None:
        """A tap on a space: the legal command it means, or the engine's reason it cannot be."""
        if self.busy or not self.human_to_move():
            return
        state = self.session.state
        command = tap_command(state, location)
        if command is None:
            return
        if command not in state.legal_commands():
            reason = self.session.refusal(command)
            notify(self.app.page, reason or "Nothing to do there.", error=True)
            return
        if isinstance(command, Attack):
            self.attack_panel(command)
            return
        if isinstance(command, Move):
            self.busy = True  # no second tap, and no bot, while the creature travels
            self.app.page.run_task(self.move_by_hand, command)
            return
        self.record(command)

    async def move_by_hand(self, move: Move) -> None:
        """A person's move: the creature glides its way, then the move is recorded."""
        revision = self.session.saved.revision
        try:
            await self.glide(self.session.state, move, frames=HAND_GLIDE_FRAMES, pause=0)
        finally:
            self.busy = False
        # Another device may have moved the game on meanwhile: the move was for before.
        if self.on_screen() and self.session.saved.revision == revision:
            self.record(move)

    def record(self, command: Command) -> Outcome:
        """Send a command through the store and show what happened."""
        outcome = self.session.do(command, by=self.shown_player)
        self.after(outcome)
        return outcome

    def after(self, outcome: Outcome) -> None:
        """Re-draw, tell the player what happened, and let a bot play if its turn has come."""
        if outcome.ok:
            self.recorded_here()
        if outcome.ok and self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
            return
        self.render()
        # What was done shows in the turn card's last line; only a refusal needs a message.
        if not outcome.ok:
            notify(self.app.page, outcome.message, error=True)
        self.app.page.update()
        self.wake_bots()

    def recorded_here(self) -> None:
        """This device wrote to the game: the others follow it, and it plays the bots."""
        self.following = False
        self.app.announce(self.session.id, self.session.saved.revision)

    def changed_elsewhere(self, revision: int) -> None:
        """Another device recorded in this game: show it as it is now, and leave it the bots."""
        if revision == self.session.saved.revision:
            return
        self.following = True
        self.session.refresh()
        # An attack being rolled here was meant for the position before: it no longer stands.
        # (Only the attack panel: a message sliding in is a dialog too, and may stay.)
        if self.attack_dialog is not None and self.attack_dialog.open:
            self.attack_dialog.open = False
            self.attack_dialog.update()
            notify(self.app.page, "The game moved on on another device.")
        if self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
            return
        self.render()
        self.app.page.update()

    def undo(self, _: ft.Event[Any]) -> None:
        """Take back the newest command of a person, and the bots' commands after it."""
        depth = self.undo_depth()
        outcome = self.session.undo()
        for _step in range(depth - 1):
            if not outcome.ok:
                break
            outcome = self.session.undo()
        self.after(outcome)

    def redo(self, _: ft.Event[Any]) -> None:
        """Bring back the newest undone command, and the bots' commands after it."""
        outcome = self.session.redo()
        while outcome.ok and self.bot_to_move() is not None and self.session.saved.redo_label:
            outcome = self.session.redo()
        self.after(outcome)

    def undo_depth(self) -> int:
        """How many commands Undo takes back now."""
        saved = self.session.saved
        if not self.bots:
            return 1 if saved.log else 0
        return undo_depth(saved.game, [entry.command for entry in saved.log], self.bots)

    # --- computer opponents -------------------------------------------------------------

    def wake_bots(self) -> None:
        """Start the bots' play if one of them is to decide and they are not playing already."""
        if self.busy or self.bot_to_move() is None or self.session.state.is_terminal:
            return
        if self.following:
            return  # the device that recorded last plays them
        self.busy = True
        self.app.page.run_task(self.play_bots)

    async def play_bots(self) -> None:
        """Let bots play, one visible command at a time, until a person's turn or the end."""
        try:
            while self.on_screen() and not self.following:
                bot = self.bot_to_move()
                if bot is None:
                    return
                state = self.session.state
                player = state.current_player
                assert player is not None, "a bot is to move: someone decides"
                revision = self.session.saved.revision
                # Searching takes up to the bot's budget: off the event loop, so taps still work.
                try:
                    command = await asyncio.to_thread(bot.choose, state.clone())
                except Exception as error:
                    # A bot that fails is reported in one line; the person can go on or reload.
                    name = self.session.label(player)
                    notify(
                        self.app.page, f"{name} (computer) could not decide: {error}", error=True
                    )
                    self.app.page.update()
                    return
                if self.session.saved.revision != revision:
                    continue  # someone undid meanwhile: decide again from the new position
                self.showing = (player, command)
                self.render()
                self.app.page.update()
                if isinstance(command, Move):
                    await self.glide(state, command)
                elif isinstance(command, Pass | EndActivation):
                    await asyncio.sleep(BOT_PASS_PAUSE)
                else:
                    await asyncio.sleep(BOT_PAUSE)
                self.showing = None
                if self.session.saved.revision != revision or not self.on_screen():
                    continue
                outcome = self.session.do(command, by=state.current_player)
                if outcome.ok:
                    self.recorded_here()
                if outcome.ok and self.session.state.is_terminal:
                    self.app.go(f"/game/{self.session.id}/end")
                    return
                self.render()
                if not outcome.ok:
                    notify(self.app.page, outcome.message, error=True)
                self.app.page.update()
                if not outcome.ok:
                    # The bots wait for a person to act (or reload): never loop on a refusal.
                    return
        finally:
            self.busy = False
            self.showing = None

    async def glide(
        self,
        state: GameState,
        move: Move,
        frames: int = GLIDE_FRAMES,
        pause: float = BOT_PAUSE - GLIDE_FRAMES * GLIDE_FRAME_S,
    ) -> None:
        """Show a creature travelling its way to where it moves, before the move is recorded."""
        ids = state.game.isle.location_ids
        assert state.active is not None, "the creature moving is the active one"
        start = ids[state.active]
        on_board = pieces(state)
        piece = on_board.pop(start)
        empty = set(ids) - set(on_board)
        points = [
            self.isle.layout.points[space]
            for space in route(state.game.board, empty, start, move.to)
        ]
        await asyncio.sleep(pause)
        for frame in range(1, frames + 1):
            if not self.on_screen():
                return
            at = along(points, frame / frames)
            self.isle.show(on_board, {}, state.game.labels, (move.to,), gliding=(piece, at))
            self.isle.canvas.update()
            await asyncio.sleep(GLIDE_FRAME_S)

    # --- attacks ----------------------------------------------------------------------

    def attack_panel(self, attack: Attack) -> None:
        """The odds of an attack from the engine, then digital dice or the physical dice's faces."""
        page = self.app.page
        state = self.session.state
        isle = state.game.isle
        assert state.active is not None, "an attack is made by the active creature"
        target = isle.index[attack.target]
        attacking, defending = state.occupant[state.active], state.occupant[target]
        assert attacking is not None and defending is not None, "an attack is between creatures"
        attacker = KIND_ORDER[attacking[1]]
        defender = KIND_ORDER[defending[1]]
        sprite = needs_defence_roll(state, attack)
        support = state.sprite_support(target) if sprite else 0
        odds = attack_odds(attacker, defender, support)
        bonus = CREATURES[attacker].attack_bonus
        if sprite:
            others = f"{counted(support, 'other Sprite')} of its owner there"
            against = f"the Sprite rolls a d6 + {support} ({others})"
        else:
            against = f"the {defender.title}'s defence is {CREATURES[defender].defence}"
        explain = ft.Text(
            f"Your {attacker.title} rolls a d6 + {bonus}; {against}. Success removes it and "
            f"gains {CREATURES[defender].bounty} energy.",
            size=15,
        )
        chance = ft.Text(
            f"Chance: {odds.numerator} in {odds.denominator} · {float(odds):.0%}",
            size=20,
            weight=ft.FontWeight.BOLD,
            color=ACCENT_TEXT,
        )
        faces: dict[str, int | None] = {"attack": None, "defence": None}
        labels = state.game.labels
        assert state.current_player is not None, "an attack is someone's decision"
        captions = (
            f"{labels[state.current_player]}'s {attacker.title}",
            f"{labels[state.game.players[defending[0]]]}'s {defender.title}",
        )
        body = ft.Column([explain, chance], tight=True, spacing=10)
        dialog = ft.AlertDialog(title=ft.Text(state.describe(attack), size=18), content=body)

        def roll(_: ft.Event[Any]) -> None:
            self.play_attack(dialog, attack, captions)

        def enter_faces(_: ft.Event[Any]) -> None:
            rows: list[ft.Control] = [explain, chance, self.face_row("Your die", "attack", faces)]
            if sprite:
                rows.append(self.face_row("The Sprite's die", "defence", faces))
            body.controls = rows
            dialog.actions = [
                ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
                ft.FilledButton("Attack with these dice", on_click=physical),
            ]
            page.update()

        def physical(_: ft.Event[Any]) -> None:
            if faces["attack"] is None or (sprite and faces["defence"] is None):
                notify(page, "Tap the face each die shows first.", error=True)
                return
            rolls = attack._replace(attack_roll=faces["attack"], defence_roll=faces["defence"])
            self.play_attack(dialog, rolls, captions)

        dialog.actions = [
            ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
            ft.OutlinedButton("Enter my dice", icon=ft.Icons.EDIT, on_click=enter_faces),
            ft.FilledButton("Roll", icon=ft.Icons.CASINO, on_click=roll),
        ]
        self.attack_dialog = dialog
        page.show_dialog(dialog)

    def face_row(self, title: str, key: str, faces: dict[str, int | None]) -> ft.Control:
        """Six die faces to tap, for dice rolled at the table."""
        buttons: list[ft.Container] = []

        def pick(face: int) -> None:
            faces[key] = face
            for number, button in enumerate(buttons, start=1):
                button.bgcolor = ACCENT if number == face else ft.Colors.SURFACE_CONTAINER_HIGHEST
            self.app.page.update()

        for face in range(1, DIE_SIDES + 1):
            buttons.append(
                ft.Container(
                    width=TAP,
                    height=TAP,
                    border_radius=8,
                    alignment=ft.Alignment.CENTER,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    on_click=lambda _, f=face: pick(f),
                    content=ft.Text(f"{DIE_FACES[face - 1]}", size=30),
                )
            )
        faces_row: list[ft.Control] = [
            ft.Semantics(label=f"{title}: {face}", button=True, container=True, content=button)
            for face, button in enumerate(buttons, start=1)
        ]
        return ft.Column(
            [ft.Text(title, size=14), ft.Row(faces_row, wrap=True, spacing=4, run_spacing=4)],
            spacing=4,
        )

    def play_attack(
        self, dialog: ft.AlertDialog, attack: Attack, captions: tuple[str, str]
    ) -> None:
        """Record the attack (the store rolls missing dice), then show the dice as they fell."""
        outcome = self.session.do(attack, by=self.shown_player)
        if not outcome.ok:
            self.app.page.pop_dialog()
            self.after(outcome)
            return
        self.recorded_here()
        logged = self.session.saved.log[-1].command
        assert isinstance(logged, Attack), "the command just recorded is this attack"
        dialog.title = ft.Text("The dice", size=18)
        result = ft.Text("", size=16)
        dice = [(self.die_a, captions[0])]
        if logged.defence_roll is not None:
            dice.append((self.die_d, captions[1]))
        dialog.content = ft.Column(
            [
                ft.Row(
                    [
                        ft.Column(
                            [die, ft.Text(caption, size=13)],
                            spacing=2,
                            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                        )
                        for die, caption in dice
                    ],
                    spacing=24,
                    alignment=ft.MainAxisAlignment.CENTER,
                ),
                result,
            ],
            tight=True,
            spacing=12,
        )
        dialog.actions = [ft.FilledButton("Continue", on_click=lambda _: self.close_attack())]
        self.app.page.run_task(self.animate_dice, logged, result, outcome.message)

    async def animate_dice(self, logged: Attack, result: ft.Text, message: str) -> None:
        """Tumble the dice for a moment, then land on the faces the logged command holds."""
        for _frame in range(ROLL_FRAMES):
            # Only the picture tumbles: the faces are already fixed in the log.
            self.die_a.value = DIE_FACES[random.randrange(DIE_SIDES)]
            self.die_d.value = DIE_FACES[random.randrange(DIE_SIDES)]
            self.app.page.update()
            await asyncio.sleep(ROLL_FRAME_S)
        assert logged.attack_roll is not None, "a logged attack carries its dice"
        self.die_a.value = f"{DIE_FACES[logged.attack_roll - 1]} {logged.attack_roll}"
        if logged.defence_roll is not None:
            self.die_d.value = f"{DIE_FACES[logged.defence_roll - 1]} {logged.defence_roll}"
        result.value = message
        self.render()
        self.app.page.update()

    def close_attack(self) -> None:
        """Close the dice and go on (to the result, if the attack won the game)."""
        self.app.page.pop_dialog()
        if self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
            return
        self.render()
        self.app.page.update()
        self.wake_bots()

    # --- drawing ----------------------------------------------------------------------

    def render(self) -> None:
        """Rebuild the screen from the saved game's state."""
        state = self.session.state
        # A tap is made by the player this drawing shows, whatever the game has moved on to.
        self.shown_player = state.current_player
        self.game_bar.show(state, self.undo_text(), self.session.saved.redo_label)
        self.players.show(state)
        self.view.bottom_appbar = self.bottom_bar()
        marks = targets(state) if self.human_to_move() else {}
        flash: tuple[str, ...] = ()
        if self.showing is not None:
            flash = command_places(state, self.showing[1])
        elif state.phase is Phase.ENERGY_AND_RESET and state.pending:
            flash = state.game.board.territories[state.pending[0][1]].locations
        self.isle.show(pieces(state), marks, state.game.labels, flash)
        board = ft.Column(
            [
                ft.Container(content=self.isle.control, border_radius=12),
                ft.Text(
                    "Gold: can act or summon · green: move (actions it takes) · red ⚔: attack · "
                    "blue ⇄: Wyrm swap · dark with a coloured ring: face-down, has acted",
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                ),
            ],
            spacing=6,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        panels = [
            self.turn_card(),
            self.players.control,
            section("Energy", energy_track(self.counters())),
        ]
        if state.last_tally is not None:
            panels.append(self.tally_card(state.last_tally))
        self.view.data = WIDE
        if self.side_by_side:
            self.view.controls = [
                ft.ResponsiveRow(
                    [
                        ft.Column([board], col={"md": BOARD_COLUMNS}),
                        ft.Column(panels, col={"md": 12 - BOARD_COLUMNS}),
                    ]
                )
            ]
        else:
            self.view.controls = [panels[0], board, *panels[1:]]

    def undo_text(self) -> str | None:
        """What Undo takes back now, bots' commands after a person's included; None if nothing."""
        depth = self.undo_depth()
        if not depth:
            return None
        entry = self.session.saved.log[-depth]
        after = depth - 1
        more = f" and {counted(after, 'computer command')} after it" if after else ""
        return f"{entry.description}{more}"

    def counters(self) -> list[tuple[str, str, int]]:
        """(name, colour, energy) per player in turn order, for the track."""
        state = self.session.state
        return [
            (self.session.label(p), self.session.colour(p), state.energy_of(p))
            for p in self.order()
        ]

    def order(self) -> list[str]:
        """Player ids in this round's turn order."""
        state = self.session.state
        return [state.game.players[seat] for seat in state.turn_order]

    def turn_card(self) -> ft.Control:
        """The step guide: whose turn, phase and step, what to do, and the domination choice."""
        state = self.session.state
        player = state.current_player
        if player is None:
            parts: list[ft.Control] = [
                ft.Text("The game is over.", size=18, weight=ft.FontWeight.BOLD),
                big_button(
                    "See the result",
                    lambda _: self.app.go(f"/game/{self.session.id}/end"),
                    icon=ft.Icons.EMOJI_EVENTS,
                ),
            ]
        else:
            parts = [self.whose_turn(player)]
            if self.bot_to_move() is not None:
                parts.append(self.bot_part(player))
            else:
                parts.append(ft.Text(step_guide(state), size=15))
                if state.phase is Phase.ENERGY_AND_RESET:
                    parts.append(self.domination_part(state.legal_commands()))
        if self.session.saved.log:
            parts.append(
                ft.Text(
                    f"Last: {self.session.saved.log[-1].description}",
                    size=13,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return ft.Semantics(
            identifier="turn-card",
            content=ft.Card(content=ft.Container(padding=12, content=ft.Column(parts, spacing=8))),
        )

    def whose_turn(self, player: str) -> ft.Control:
        """The current player's counter and name, large, over the phase and step."""
        name = self.session.label(player)
        bot = self.bot_names.get(player)
        heading = f"{name}'s turn" + (f" · {dict(SEAT_PLAYERS).get(bot, bot)}" if bot else "")
        return ft.Row(
            [
                player_chip(name, self.session.colour(player), size=40),
                ft.Column(
                    [
                        ft.Text(heading, size=20, weight=ft.FontWeight.BOLD),
                        self.step_line(),
                    ],
                    spacing=2,
                    expand=True,
                ),
            ],
            spacing=12,
        )

    def step_line(self) -> ft.Control:
        """The phase, and the kinds of its steps with the current one picked out."""
        state = self.session.state
        spans = [ft.TextSpan(PHASE_NAMES.get(state.phase, ""))]
        if state.step_kind is not None:
            spans.append(ft.TextSpan(": "))
            for kind in KIND_ORDER:
                current = kind is state.step_kind
                spans.append(
                    ft.TextSpan(
                        kind.plural,
                        ft.TextStyle(
                            weight=ft.FontWeight.BOLD if current else None,
                            color=ACCENT_TEXT if current else ft.Colors.ON_SURFACE_VARIANT,
                        ),
                    )
                )
                if kind is not KIND_ORDER[-1]:
                    spans.append(
                        ft.TextSpan(" → ", ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT))
                    )
        return ft.Text(spans=spans, size=15)

    def bot_part(self, player: str) -> ft.Control:
        """What the computer opponent is doing: thinking, or the command about to be played."""
        name = self.session.label(player)
        if self.showing is None:
            return ft.Row(
                [ft.ProgressRing(width=22, height=22), ft.Text(f"{name} is thinking…", size=16)],
                spacing=10,
            )
        command = self.showing[1]
        return ft.Text(self.session.state.describe(command), size=16, weight=ft.FontWeight.BOLD)

    def bottom_bar(self) -> ft.BottomAppBar:
        """End activation and Done, pinned at the bottom: one tap away however far one scrolls.

        The bar and its buttons are made once and changed in place: a button that stays the
        same control keeps taking taps while the screen around it is redrawn.
        """
        state = self.session.state
        bar = self.bar
        if not self.human_to_move() or state.phase is Phase.ENERGY_AND_RESET:
            bar.visible = False
            return bar
        legal = state.legal_commands()
        kind = state.step_kind
        assert kind is not None, "a person acts in a Summoning or Actions step, of a kind"
        # Compared by type: commands without fields are all equal to the empty tuple.
        self.end_button.visible = any(type(c) is EndActivation for c in legal)
        self.done_button.visible = any(type(c) is Pass for c in legal)
        doing = "summoning" if state.phase is Phase.SUMMONING else "with"
        self.done_button.content = f"Done {doing} {kind.plural}"
        bar.visible = True
        return bar

    def domination_part(self, legal: list[Command]) -> ft.Control:
        """Take or decline a territory's bonus, each with the engine's tally it would lead to."""
        state = self.session.state
        player = state.current_player
        assert player is not None, "a domination choice is someone's"
        name = self.session.label(player)
        take, decline = (c for c in legal if isinstance(c, Dominate))
        territory = state.game.board.territories[state.pending[0][1]]
        options: list[ft.Control] = []
        for command, label in (
            (take, f"Take +{territory.bonus}"),
            (decline, "Decline"),
        ):
            tally = domination_preview(state, command.take)
            line = tally.player(player)
            outcome = (
                tally.winner_note
                if tally.game_over
                else "Next round's order: "
                + " → ".join(self.session.label(p) for p in tally.turn_order)
            )
            options.append(
                ft.Container(
                    padding=10,
                    border_radius=10,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    col={"sm": 6},
                    content=ft.Column(
                        [
                            big_button(
                                label,
                                lambda _, c=command: self.record(c),
                                primary=command.take,
                            ),
                            ft.Text(
                                f"{name}: {line.before} → {line.after}",
                                size=18,
                                weight=ft.FontWeight.BOLD,
                            ),
                            ft.Text(line.explain(name), size=13),
                            ft.Text(outcome, size=13),
                        ],
                        spacing=6,
                    ),
                )
            )
        parts: list[ft.Control] = [ft.ResponsiveRow(options, spacing=8, run_spacing=8)]
        if len(state.pending) > 1:
            parts.append(
                ft.Text(
                    "Each preview counts the bonuses still to be decided after this one as taken.",
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return ft.Column(parts, spacing=6)

    def tally_card(self, tally: Tally) -> ft.Control:
        """The last Energy and Reset as the engine computed it, each number explained."""
        lines = tally_lines(self.session, tally)
        order = " → ".join(self.session.label(p) for p in tally.turn_order)
        lines.append(ft.Text(f"This round's order: {order}", size=15, weight=ft.FontWeight.BOLD))
        lines.extend(ft.Text(note, size=13) for note in tally.order_notes)
        round_ = self.session.state.round - 1
        return ft.Semantics(
            identifier="last-tally", content=section(f"Energy and Reset of round {round_}", *lines)
        )
