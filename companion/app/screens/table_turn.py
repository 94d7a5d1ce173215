"""The table screen's turn card: where the round is, and one tap per thing the table does.

Summoning is a grid (players by creature kinds): a tap on "Bob: Troll" records Bob's
summon, after a skip over everyone before him who did not summon (the engine's `reach`).
The Actions phase asks the acting player what their creatures removed. Every button names
the player it acts for, and is sent with that player, so a tap from a screen another phone
has moved on is refused, never applied to someone else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT, ACCENT_TEXT, CREATURE_MARK, FONT
from companion.app.widgets import big_button, player_chip
from companion.engine import GameState, IllegalCommand, Phase
from companion.engine.names import kind_term, kinds_term
from companion.language import Message
from companion.language.render import Language
from companion.play.game_words import say
from companion.play.session import GameSession
from companion.play.tap_guard import TapGuard, Verdict
from models.commands import Command, Pass, Removal, Skip, Summon, Swap
from models.rules import CREATURES, KIND_ORDER, WYRM_SWAP_COST, CreatureKind

ON_ACCENT = "#1B1B1B"
CELL_WIDTH = 60
HEAD_HEIGHT = 36

# record(commands, by, revision): what a tap says, for the player and the game's revision
# the screen showed when it was drawn.
Record = Callable[[Sequence[Command], str | None, int], None]


class TurnCard:
    """Redrawn whole for every state, with the drawing before kept mounted and hidden.

    Every handler is bound to the player and the revision its drawing showed. A tap made on
    the phone before a newer drawing reached it still arrives at its own (hidden) button, so
    the store refuses it as made for an older moment of the game instead of dropping it or
    applying it to whoever's turn it is now.
    """

    def __init__(
        self,
        session: GameSession,
        record: Record,
        go: Callable[[str], None],
        undo: Callable[[int], None],
        words: Language,
        guard: TapGuard,
        changed: Callable[[], None],
    ) -> None:
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words
        self.session = session
        self.record = record
        self.go = go
        self.undo = undo
        # One tap, one record (issue 20): asked before any tap of the card is sent.
        self.guard = guard
        # Tells the person a tap came as the screen changed, and nothing was recorded.
        self.changed = changed
        self.where = ft.Text(size=20, weight=ft.FontWeight.BOLD)
        self.body = ft.Column(spacing=10)
        self.stale = ft.Column(visible=False)
        self.revision = -1
        # Why this device's controls for others are drawn as not its own (a shared table).
        self.not_mine: Message | None = None
        # A phone turned sideways has a few hundred pixels of height: the guide gives way.
        self.compact = False
        self.control = ft.Semantics(
            identifier="turn-card",
            content=ft.Card(
                content=ft.Container(
                    padding=14,
                    content=ft.Column([self.where, self.body, self.stale], spacing=10),
                )
            ),
        )

    def show(self, state: GameState, undo: str | None, revision: int) -> None:
        """Draw the card for a state at `revision`; `undo` says what undo would take back."""
        self.revision = revision
        self.not_mine = None
        kind = state.step_kind
        words = self.words
        game = f"/game/{self.session.id}"
        if state.phase is Phase.SUMMONING:
            assert kind is not None, "every Summoning step is of a kind"
            self.where.value = say(words, "game.table.summoning_step", kinds=kinds_term(kind))
            body = self.summoning(state)
        elif state.phase is Phase.ACTIONS:
            assert kind is not None, "every Actions step is of a kind"
            self.where.value = say(words, "game.table.actions_step", kinds=kinds_term(kind))
            body = self.actions(state)
        elif state.phase is Phase.ENERGY_AND_RESET:
            self.where.value = say(words, "game.phase.energy_and_reset")
            body = [
                ft.Text(say(words, "game.table.all_acted"), size=16),
                big_button(
                    say(words, "game.phase.energy_and_reset"),
                    lambda _: self.go(f"{game}/reset"),
                    icon=ft.Icons.AUTO_AWESOME,
                ),
            ]
        else:
            self.where.value = say(words, "game.table.over")
            body = [
                big_button(
                    say(words, "game.board.see_result"),
                    lambda _: self.go(f"{game}/end"),
                    icon=ft.Icons.EMOJI_EVENTS,
                )
            ]
        # Right under the title, so what the last tap recorded is seen without scrolling; its
        # room is kept before anything is recorded, so nothing moves under a finger.
        body.insert(0, self.undo_row(undo))
        if self.not_mine is not None:
            said = self.words.render(self.not_mine)
            # Right under the grid or the chips, where the locked controls are.
            body.insert(
                min(2, len(body)),
                ft.Row(
                    [
                        ft.Icon(ft.Icons.LOCK, size=18, color=ft.Colors.ON_SURFACE_VARIANT),
                        ft.Text(said, size=14, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                    ],
                    spacing=6,
                ),
            )
        self.stale.controls = self.body.controls
        self.body.controls = body

    def refused(self, commands: Sequence[Command], by: str | None) -> bool:
        """Whether this device may not record the tap (a shared table's seats): its control
        is then drawn as not this device's, and the card says why."""
        return self.reason(commands, by) is not None

    def reason(self, commands: Sequence[Command], by: str | None) -> Message | None:
        """Why this device may not record the tap, if it may not; the card says the first."""
        reason = self.session.tap_refusal(commands, by)
        if reason is not None and self.not_mine is None:
            self.not_mine = reason
        return reason

    def send(self, commands: Sequence[Command], by: str | None) -> Callable[[object], None]:
        """A click handler recording `commands` for `by`, bound to this drawing's revision."""
        revision = self.revision

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.record(commands, by, revision)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        return tapped

    def undo_row(self, undo: str | None) -> ft.Control:
        """What undo takes back, written out, beside its button: one tap target tall always."""
        revision = self.revision

        def tapped(_: object) -> None:
            verdict = self.guard.tap(current=revision == self.revision)
            if verdict is Verdict.SEND:
                self.undo(revision)
                self.guard.settled()
            elif verdict is Verdict.CHANGED:
                self.changed()

        said = undo if undo is not None else say(self.words, "game.table.nothing_yet")
        return ft.Container(
            height=TAP,
            content=ft.Row(
                [
                    ft.TextButton(
                        say(self.words, "game.table.undo"),
                        icon=ft.Icons.UNDO,
                        tooltip=None
                        if undo is None
                        else say(self.words, "game.bar.undo", what=undo),
                        on_click=tapped,
                        disabled=undo is None,
                        height=TAP,
                        style=ft.ButtonStyle(padding=12),
                    ),
                    ft.Text(
                        said,
                        size=13,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                        expand=True,
                        max_lines=2,
                        overflow=ft.TextOverflow.ELLIPSIS,
                    ),
                ],
                spacing=4,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )

    def summoning(self, state: GameState) -> list[ft.Control]:
        """The summon grid, what the player to decide may do, and who the step passes over."""
        player = state.current_player
        kind = state.step_kind
        assert player is not None and kind is not None, "a Summoning step is someone's, of a kind"
        name = self.session.label(player)
        words = self.words
        guide = ft.Text(say(words, "game.table.summon_guide", player=name), size=15)
        done = say(words, "game.table.done_with", player=name, kinds=kinds_term(kind))
        # The grid, then the player's "done": their places do not depend on the words under
        # them (the guide's length follows the names, the reasons come and go).
        return [
            self.summon_grid(state),
            self.button(done, [Pass()], player),
            *([] if self.compact else [guide]),
            *self.blocker_lines(state),
            self.whole_table(say(words, "game.table.nobody_summons"), Skip("summoning")),
        ]

    def button(
        self,
        text: str,
        commands: Sequence[Command],
        by: str | None,
        *,
        icon: ft.IconData | None = None,
    ) -> ft.Control:
        """A player's button: drawn as not this device's when it may not record it."""
        refused = self.refused(commands, by)
        return big_button(
            text,
            None if refused else self.send(commands, by),
            icon=icon,
            primary=False,
            disabled=refused,
        )

    def whole_table(self, text: str, skip: Skip) -> ft.Control:
        """A tap for everyone at once, set apart from the players' own buttons."""
        return ft.Column(
            [
                ft.Divider(height=1),
                ft.Row(
                    [
                        ft.Text(say(self.words, "game.table.whole_table"), size=13, expand=True),
                        ft.TextButton(
                            text,
                            icon=ft.Icons.FAST_FORWARD,
                            height=TAP,
                            disabled=self.refused([skip], None),
                            on_click=self.send([skip], None),
                        ),
                    ],
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ],
            spacing=4,
        )

    def actions(self, state: GameState) -> list[ft.Control]:
        """What the acting player's creatures removed, a Wyrm swap, and moving on."""
        player = state.current_player
        kind = state.step_kind
        assert player is not None and kind is not None, "an Actions step is someone's, of a kind"
        name = self.session.label(player)
        words = self.words
        legal = state.legal_commands()
        removals = [c for c in legal if isinstance(c, Removal)]
        acting = "game.table.act_remove" if removals else "game.table.act_none"
        guide = ft.Text(say(words, acting, player=name, kinds=kinds_term(kind)), size=16)
        parts: list[ft.Control] = [] if self.compact else [guide]
        chips = [self.removal_chip(name, player, removal) for removal in removals]
        if Swap() in legal:
            swap = say(
                words,
                "game.table.swap",
                player=name,
                cost=Message("count.energy", count=WYRM_SWAP_COST),
            )
            chips.append(self.button(swap, [Swap()], player, icon=ft.Icons.SWAP_HORIZ))
        if chips:
            parts.append(ft.Row(chips, wrap=True, spacing=8, run_spacing=8))
        done = say(words, "game.table.done_with", player=name, kinds=kinds_term(kind))
        moves = [self.button(done, [Pass()], player), *self.jumps(state, kind)]
        parts.append(ft.Row(moves, wrap=True, spacing=8, run_spacing=8))
        parts.extend(self.blocker_lines(state))
        parts.append(self.whole_table(say(words, "game.table.actions_over"), Skip("actions")))
        return parts

    def removal_chip(self, name: str, player: str, removal: Removal) -> ft.Control:
        """One rival creature the acting player can have removed, with its bounty."""
        victim = self.session.label(removal.victim)
        kind = CreatureKind(removal.kind)
        words = self.words
        text = say(
            words,
            "game.table.removal",
            victim=victim,
            kind=kind_term(kind),
            bounty=CREATURES[kind].bounty,
        )
        refused = self.refused([removal], player)
        return ft.Semantics(
            label=say(
                words, "game.table.removed", player=name, victim=victim, kind=kind_term(kind)
            ),
            button=True,
            container=True,
            disabled=refused,
            exclude_semantics=True,
            content=ft.FilledButton(
                disabled=refused,
                content=ft.Row(
                    [
                        player_chip(victim, self.session.colour(removal.victim), size=24),
                        ft.Text(text, size=15, weight=ft.FontWeight.W_600, font_family=FONT),
                    ],
                    spacing=6,
                    tight=True,
                ),
                height=TAP + 4,
                on_click=None if refused else self.send([removal], player),
            ),
        )

    def jumps(self, state: GameState, kind: CreatureKind) -> list[ft.Control]:
        """A button per later player in this step: everyone before them is done."""
        acting = [p for p in state.order() if state.blocker(p) is None]
        assert state.current_player is not None, "an Actions step is someone's"
        later = acting[acting.index(state.current_player) + 1 :]
        return [
            self.button(
                say(
                    self.words,
                    "game.table.jump",
                    player=self.session.label(p),
                    kinds=kinds_term(kind),
                ),
                [Skip("actions", kind, p)],
                None,
            )
            for p in later
        ]

    def blocker_lines(self, state: GameState) -> list[ft.Control]:
        """A line for each player this step passes over, saying why."""
        lines: list[ft.Control] = []
        for player in state.order():
            reason = state.blocker(player)
            if reason is not None:
                said = say(self.words, "game.table.blocker", reason=reason)
                lines.append(ft.Text(said, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        return lines

    def summon_grid(self, state: GameState) -> ft.Control:
        """Players (rows, in turn order) by creature kinds (columns): a tap summons one."""
        heads = []
        words = self.words
        for kind in KIND_ORDER:
            now = kind is state.step_kind
            heads.append(
                # Two lines' room whatever the step: the grid stays put from step to step.
                ft.Container(
                    width=CELL_WIDTH,
                    height=HEAD_HEIGHT,
                    alignment=ft.Alignment.BOTTOM_CENTER,
                    content=ft.Text(
                        say(words, "game.table.head_now", kinds=kinds_term(kind))
                        if now
                        else say(
                            words,
                            "game.table.head",
                            kind=kind_term(kind),
                            cost=CREATURES[kind].cost,
                        ),
                        size=13,
                        max_lines=2,
                        text_align=ft.TextAlign.CENTER,
                        weight=ft.FontWeight.BOLD if now else ft.FontWeight.NORMAL,
                        color=ACCENT_TEXT if now else ft.Colors.ON_SURFACE_VARIANT,
                    ),
                )
            )
        rows: list[ft.Control] = [ft.Row([ft.Container(expand=True), *heads], spacing=4)]
        for player in state.order():
            now = player == state.current_player
            name = self.session.label(player)
            cells = [
                self.summon_cell(state, player, kind, current=now and kind is state.step_kind)
                for kind in KIND_ORDER
            ]
            rows.append(
                ft.Row(
                    [
                        ft.Text("▶" if now else "", size=14, width=14, color=ACCENT_TEXT),
                        player_chip(name, self.session.colour(player), size=28),
                        ft.Container(
                            ft.Text(
                                name,
                                size=15,
                                max_lines=1,
                                overflow=ft.TextOverflow.ELLIPSIS,
                                weight=ft.FontWeight.BOLD if now else ft.FontWeight.NORMAL,
                            ),
                            expand=True,
                        ),
                        *cells,
                    ],
                    spacing=4,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        return ft.Column(rows, spacing=6)

    def summon_cell(
        self, state: GameState, player: str, kind: CreatureKind, *, current: bool
    ) -> ft.Control:
        """One square: '+W' and how many are left, a dash when no tap can summon it now, and
        '+W' faded with a lock when it is another device's to tap (a shared table)."""
        left = state.reserve_of(player, kind)
        words = self.words
        try:
            commands = state.reach(Summon(kind, by=player))
        except IllegalCommand:
            commands = []
        legal = bool(commands)
        locked = self.reason(commands, player) if legal else None
        theirs = locked is not None
        possible = legal and not theirs
        if current and possible:
            fill, border, ink = ACCENT, ft.Border.all(2, ACCENT), ON_ACCENT
        elif possible:
            fill, border, ink = (
                ft.Colors.SURFACE_CONTAINER_HIGHEST,
                ft.Border.all(2, ft.Colors.OUTLINE),
                None,
            )
        else:
            fill, border, ink = None, ft.Border.all(1, ft.Colors.OUTLINE_VARIANT), None
        box = ft.Container(
            width=CELL_WIDTH,
            height=TAP + 4,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            bgcolor=fill,
            border=border,
            disabled=not possible,
            on_click=self.send(commands, player) if possible else None,
            content=ft.Column(
                [
                    ft.Text(
                        ("" if theirs else "+") + CREATURE_MARK[kind] if legal else "-",
                        size=18,
                        weight=ft.FontWeight.BOLD,
                        font_family=FONT,
                        color=ink if possible else ft.Colors.ON_SURFACE_VARIANT,
                    ),
                    ft.Text(
                        say(words, "game.table.left", count=left),
                        size=11,
                        color=ink if possible else ft.Colors.ON_SURFACE_VARIANT,
                    )
                    if not theirs
                    else ft.Icon(ft.Icons.LOCK, size=14, color=ft.Colors.ON_SURFACE_VARIANT),
                ],
                spacing=0,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        return ft.Semantics(
            label=say(
                words,
                "game.table.summon_cell",
                player=self.session.label(player),
                kind=kind_term(kind),
                count=left,
            )
            if locked is None
            else say(
                words,
                "game.table.summon_cell_locked",
                player=self.session.label(player),
                kind=kind_term(kind),
                count=left,
                reason=locked,
            ),
            button=True,
            container=True,
            disabled=not possible,
            exclude_semantics=True,
            content=box,
        )
