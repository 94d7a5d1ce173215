"""One tap one record: the guard each screen asks before a tap is sent."""

from companion.play.tap_guard import GUARD_S, TapGuard, Verdict


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_double_tap_sends_once():
    for gap in (0.08, 0.12, 0.25, GUARD_S - 0.01):
        clock = Clock()
        guard = TapGuard(clock)
        assert guard.tap() is Verdict.SEND
        clock.now += gap
        # The second half lands where the first did, on whatever the screen now shows there.
        assert guard.tap() is Verdict.DOUBLE
        assert guard.tap(current=False) is Verdict.DOUBLE


def test_taps_at_a_deliberate_pace_all_go_through():
    clock = Clock()
    guard = TapGuard(clock)
    for _ in range(4):
        assert guard.tap() is Verdict.SEND
        clock.now += GUARD_S + 0.05


def test_a_tap_just_after_another_device_redrew_the_screen_is_refused_with_a_sentence():
    clock = Clock()
    guard = TapGuard(clock)
    guard.changed_elsewhere()
    clock.now += 0.1
    assert guard.tap() is Verdict.CHANGED
    clock.now += GUARD_S
    assert guard.tap() is Verdict.SEND


def test_a_tap_on_a_drawing_already_replaced_goes_to_the_record_which_says_why():
    clock = Clock()
    guard = TapGuard(clock)
    guard.changed_elsewhere()
    clock.now += 0.1
    assert guard.tap(current=False) is Verdict.SEND


def test_the_guard_time_runs_from_when_the_tap_was_recorded_and_shown():
    """On a busy server the first tap's work outlasts the guard time: the second half of a
    double tap, waiting meanwhile, must still be dropped."""
    clock = Clock()
    guard = TapGuard(clock)
    assert guard.tap() is Verdict.SEND
    clock.now += 0.6  # recording and drawing took this long
    guard.settled()
    clock.now += 0.01  # the waiting second tap's turn comes at once
    assert guard.tap() is Verdict.DOUBLE


def test_a_web_pages_guard_leaves_double_taps_to_the_page():
    """On the web the page drops a double tap's second half by the phone's own clock
    (companion/app/web_page.py): the server sees two deliberate taps that a slow phone sent
    close together, and records both."""
    clock = Clock()
    guard = TapGuard(clock, doubles=False)
    assert guard.tap() is Verdict.SEND
    clock.now += 0.05
    assert guard.tap() is Verdict.SEND
    # What another device's change did just before a tap is still said.
    guard.changed_elsewhere()
    clock.now += 0.1
    assert guard.tap() is Verdict.CHANGED
