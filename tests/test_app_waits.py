"""Waits read from a game's log, as `bench waits-app` reads them."""

from datetime import UTC, datetime, timedelta

import pytest

from companion.cli import app as cli_app
from companion.cli import app_waits
from companion.cli.app_waits import waits_from_log
from companion.store.store import LogEntry
from models.commands import Pass

START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)


def entry(seq: int, by: str, seconds: float, reset: str | None = None) -> LogEntry:
    """A logged pass by `by`, `seconds` into the game."""
    return LogEntry(seq, Pass(by=by), "", START + timedelta(seconds=seconds), reset)


def test_a_wait_runs_from_the_persons_command_to_the_last_computer_command_before_the_next():
    log = [
        entry(1, "red", 0.0),
        entry(2, "blue", 1.0),
        entry(3, "green", 2.5),
        entry(4, "red", 3.0),  # waited 2.5 s, plus the head start
        entry(5, "red", 3.5),  # the person's own next step: no wait
        entry(6, "blue", 5.0),
    ]
    assert waits_from_log(log, "red", 0.25) == [2.75, 0.0]
    # Blue waits from its command to red's last before blue's next; that one is not over.
    assert waits_from_log(log, "blue", 0.0) == [2.5]


def test_an_energy_and_reset_ends_a_wait_a_person_goes_on_from_it_with_a_tap():
    log = [
        entry(1, "red", 0.0),
        entry(2, "blue", 1.0, reset="Energy and Reset, round 1: ..."),
        entry(3, "blue", 9.0),  # after the reset shown for a while: not red's wait
        entry(4, "red", 10.0),
        entry(5, "blue", 11.0),
        entry(6, "red", 12.0),
    ]
    assert waits_from_log(log, "red", 0.0) == [1.0, 1.0]
    # A person's own command ending the round ends no wait of theirs.
    assert waits_from_log(log, "blue", 0.0) == [1.0]


def test_without_a_browser_the_benchmark_says_what_is_missing_in_one_line(monkeypatch, capsys):
    def missing():
        raise app_waits.AppWaitsUnavailable("Debian's chromium is not installed.")

    monkeypatch.setattr(app_waits, "playwright_api", missing)
    with pytest.raises(SystemExit) as stopped:
        cli_app(["bench", "waits-app", "1"], standalone_mode=True)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "error: cannot measure the app in a browser: Debian's chromium is not installed."
    )
