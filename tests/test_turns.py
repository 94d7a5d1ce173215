"""The turn controller (companion/app/turns.py) without a browser: a fake screen, fake bots.

Computer seats play through the store as the app does, with no clock: the fake stage's
`present` returns at once, and the bot thinks on the event loop instead of a thread.
"""

import asyncio

import pytest

from companion.app.session import GameSession, Outcome
from companion.app.turns import SHOW_EACH, SHOW_PER_TURN, Turns, bot_seats, pause_for, seat_bots
from companion.engine.queries import turn_key
from companion.store.store import open_store
from models.commands import Command, Move, Pass, Summon
from models.rules import CreatureKind as K
from models.setup import GameSetup


class Stage:
    """A screen that remembers what it was asked to do."""

    def __init__(self) -> None:
        self.shown: list[Outcome | None] = []
        self.presented: list[tuple[str, Command, float]] = []
        self.announced: list[int] = []
        self.ended = False
        self.visible = True

    def on_screen(self) -> bool:
        return self.visible

    def show(self, outcome: Outcome | None) -> None:
        self.shown.append(outcome)

    def finished(self) -> None:
        self.ended = True

    def announce(self, revision: int) -> None:
        self.announced.append(revision)

    async def present(self, player: str, command: Command, seconds: float) -> None:
        self.presented.append((player, command, seconds))


class Summoner:
    """A bot that summons on the first space it may, and otherwise passes."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, state) -> Command:
        self.asked += 1
        legal = state.legal_commands()
        return next((c for c in legal if isinstance(c, Summon)), Pass())


async def think_here(choose, state):
    """Think on the event loop: no thread, so the test is exact."""
    return choose(state)


@pytest.fixture
def store(tmp_path):
    store = open_store(str(tmp_path / "games.sqlite3"))
    yield store
    store.close()


def against_a_bot(store, bot=None):
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn", "bot": "greedy"}],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    stage = Stage()
    turns = Turns(session, stage.announce, {"blue": bot or Summoner()}, think=think_here)
    return turns, stage


def test_computer_seats_come_from_the_setup_seeded_per_game_and_seat(store):
    turns, _ = against_a_bot(store)
    assert bot_seats(turns.session.saved.setup) == {"blue": "greedy"}
    assert set(seat_bots(turns.session)) == {"blue"}
    # Issue 11: a computer's turn is shown for a moment per command, a little in all.
    assert pause_for(Pass()) == 0 and pause_for(Move("rh1")) == SHOW_EACH
    assert pause_for(Move("rh1"), SHOW_PER_TURN - 0.1) == pytest.approx(0.1)
    assert pause_for(Move("rh1"), SHOW_PER_TURN) == 0


def test_a_computer_plays_its_seat_until_a_persons_turn(store):
    turns, stage = against_a_bot(store)
    assert turns.human_to_move() and not turns.should_play()
    # Ragna has no energy left for anything: the engine moves on to Bjorn.
    assert turns.record([Summon(K.WYRM, "rh1")], "red").ok
    assert stage.announced == [1]
    assert turns.bot_to_move() is not None and turns.should_play()
    asyncio.run(turns.play_bots(stage))
    log = turns.session.saved.log
    assert turns.human_to_move() and not turns.busy and turns.showing is None
    made = [entry.command.by for entry in log]
    assert made[0] == "red" and set(made[1:]) == {"blue"}
    # Every computer command was pointed out for its pause before it was recorded.
    assert [(p, c) for p, c, _ in stage.presented] == [
        ("blue", entry.command._replace(by=None)) for entry in log[1:]
    ]
    # Each command is shown for its share of its turn's showing time (issue 11).
    state = turns.session.saved.game.new_initial_state()
    state.apply(log[0].command)
    expected, turn, shown = [], None, 0.0
    for entry in log[1:]:
        if turn_key(state) != turn:
            turn, shown = turn_key(state), 0.0
        expected.append(pause_for(entry.command, shown))
        shown += expected[-1]
        state.apply(entry.command)
    assert [seconds for _, _, seconds in stage.presented] == expected
    assert any(seconds == SHOW_EACH for seconds in expected)
    assert stage.announced[-1] == turns.session.saved.revision


def test_undo_takes_back_the_persons_command_and_the_computers_after_it(store):
    turns, stage = against_a_bot(store)
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    computer = len(turns.session.saved.log) - 1
    assert computer > 0
    assert turns.undo_depth() == computer + 1
    commands = f"{computer} computer command" + ("s" if computer > 1 else "")
    summon = "Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)"
    assert turns.undo_text() == f"{summon} and {commands} after it"
    assert turns.undo().ok
    assert len(turns.session.saved.log) == 0 and turns.human_to_move()
    # Redo brings back Ragna's summon and the computer's answer in one tap.
    assert turns.redo().ok
    assert len(turns.session.saved.log) == computer + 1 and turns.human_to_move()


def test_the_device_that_recorded_last_plays_the_computers(store):
    turns, stage = against_a_bot(store)
    other = GameSession(store, turns.session.id)
    assert other.do(Summon(K.WYRM, "rh1"), by="red").ok
    assert turns.changed_elsewhere(other.saved.revision)
    assert not turns.changed_elsewhere(other.saved.revision)  # already seen
    assert turns.following and turns.bot_to_move() is not None and not turns.should_play()
    asyncio.run(turns.play_bots(stage))
    assert len(turns.session.saved.log) == 1  # left to the other device
    turns.following = False
    assert turns.should_play()


def test_a_choice_made_for_a_position_since_undone_is_dropped(store):
    turns, stage = against_a_bot(store)
    turns.record([Summon(K.WYRM, "rh1")], "red")
    other = GameSession(store, turns.session.id)
    calls = []

    async def undone_meanwhile(choose, state):
        calls.append(state)
        if len(calls) == 1:
            # Someone takes Ragna's summon back while the computer thinks.
            other.refresh()
            assert other.undo().ok
            turns.session.refresh()
        return choose(state)

    turns.think = undone_meanwhile
    asyncio.run(turns.play_bots(stage))
    # Ragna decides again: nothing the computer chose was recorded or shown.
    assert len(calls) == 1 and stage.presented == []
    assert turns.session.saved.log == () and turns.human_to_move()


def test_a_failing_computer_is_reported_and_play_stops(store):
    class Broken:
        def choose(self, state):
            raise RuntimeError("out of ideas")

    turns, stage = against_a_bot(store, Broken())
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    assert stage.shown[-1] == Outcome(False, "Bjorn (computer) could not decide: out of ideas")
    assert not turns.busy and len(turns.session.saved.log) == 1


def test_a_screen_left_stops_the_computers(store):
    turns, stage = against_a_bot(store)
    turns.record([Summon(K.WYRM, "rh1")], "red")
    stage.visible = False
    asyncio.run(turns.play_bots(stage))
    assert len(turns.session.saved.log) == 1 and not turns.busy


def test_at_the_table_undo_takes_back_one_record_as_the_screen_showed_it(store):
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle")
    session = GameSession(store, store.new_game(setup).id)
    turns = Turns(session, Stage().announce)
    assert turns.undo_depth() == 0 and turns.undo_text() is None
    assert turns.record([Summon(K.WYRM)], "red").ok
    shown = session.saved.revision
    assert turns.record([Summon(K.WYRM)], "blue").ok
    assert turns.undo_depth() == 1 and turns.undo_text() == session.saved.undo_label
    # An undo tapped on a drawing of an older revision is refused: the game moved on.
    assert not turns.undo(shown).ok
    assert turns.undo().ok and len(session.saved.log) == 1
