"""The turn controller (companion/play/turns.py) without a browser: a fake screen, fake bots.

Computer seats play through the store as the app does, with a fake clock: the fake stage's
`present` and `wait` return at once, and the bot thinks on the event loop, not a thread.
"""

import asyncio

import pytest

from companion.engine.position_keys import turn_key
from companion.language.render import language
from companion.play.leases import BEAT_S, LEASE_S, Leases
from companion.play.session import GameSession, Outcome
from companion.play.turns import (
    SHOW_EACH,
    SHOW_PER_TURN,
    UNATTENDED_RESET_S,
    Turns,
    bot_seats,
    pause_for,
    seat_bots,
)
from companion.store.store import open_store
from models.commands import Activate, Attack, Command, Dominate, EndActivation, Move, Pass, Summon
from models.rules import CreatureKind as K
from models.setup import GameSetup


class Stage:
    """A screen that remembers what it was asked to do."""

    def __init__(self) -> None:
        self.shown: list[Outcome | None] = []
        self.presented: list[tuple[str, Command, float]] = []
        self.announced: list[int] = []
        self.waited: list[float] = []
        self.ended = False
        self.visible = True
        self.left = False
        self.woken = 0

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

    async def wait(self, seconds: float) -> None:
        self.waited.append(seconds)

    def closed(self) -> bool:
        return self.left

    def wake(self) -> None:
        self.woken += 1


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Summoner:
    """A bot that summons on the first space it may, and otherwise passes."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, state) -> Command:
        self.asked += 1
        legal = state.legal_commands()
        return next((c for c in legal if isinstance(c, Summon)), Pass())


async def think_here(bot, state):
    """Think on the event loop: no thread, so the test is exact."""
    return bot.choose(state)


@pytest.fixture
def store(tmp_path):
    store = open_store(str(tmp_path / "games.sqlite3"))
    yield store
    store.close()


def against_a_bot(store, bot=None, leases=None):
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn", "bot": "greedy"}],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    stage = Stage()
    turns = Turns(
        session,
        stage.announce,
        {"blue": bot or Summoner()},
        think=think_here,
        leases=leases or Leases(Clock()),
        device="phone",
        clock=Clock(),
    )
    return turns, stage


def another_device(turns, name):
    """The same game on a second device: its own session and stage, the same leases."""
    stage = Stage()
    session = GameSession(turns.session.store, turns.session.id)
    bots = {"blue": Summoner()}
    other = Turns(session, stage.announce, bots, think=think_here, leases=turns.leases, device=name)
    return other, stage


def test_computer_seats_come_from_the_setup_seeded_per_game_and_seat(store):
    turns, _ = against_a_bot(store)
    assert bot_seats(turns.session.saved.setup) == {"blue": "greedy"}
    assert set(seat_bots(turns.session)) == {"blue"}
    # A computer's turn is shown for a moment per command, a little in all.
    assert pause_for(Pass()) == 0 and pause_for(Move("rh1")) == SHOW_EACH
    assert pause_for(Activate("rh1")) == 0  # seen in the move or attack that follows
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
    # Each command is shown for its share of its turn's showing time; one with
    # none left (or a pass) is recorded without being pointed out.
    expected = pauses(turns.session, after=1)
    assert any(seconds == SHOW_EACH for seconds in expected)
    assert stage.presented == [
        ("blue", entry.command._replace(by=None), seconds)
        for entry, seconds in zip(log[1:], expected, strict=True)
        if seconds
    ]
    assert stage.announced[-1] == turns.session.saved.revision


def pauses(session, after: int = 0) -> list[float]:
    """How long each logged command from `after` on was to be pointed out, by its turn."""
    state = session.saved.game.new_initial_state()
    expected, turn, shown = [], None, 0.0
    for number, entry in enumerate(session.saved.log):
        if number >= after:
            if turn_key(state) != turn:
                turn, shown = turn_key(state), 0.0
            expected.append(pause_for(entry.command, shown))
            shown += expected[-1]
        state.apply(entry.command)
    return expected


def test_undo_takes_back_the_persons_command_and_the_computers_after_it(store):
    turns, stage = against_a_bot(store)
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    computer = len(turns.session.saved.log) - 1
    assert computer > 0
    assert turns.undo_depth() == computer + 1
    commands = f"{computer} computer command" + ("s" if computer > 1 else "")
    summon = "Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)"
    assert turns.undo_text(language("en")) == f"{summon} and {commands} after it"
    # In French, the same told again from the log (the store keeps English sentences).
    coups = f"{computer} coup" + ("s" if computer > 1 else "")
    assert turns.undo_text(language("fr")) == (
        f"Ragna invoque un Wyrm au Creux des Runes 1 pour 5 points d'énergie (5 → 0), "
        f"puis {coups} de l'ordinateur"
    )
    assert turns.undo().ok
    assert len(turns.session.saved.log) == 0 and turns.human_to_move()
    # Redo brings back Ragna's summon and the computer's answer in one tap.
    assert turns.redo().ok
    assert len(turns.session.saved.log) == computer + 1 and turns.human_to_move()


def test_the_device_that_recorded_last_plays_the_computers(store):
    turns, stage = against_a_bot(store)
    other, _ = another_device(turns, "tablet")
    assert other.record([Summon(K.WYRM, "rh1")], "red").ok
    assert turns.changed_elsewhere(other.session.saved.revision)
    assert not turns.changed_elsewhere(other.session.saved.revision)  # already seen
    assert turns.bot_to_move() is not None and not turns.should_play()
    asyncio.run(turns.play_bots(stage))
    assert len(turns.session.saved.log) == 1  # left to the other device
    assert other.should_play()


def test_a_follower_takes_the_computers_over_when_the_driver_falls_silent(store):
    clock = Clock()
    phone, phone_stage = against_a_bot(store, leases=Leases(clock))
    tablet, tablet_stage = another_device(phone, "tablet")
    assert phone.record([Summon(K.WYRM, "rh1")], "red").ok
    tablet.changed_elsewhere(phone.session.saved.revision)
    # The phone drives Bjorn and keeps saying so; the tablet waits however long that lasts.
    for _ in range(10):
        clock.now += BEAT_S
        phone.leases.renew(phone.session.id, phone.device)
        assert not tablet.should_play() and phone.drives()
    # The phone's tab is closed: it says nothing more. Within the lease the tablet waits...
    clock.now += LEASE_S
    assert not tablet.should_play()
    # ...and just past it, takes over and plays Bjorn's turn itself.
    clock.now += BEAT_S
    assert tablet.should_play()
    asyncio.run(tablet.play_bots(tablet_stage))
    assert tablet.human_to_move() and len(tablet.session.saved.log) > 1
    # The phone, back, follows the device that plays now.
    assert not phone.drives()
    phone.changed_elsewhere(tablet.session.saved.revision)
    asyncio.run(phone.play_bots(phone_stage))
    assert phone_stage.presented == []


def test_the_watch_renews_while_shown_and_a_silent_drivers_game_is_taken_within_seconds(store):
    """Both screens' watches run on one fake clock: the tablet's watch wakes its computers
    once the phone, disconnected, has not renewed its lease for LEASE_S."""
    clock = Clock()
    phone, phone_stage = against_a_bot(store, leases=Leases(clock))
    tablet, tablet_stage = another_device(phone, "tablet")
    assert phone.record([Summon(K.WYRM, "rh1")], "red").ok
    tablet.changed_elsewhere(phone.session.saved.revision)
    phone.busy = True  # the phone is playing Bjorn (thinking for a while)
    ticks = []

    async def tablet_tick(seconds):
        await asyncio.sleep(0)  # the phone's watch has its turn
        clock.now += seconds
        ticks.append(clock.now)
        if len(ticks) == 5:
            phone_stage.visible = False  # the phone's tab closes: no more renewals
        if tablet_stage.woken or len(ticks) > 30:
            tablet_stage.left = phone_stage.left = True

    async def phone_tick(seconds):
        await asyncio.sleep(0)  # on the same clock, in between the tablet's ticks

    async def both():
        await asyncio.gather(
            phone.keep_watch(phone_stage, phone_tick), tablet.keep_watch(tablet_stage, tablet_tick)
        )

    asyncio.run(both())
    assert tablet_stage.woken == 1 and phone_stage.woken == 0
    # Silent from the 5th tick: taken over a few seconds later.
    assert LEASE_S < ticks[-1] - ticks[4] <= LEASE_S + 2 * BEAT_S
    assert tablet.drives() and not phone.drives()


def test_a_device_leaving_the_game_frees_its_computers_at_once(store):
    clock = Clock()
    phone, phone_stage = against_a_bot(store, leases=Leases(clock))
    tablet, _ = another_device(phone, "tablet")
    assert phone.record([Summon(K.WYRM, "rh1")], "red").ok
    tablet.changed_elsewhere(phone.session.saved.revision)
    assert not tablet.should_play()
    phone_stage.left = True  # another screen shown on the phone: its watch ends

    async def no_wait(seconds):
        clock.now += seconds

    asyncio.run(phone.keep_watch(phone_stage, no_wait))
    assert clock.now == 100 and tablet.should_play()


def play_to_the_energy_and_reset(turns, stage):
    """Ragna (a person) summons what she can and takes any bonus; Bjorn's computer plays."""
    while not any(entry.reset for entry in turns.session.saved.log):
        if turns.human_to_move():
            legal = turns.session.state.legal_commands()
            wanted = next((c for c in legal if isinstance(c, Summon | Dominate)), Pass())
            assert turns.record([wanted], "red").ok
        else:
            asyncio.run(turns.play_bots(stage))


