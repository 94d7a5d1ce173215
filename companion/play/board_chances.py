"""The digital board's chance bars: each player's win chance now, behind the device's switch
(the table's, `coach_view.STORED_CHANCES`: off until turned on, no spoilers). Plain Python.

The chances are the coach's (`CoachWork.chances`, off the screen's thread). They are worked
out only while shown, once per position, one at a time (a newer position waits for the one
under way, then is asked for), and only while no computer is playing: a computer's search
and the coach would share one core's worth of Python, so the bars catch up when play rests
with a person, at an Energy and Reset or at the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.coach import Chances
from companion.coach.review import percent
from companion.language import Message


@dataclass(frozen=True, slots=True)
class Bar:
    """One player's bar: their name and chance as text, and how full the bar is (0 to 1)."""

    player: str
    name: str
    share: float
    percent: Message
    # What a screen reader hears: 'Ann: 41% chance to win'.
    label: Message


@dataclass(frozen=True, slots=True)
class BarsPanel:
    """The bars as a screen draws them: on or off, the bars (empty while none is known),
    whether they are for an earlier position, whether the coach is working, and a note."""

    on: bool
    bars: tuple[Bar, ...]
    stale: bool
    working: bool
    note: Message | None


def bars_of(chances: Chances, players: Sequence[str], labels: Mapping[str, str]) -> tuple[Bar, ...]:
    """A bar per player, in `players`' order, from the coach's chances."""
    bars = []
    for player in players:
        share = chances.chance(player)
        said = percent(share)
        name = labels[player]
        label = Message("hint.bar_label", player=name, percent=said)
        bars.append(Bar(player, name, share, said, label))
    return tuple(bars)


class ChanceBars:
    """One screen's bars: the switch, the position whose chances are known, and the one
    being worked out."""

    def __init__(self, on: bool = False) -> None:
        self.on = on
        # (position, its chances) last worked out; the position under way, if any.
        self._known: tuple[object, Chances] | None = None
        self._working: object | None = None
        self._failed: Message | None = None

    def switch(self, on: bool) -> None:
        """The device's switch turned on or off."""
        self.on = on

    def want(self, position: object, resting: bool) -> bool:
        """The screen shows `position`: whether to start working its chances out now (shown,
        no computer playing, not known yet, and nothing else under way)."""
        if not self.on or not resting or self._working is not None:
            return False
        if self._known is not None and self._known[0] == position:
            return False
        if self._failed is not None and self._known is None:
            return False  # the coach said why it cannot: asked again only on a new screen
        self._working = position
        return True

    def answered(self, position: object, chances: Chances) -> None:
        """The chances of `position` are worked out (the screen then asks `want` again: the
        game may have moved on meanwhile)."""
        if self._working == position:
            self._working = None
        self._known = (position, chances)

    def failed(self, position: object, reason: Message) -> None:
        """The coach cannot judge this game (`CoachError`): said instead of the bars."""
        if self._working == position:
            self._working = None
        self._failed = reason

    def panel(
        self, position: object, players: Sequence[str], labels: Mapping[str, str]
    ) -> BarsPanel:
        """What to draw at `position`: nothing but the switch while off."""
        if not self.on:
            return BarsPanel(False, (), False, False, Message("coachui.line.hidden"))
        if self._failed is not None and self._known is None:
            return BarsPanel(True, (), False, False, self._failed)
        working = self._working is not None
        if self._known is None:
            return BarsPanel(True, (), True, working, Message("coachui.line.computing"))
        bars = bars_of(self._known[1], players, labels)
        if self._known[0] == position:
            return BarsPanel(True, bars, False, working, None)
        note = "coachui.line.computing" if working else "hint.bars_later"
        return BarsPanel(True, bars, True, working, Message(note))
