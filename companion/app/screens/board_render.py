"""The digital board drawn from the saved game: the bars, the isle, the turn card and the
panels, where the screen's arrangement puts them (`play/board_frame.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import flet as ft

from companion.app.screens import board_pace, board_replay
from companion.app.widgets import RESIZES, energy_track, section
from companion.play.board_frame import Arrangement
from companion.play.board_taps import targets
from companion.play.game_words import say
from models.commands import Dominate

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen

T = TypeVar("T")


def render(screen: BoardScreen) -> None:
    """Rebuild the screen from the saved game's state."""
    state = screen.session.state
    # A tap is made by the player this drawing shows, whatever the game has moved on to.
    screen.shown_player = state.current_player
    waiting = screen.turns.reset_waiting() is not None and state.last_tally is not None
    # Until play goes on, the round shown is the one whose Energy and Reset is read.
    shown_round = state.last_tally.round if waiting and state.last_tally else None
    words = screen.words
    undo, redo = screen.turns.undo_text(words), screen.turns.redo_text(words)
    screen.game_bar.show(state, undo, redo, shown_round)
    screen.rail.show(state, undo, redo, shown_round)
    screen.players.show(state)
    screen.bottom.show()
    screen.view.bottom_appbar = None if screen.shown is Arrangement.SIDEWAYS else screen.bottom.bar
    # The coach's cards first: a hint for a position the game has left is not drawn.
    screen.hint.show()
    screen.chances.show()
    draw_isle(screen, waiting)
    tally = state.last_tally
    # Play waits while an Energy and Reset is shown; it takes the step guide's place.
    if waiting and tally:
        card = screen.cards.reset_card(tally, board_replay.reset_story(screen))
    else:
        player = state.current_player
        story = (
            board_replay.story(screen, player)
            if player is not None and screen.turns.human_to_move() and screen.replay is None
            else None
        )
        card = screen.cards.turn_card(story, board_replay.last_line(screen), screen.replay)
    ringed = screen.cards.ringed_note() if waiting else None
    screen.ringed.value = ringed or ""
    screen.ringed.visible = ringed is not None
    energy = kept(
        screen,
        "energy",
        counters(screen),
        lambda c: section(say(words, "game.board.energy"), energy_track(c, words)),
    )
    # The computers' pace, where there are computers: under the players, short.
    pace = (
        [
            kept(
                screen,
                "pace",
                screen.pace,
                lambda _: screen.cards.pace_card(
                    screen.pace, lambda pace: board_pace.set_pace(screen, pace)
                ),
            )
        ]
        if screen.turns.bots
        else []
    )
    others: list[ft.Control] = [
        screen.players.control,
        screen.ringed,
        screen.chances.control,
        *pace,
        energy,
    ]
    if tally is not None and not waiting:
        others.append(kept(screen, "tally", tally, screen.cards.tally_card))
    screen.view.data = RESIZES
    # The hint's control right under the turn card (hidden when it is no person's decision).
    hint = screen.hint.control
    if screen.shown is Arrangement.SIDEWAYS:
        screen.frame.card_slot.controls = [card, hint]
        screen.frame.drawer_column.controls = [*others, screen.frame.legend]
        screen.view.controls = [screen.frame.sideways]
    elif screen.shown is Arrangement.TABLET:
        screen.frame.panels.controls = [card, hint, *others]
        screen.view.controls = [screen.frame.layout]
    elif waiting:
        # The Energy and Reset is read first; the isle waits under it.
        screen.view.controls = [card, screen.frame.board, screen.frame.legend, *others]
    else:
        # The isle on top never moves as the step guide under it grows or shrinks.
        screen.view.controls = [screen.frame.board, card, hint, screen.frame.legend, *others]


def draw_isle(screen: BoardScreen, waiting: bool) -> None:
    """The isle as the game stands, with what a tap would do; or, while the story is
    replayed, the position its record was played from, the record's spaces pointed out."""
    state = screen.session.state
    replay = screen.replay
    if replay is not None and replay.index is not None:
        step = replay.steps[replay.index]
        before = step.before
        screen.isle.show(before.creatures(), {}, state.game.labels, before.places(step.command))
        return
    marks = targets(state) if screen.turns.human_to_move() and not waiting else {}
    flash: tuple[str, ...] = ()
    turn = state.decision()
    if screen.turns.showing is not None:
        flash = state.places(screen.turns.showing[1])
    elif turn is not None and turn.territory is not None:
        flash = state.places(Dominate(turn.territory, True))
    hint = screen.hint.marks()
    screen.isle.show(state.creatures(), marks, state.game.labels, flash, hint=hint)


def kept(screen: BoardScreen, name: str, key: T, build: Callable[[T], ft.Control]) -> ft.Control:
    """The control `build(key)` makes, made again only when `key` has changed: a control
    kept is compared, not sent again, when the screen is redrawn for each command."""
    kept = screen.made.get(name)
    if kept is None or kept[0] != key:
        kept = (key, build(key))
        screen.made[name] = kept
    return kept[1]


def counters(screen: BoardScreen) -> list[tuple[str, str, int]]:
    """(name, colour, energy) per player in turn order, for the track."""
    state = screen.session.state
    return [
        (screen.session.label(p), screen.session.colour(p), state.energy_of(p))
        for p in state.order()
    ]
