"""Animations on the digital board: a creature gliding along its way, dice tumbling.

Only pictures move here: the command is decided (and, for dice, already logged) before.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import flet as ft

from companion.app.board_view import IsleCanvas
from companion.engine import GameState
from companion.play.board_layout import along
from models.commands import Move
from models.rules import DIE_SIDES

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# Frames of the dice animation, and seconds between them.
ROLL_FRAMES = 6
ROLL_FRAME_S = 0.08
# Frames of a computer opponent's creature travelling to where it moves.
GLIDE_FRAMES = 8
GLIDE_FRAME_S = 0.05
# A person's own move glides too, quicker: they chose it, they only need to see it go.
HAND_GLIDE_FRAMES = 4


def die_face(face: int) -> str:
    """A die's face as drawn, with its number."""
    return f"{DIE_FACES[face - 1]} {face}"


async def glide(
    isle: IsleCanvas,
    state: GameState,
    move: Move,
    on_screen: Callable[[], bool],
    frames: int = GLIDE_FRAMES,
) -> None:
    """Show the active creature travelling the way the engine charges for, frame by frame."""
    path = state.move_path(move.to)
    on_board = state.creatures()
    piece = on_board.pop(path[0])
    points = [isle.layout.points[space] for space in path]
    for frame in range(1, frames + 1):
        if not on_screen():
            return
        at = along(points, frame / frames)
        isle.show(on_board, {}, state.game.labels, (move.to,), gliding=(piece, at))
        isle.canvas.update()
        await asyncio.sleep(GLIDE_FRAME_S)


async def tumble(page: ft.Page, dice: list[ft.Text], skipped: Callable[[], bool]) -> None:
    """Tumble the dice's pictures for a moment (the faces are already fixed in the log)."""
    for _frame in range(ROLL_FRAMES):
        if skipped():
            return
        for die in dice:
            die.value = DIE_FACES[random.randrange(DIE_SIDES)]
        # Only the dice change: the rest of the page is not compared again for each frame.
        page.update(*dice)
        await asyncio.sleep(ROLL_FRAME_S)
