"""What one device keeps about the digital board: the computers' pace, and which Energy and
Reset it has gone on from. Plain Python.

Like the language and the theme, the pace is a display setting: each device has its own
(kept in its browser), and no game or log holds it. Someone who wants to follow every move
of the computers picks *slow*; someone who has seen enough picks *quick*. A person can
always read the whole story since their last turn (the turn card's summary) and replay it
on the isle, whatever the pace.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# Where a device keeps its pace (beside its language, `language_setting.STORED_LANGUAGE`).
STORED_PACE = "summoners-isle.pace"


class Pace(StrEnum):
    """How fast the computers' commands go by on this device."""

    QUICK = "quick"
    NORMAL = "normal"
    SLOW = "slow"


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds a computer's command is pointed out (`each`), and at most in one computer
    turn (`per_turn`: past it, the turn's commands are played without a pause); and a
    record's seconds on the isle when the story since a person's last turn is replayed."""

    each: float
    per_turn: float
    replay: float


# Quick and normal show one beat per computer turn: its first summon, move, attack, swap or
# bonus pointed out, the rest of the turn drawn done with the next beat (drawing the screen
# takes about as long as a beat, so two beats a turn made a person's longest wait, over six
# computer turns, run past 5 s; `bench waits-app`). Slow shows each command for most of a
# second, and a computer's turn in full.
TIMINGS: dict[Pace, Timing] = {
    Pace.QUICK: Timing(each=0.15, per_turn=0.15, replay=0.7),
    Pace.NORMAL: Timing(each=0.4, per_turn=0.4, replay=1.2),
    Pace.SLOW: Timing(each=0.9, per_turn=6.0, replay=2.0),
}
# Message ids of the paces' names.
PACE_NAMES: dict[Pace, str] = {
    Pace.QUICK: "game.pace.quick",
    Pace.NORMAL: "game.pace.normal",
    Pace.SLOW: "game.pace.slow",
}


def pace_of(kept: object) -> Pace:
    """The pace a device kept (normal if it kept none, or something else)."""
    try:
        return Pace(str(kept))
    except ValueError:
        return Pace.NORMAL


def went_on_key(game_id: str) -> str:
    """Where a browser's session remembers the Energy and Reset (its log entry's seq) it
    went on from in a game: a screen built again, and Home, read it."""
    return f"went-on/{game_id}"