def test_play_waits_after_an_energy_and_reset_until_a_person_goes_on(store):
    turns, stage = against_a_bot(store)
    play_to_the_energy_and_reset(turns, stage)
    entry = turns.reset_waiting()
    assert entry is turns.session.saved.log[-1] and str(entry.reset).startswith(
        "Energy and Reset, round 1: "
    )
    state = turns.session.state
    assert state.round == 2 and state.last_tally.round == 1
    # Nobody plays on, not even a computer whose turn it is, until someone taps Continue.
    recorded = len(turns.session.saved.log)
    assert not turns.should_play()
    asyncio.run(turns.play_bots(stage))
    assert len(turns.session.saved.log) == recorded and stage.waited == []
    # The position on screen stays until then, so the coach may judge it, though the
    # computer plays first next round.
    assert turns.bot_to_move() is not None and turns.computers_resting()
    turns.go_on()
    assert turns.reset_waiting() is None
    assert turns.should_play() == (turns.bot_to_move() is not None)
    assert turns.computers_resting() == (turns.bot_to_move() is None)


def test_with_no_person_at_the_table_an_energy_and_reset_shows_a_while_then_play_goes_on(store):
    setup = GameSetup(
        players=[
            {"id": "red", "name": "Ragna", "bot": "greedy"},
            {"id": "blue", "name": "Bjorn", "bot": "greedy"},
        ],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    stage = Stage()
    bots = {"red": Summoner(), "blue": Summoner()}
    turns = Turns(session, stage.announce, bots, think=think_here, leases=Leases(Clock()))
    assert turns.unattended

    # Stop once round 2 has begun to be played: the reset was shown, then play went on.
    async def until_round_two(seconds):
        stage.waited.append(seconds)

    stage.wait = until_round_two
    original = stage.show

    def show(outcome):
        original(outcome)
        if session.state.round == 2 and session.saved.log[-1].reset is None:
            stage.visible = False

    stage.show = show
    asyncio.run(turns.play_bots(stage))
    reset = next(entry for entry in session.saved.log if entry.reset)
    assert stage.waited == [UNATTENDED_RESET_S]
    assert turns.went_on == reset.seq and session.saved.log[-1].seq > reset.seq


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


class Remembering(Summoner):
    """A Summoner that remembers every position it was asked about and what it chose."""

    def __init__(self) -> None:
        super().__init__()
        self.choices: list[tuple[str, Command]] = []

    def choose(self, state) -> Command:
        command = super().choose(state)
        self.choices.append((state.position(), command))
        return command


def chosen_where_recorded(turns, bots) -> bool:
    """Whether every computer command in the log was chosen for the position it was
    recorded in (a choice made for another position never reaches the log)."""
    state = turns.session.saved.game.new_initial_state()
    for entry in turns.session.saved.log:
        bot = bots.get(entry.command.by)
        if bot is not None and (
            (state.position(), entry.command._replace(by=None)) not in bot.choices
        ):
            return False
        state.apply(entry.command)
    return True


def computers_only(store):
    """A duel played by two remembering computers: the controller, its stage, the bots."""
    setup = GameSetup(
        players=[
            {"id": "red", "name": "Ragna", "bot": "greedy"},
            {"id": "blue", "name": "Bjorn", "bot": "greedy"},
        ],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    stage = Stage()
    bots = {"red": Remembering(), "blue": Remembering()}
    turns = Turns(
        session, stage.announce, bots, think=think_here, leases=Leases(Clock()), clock=Clock()
    )
    return turns, stage, bots


def test_the_next_computer_decision_is_made_while_a_command_is_shown(store):
    # Showing a command and working out the next one overlap, and nothing is
    # searched twice: each decision recorded was searched once.
    turns, stage, bots = computers_only(store)
    session = turns.session
    asked_after_showing: list[int] = []

    def asked() -> int:
        return sum(bot.asked for bot in bots.values())

    async def present(player, command, seconds):
        stage.presented.append((player, command, seconds))
        for _ in range(3):
            await asyncio.sleep(0)
        asked_after_showing.append(asked())

    async def stop_at_the_reset(seconds):
        stage.visible = False

    stage.present, stage.wait = present, stop_at_the_reset
    asyncio.run(turns.play_bots(stage))
    played = len(session.saved.log)
    assert played > 3 and session.saved.log[-1].reset is not None
    # While the k-th command was shown, the (k+1)-th was already decided, save the last
    # of the round (the round's end is no position to search ahead from).
    shown = [k for k, seconds in enumerate(pauses(session), start=1) if seconds]
    assert len(shown) >= 2 and 0 in pauses(session)
    assert asked_after_showing == [min(k + 1, played) for k in shown]
    assert asked() == played and chosen_where_recorded(turns, bots)
    # A command pointed out is drawn once, along with those before it done; the round's
    # last is drawn done. Commands not pointed out are not drawn on their own.
    assert stage.shown == [None] * len(shown) + [Outcome(True, session.saved.log[-1].sentence)]


def test_a_decision_made_ahead_for_a_command_undone_meanwhile_is_dropped(store):
    turns, stage, bots = computers_only(store)
    other = GameSession(store, turns.session.id)

    async def present(player, command, seconds):
        stage.presented.append((player, command, seconds))
        await asyncio.sleep(0)
        if len(stage.presented) == 2:
            # Someone takes back the computer's first command while its second is shown: the
            # game's revision is then the one the decision made ahead was meant for.
            other.refresh()
            assert other.undo().ok
            turns.session.refresh()

    async def stop_at_the_reset(seconds):
        stage.visible = False

    stage.present, stage.wait = present, stop_at_the_reset
    asyncio.run(turns.play_bots(stage))
    assert not turns.busy and turns.session.saved.log[-1].reset is not None
    # The undone command's position was decided again; nothing chosen for another position
    # was recorded.
    first = turns.session.saved.log[0].command._replace(by=None)
    assert [command for _, command in bots["red"].choices].count(first) == 2
    assert chosen_where_recorded(turns, bots)


def test_a_failing_computer_is_reported_and_play_stops(store, caplog):
    class Broken:
        def choose(self, state):
            raise RuntimeError("out of ideas")

    turns, stage = against_a_bot(store, Broken())
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    shown = stage.shown[-1]
    # A sentence for the person; the reason in the server's log.
    assert not shown.ok and str(shown.said) == (
        "Bjorn (computer) could not decide, and play has stopped: reload the page to let it "
        "try again."
    )
    assert "out of ideas" in caplog.text
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
    assert turns.undo_depth() == 0 and turns.undo_text(language("fr")) is None
    assert turns.record([Summon(K.WYRM)], "red").ok
    shown = session.saved.revision
    assert turns.record([Summon(K.WYRM)], "blue").ok
    assert turns.undo_depth() == 1 and turns.undo_text(language("en")) == str(
        session.saved.undo_label
    )
    # An undo tapped on a drawing of an older revision is refused: the game moved on.
    assert not turns.undo(shown).ok
    assert turns.undo().ok and len(session.saved.log) == 1


class Attacker:
    """A bot that summons its Wyrm next to Ragna's, attacks when it can, else activates a
    creature, else ends or passes."""

    def choose(self, state) -> Command:
        legal = state.legal_commands()
        if Summon(K.WYRM, "rh2") in legal:
            return Summon(K.WYRM, "rh2")
        for kind in (Attack, Activate):
            found = [c for c in legal if isinstance(c, kind)]
            if found:
                return found[0]
        return next((c for c in legal if isinstance(c, EndActivation)), legal[-1])


def test_a_computers_attack_is_shown_once_played_its_dice_told(store):
    # One drawing per beat: an attack is not pointed out before its dice are rolled (that
    # drawing and the one of its outcome made two), it is drawn played, for its pause.
    turns, stage = against_a_bot(store, Attacker())
    session = turns.session
    assert turns.record([Summon(K.WYRM, "rh1")], "red").ok
    asyncio.run(turns.play_bots(stage))
    for command in (Activate("rh1"), EndActivation()):
        assert turns.record([command], "red").ok
    stage.shown.clear()
    asyncio.run(turns.play_bots(stage))
    attacks = [entry for entry in session.saved.log if isinstance(entry.command, Attack)]
    assert attacks and attacks[0].command.by == "blue"
    assert not any(isinstance(command, Attack) for _, command, _ in stage.presented)
    assert Outcome(True, attacks[0].sentence) in stage.shown
    assert SHOW_EACH in stage.waited
