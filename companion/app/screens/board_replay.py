"""The digital board's story since a person's last turn, and its replay on the isle.

What the story holds and how a replay steps through it are the play layer's
(`play/board_summary.py`: `story_since`, `latest`, `Replay`); these functions keep them
for the revision shown and play the replay on the screen's isle at the device's pace.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from companion.app.screens.board_motion import GLIDE_FRAME_S, GLIDE_FRAMES, glide
from companion.language import Message
from companion.play.board_summary import (
    Replay,
    Step,
    Story,
    latest,
    story_since,
    story_to_reset,
)
from models.commands import Move

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen


def story(screen: BoardScreen, player: str) -> Story:
    """Everything since `player` last decided, worked out once per revision."""
    revision = screen.session.saved.revision
    if screen.kept_story is None or screen.kept_story[:2] != (revision, player):
        screen.kept_story = (revision, player, story_since(screen.session, player))
    return screen.kept_story[2]


def reset_story(screen: BoardScreen) -> Story | None:
    """What the computers played up to the Energy and Reset on screen, once per revision."""
    revision = screen.session.saved.revision
    if screen.kept_reset_story is None or screen.kept_reset_story[0] != revision:
        told = story_to_reset(screen.session, screen.turns.bots)
        screen.kept_reset_story = (revision, told)
    return screen.kept_reset_story[1]


def last_line(screen: BoardScreen) -> tuple[Message, tuple[Message, ...]] | None:
    """The newest record's line and the players it passed over, once per revision."""
    revision = screen.session.saved.revision
    if screen.kept_latest is None or screen.kept_latest[0] != revision:
        screen.kept_latest = (revision, latest(screen.session))
    return screen.kept_latest[1]


def start_replay(screen: BoardScreen) -> None:
    """Play the story since the person's last turn again on the isle."""
    player = screen.session.state.current_player
    if player is None or screen.turns.busy:
        return
    steps = story(screen, player).steps
    if not steps:
        return
    screen.replay = Replay(steps)
    screen.app.page.run_task(run_replay, screen, screen.replay)


def skip_replay(screen: BoardScreen) -> None:
    """Stop the replay: the isle shows the game as it is."""
    if screen.replay is not None:
        screen.replay.skip()
        screen.replay = None
        if not screen.closed():
            screen.show(None)


async def run_replay(screen: BoardScreen, replay: Replay) -> None:
    """Each record of the story on the isle in turn, at this device's pace; then the game
    as it is."""
    seconds = screen.turns.timing.replay
    # Whether the record shown last glided: a glide took half of its time already.
    glided = False

    async def show(index: int, step: Step) -> None:
        nonlocal glided
        glided = False
        if not screen.on_screen() or replay is not screen.replay:
            replay.skip()
            return
        screen.show(None)
        if isinstance(step.command, Move):
            frames = min(GLIDE_FRAMES * 2, int(seconds / 2 / GLIDE_FRAME_S))
            await glide(screen.isle, step.before, step.command, screen.on_screen, frames=frames)
            glided = True

    async def sleep(pause: float) -> None:
        # Every record is on the isle for the whole pause: a move's glide is half of it.
        await asyncio.sleep(pause / 2 if glided else pause)

    await replay.run(show, seconds, sleep)
    if replay is screen.replay:
        screen.replay = None
        if screen.on_screen():
            screen.show(None)
