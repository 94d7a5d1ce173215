"""The digital board's coach without a browser: "What would the computer
do?" (the search's command, what it draws on the isle, the chance it keeps, one search at a
time, gone when the position moves on, a late answer dropped, nothing recorded) and the
chance bars behind the device's switch (worked out only while shown, once per position, one
at a time, never while a computer plays)."""

from __future__ import annotations

import asyncio
import threading
from functools import cache

import pytest

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.coach import Estimator
from companion.coach.chances import Chances, PlayerChance
from companion.engine import Game, GameState
from companion.engine.replay import replay
from companion.language import Message
from companion.language.render import render
from companion.play import board_hint
from companion.play.board_chances import ChanceBars, bars_of
from companion.play.board_hint import (
    Hint,
    HintAsk,
    HintMarks,
    coach_hint,
    hint_marks,
    hint_seed,
    work_out_hint,
)
from companion.play.coach_work import CoachWork
from companion.store.store import open_store
from models.commands import Attack, Command, Move, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.seeded_dice import SeededDice
from models.setup import GameSetup

NNBSP = "\u202f"
# A hint's search and playouts, small: these tests are about the plumbing, not the advice.
QUICK = {"bot": "mcts:easy", "budget": 32}


@cache
def duel() -> tuple[Game, tuple[Command, ...]]:
    """A whole digital game on Duel Isle between greedy seats (Ann and Bob)."""
    setup = GameSetup(
        players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
        board="duel-isle",
        mode="digital",
    )
    game = Game(setup, shipped_board("duel-isle"))
    bots = [make_bot("greedy", seed=70 + seat) for seat in range(2)]
    return game, tuple(play(game, bots, SeededDice(7)).commands)


def first_position(kind: type) -> tuple[GameState, Command]:
    """The first position of the duel where a command of `kind` is legal, and that command."""
    game, records = duel()
    state = game.new_initial_state()
    for record in records:
        found = [c for c in state.legal_commands() if type(c) is kind]
        if found:
            return state, found[0]
        state.apply(record)
    raise AssertionError(f"no {kind.__name__} in the game")


class Chosen:
    """A bot that plays a given command (the search's choice is not what is tested)."""

    name = "chosen"
    budget_ms = None

    def __init__(self, command: Command) -> None:
        self.command = command

    def choose(self, state: GameState) -> Command:
        return self.command


# --- the hint ----------------------------------------------------------------------------


def test_the_hint_is_a_legal_command_of_the_search_with_the_chance_it_keeps():
    game, records = duel()
    state = replay(game, records[:3])
    player = state.current_player
    seed = hint_seed("g1", records[:3])
    hint = work_out_hint(state, seed, **QUICK)
    assert hint.player == player
    assert hint.command == make_bot("mcts:easy", seed=seed).choose(state.clone())
    assert hint.command in state.legal_commands()
    assert hint.sentence == state.sentence(hint.command)
    after = state.clone()
    after.apply(hint.command)
    assert hint.keeps == Estimator(seed).chances(after, 32).chance(player)
    # Asked again for the same records: the same hint (the search and the playouts are seeded).
    assert work_out_hint(replay(game, records[:3]), seed, **QUICK) == hint
    assert hint_seed("g1", records[:3]) != hint_seed("g1", records[:4])


def test_an_attacks_chance_counts_both_outcomes_of_the_dice_at_their_odds(monkeypatch):
    state, attack = first_position(Attack)
    monkeypatch.setattr(board_hint, "make_bot", lambda name, seed: Chosen(attack))
    hint = work_out_hint(state, 5, budget=32)
    player = state.current_player
    outcomes = state.chance_outcomes(attack)
    assert len(outcomes) == 2  # success and failure both can happen
    expected = 0.0
    for probability, outcome in outcomes:
        after = state.clone()
        after.apply(outcome)
        expected += probability * Estimator(5).chances(after, 32).chance(player)
    assert hint.keeps == pytest.approx(expected)
    labels = state.game.labels
    said = render(hint.message(labels), "en")
    assert said.endswith("chance to win, the dice counted at their odds.")


def test_a_hint_draws_what_the_engine_says_the_command_is_about():
    state, summon = first_position(Summon)
    assert isinstance(summon, Summon)
    marks = hint_marks(state, summon)
    assert marks == HintMarks(rings=(summon.location,), summons=CreatureKind(summon.kind))
    state, move = first_position(Move)
    assert isinstance(move, Move)
    marks = hint_marks(state, move)
    way = state.move_path(move.to)
    assert marks.arrow == way and marks.rings == (move.to,)
    assert way[0] == state.places(move)[0] and way[-1] == move.to
    state, attack = first_position(Attack)
    attacker, target = state.places(attack)
    assert hint_marks(state, attack) == HintMarks(rings=(target,), arrow=(attacker, target))


def test_the_hint_says_the_move_and_the_chance_in_english_and_french():
    state, summon = first_position(Summon)
    player = state.current_player
    assert player is not None
    hint = Hint(player, summon, state.sentence(summon), hint_marks(state, summon), 0.41)
    labels = state.game.labels
    move_en = render(state.sentence(summon), "en")
    assert render(hint.message(labels), "en") == (
        f"The computer would play: {move_en}. {labels[player]} would keep a 41% chance to win."
    )
    move_fr = render(state.sentence(summon), "fr")
    assert render(hint.message(labels), "fr") == (
        f"L'ordinateur jouerait{NNBSP}: «{NNBSP}{move_fr}{NNBSP}». {labels[player]} garderait "
        f"41{NNBSP}% de chances de gagner."
    )


# --- one search at a time, gone when the position moves on -------------------------------


def some_hint() -> Hint:
    state, summon = first_position(Summon)
    player = state.current_player
    assert player is not None
    return Hint(player, summon, state.sentence(summon), hint_marks(state, summon), 0.5)


def test_a_second_tap_while_thinking_starts_no_second_search_and_the_screen_says_thinking():
    asked = HintAsk()
    labels = {"a": "Ann", "b": "Bob"}
    assert asked.panel(3, True, labels).enabled and not asked.thinking
    assert asked.ask(3)
    assert not asked.ask(3)
    panel = asked.panel(3, True, labels)
    assert panel.thinking and not panel.enabled
    assert panel.said == Message("hint.thinking")
    assert asked.answered(3, some_hint())
    assert asked.shown(3) == some_hint()
    panel = asked.panel(3, True, labels)
    assert not panel.thinking and panel.button == Message("hint.hide")
    assert panel.said == some_hint().message(labels)
    # A tap on the control while its hint shows hides it; the next asks again.
    assert not asked.ask(3)
    assert asked.shown(3) is None
    assert asked.ask(3)


def test_the_hint_goes_when_the_position_moves_on_and_a_late_answer_is_dropped():
    asked = HintAsk()
    labels = {"a": "Ann", "b": "Bob"}
    assert asked.ask(7)
    assert asked.answered(7, some_hint())
    assert asked.moved(8)  # a tap recorded, another device's record, an undo
    assert asked.shown(8) is None and asked.shown(7) is None
    assert not asked.moved(8)
    # Asked again, then the game moves on before the search ends: its answer is not drawn.
    assert asked.ask(8)
    asked.moved(9)
    assert not asked.answered(8, some_hint())
    assert asked.shown(9) is None and asked.shown(8) is None
    assert not asked.thinking and asked.panel(9, True, labels).enabled
    # Never offered when it is not a person's decision here.
    assert not asked.panel(9, False, labels).offered


def test_a_failed_search_is_said_and_can_be_asked_again():
    asked = HintAsk()
    assert asked.ask(1)
    reason = Message("hint.failed", error="boom")
    assert asked.failed(1, reason)
    panel = asked.panel(1, True, {})
    assert panel.said == reason and panel.enabled and not panel.thinking
    assert asked.ask(1)
    assert not asked.failed(2, reason)  # for a position left behind: nothing said


def test_the_coach_searches_once_off_the_pages_thread_and_records_nothing(tmp_path, monkeypatch):
    game, records = duel()
    with open_store(str(tmp_path / "games.db")) as store:
        saved = store.import_log(GameLog.of(game.setup, records[:5]))
        threads: list[str] = []
        started = threading.Event()
        release = threading.Event()

        def slow(state: GameState, seed: int) -> Hint:
            threads.append(threading.current_thread().name)
            started.set()
            release.wait(10)
            return work_out_hint(state, seed, **QUICK)

        monkeypatch.setattr(board_hint, "work_out_hint", slow)
        # In a thread, so the patched search is the one counted (the server's is a process).
        work = CoachWork(processes=False)
        kept = [entry.command for entry in saved.log]

        async def ask_twice() -> list[Hint]:
            first = asyncio.ensure_future(coach_hint(work, saved.id, saved.game, kept))
            await asyncio.to_thread(started.wait, 10)
            second = asyncio.ensure_future(coach_hint(work, saved.id, saved.game, list(kept)))
            release.set()
            return list(await asyncio.gather(first, second))

        first, second = asyncio.run(ask_twice())
        work.close()
        assert first == second
        assert len(threads) == 1 and threads[0].startswith("coach")
        assert first.command in replay(game, records[:5]).legal_commands()
        again = store.load(saved.id)
        assert again.revision == saved.revision
        assert [e.command for e in again.log] == kept


# --- the chance bars -----------------------------------------------------------------------


def chances(*shares: float) -> Chances:
    players = ("a", "b")
    return Chances(
        tuple(PlayerChance(p, s, s, s) for p, s in zip(players, shares, strict=True)), 32
    )


def test_the_bars_are_off_until_switched_on_and_work_only_while_shown():
    bars = ChanceBars()
    labels = {"a": "Ann", "b": "Bob"}
    assert not bars.want(1, resting=True)
    panel = bars.panel(1, ("a", "b"), labels)
    assert not panel.on and panel.bars == () and panel.note == Message("coachui.line.hidden")
    bars.switch(True)
    assert bars.want(1, resting=True)
    panel = bars.panel(1, ("a", "b"), labels)
    assert panel.on and panel.bars == () and panel.working
    assert panel.note == Message("coachui.line.computing")
    bars.answered(1, chances(0.41, 0.59))
    assert not bars.want(1, resting=True)  # once per position
    panel = bars.panel(1, ("a", "b"), labels)
    assert not panel.stale and panel.note is None
    assert [(bar.name, render(bar.percent, "en")) for bar in panel.bars] == [
        ("Ann", "41%"),
        ("Bob", "59%"),
    ]
    bars.switch(False)
    assert not bars.want(2, resting=True)


def test_the_bars_work_one_position_at_a_time_and_never_while_a_computer_plays():
    bars = ChanceBars(on=True)
    labels = {"a": "Ann", "b": "Bob"}
    assert bars.want(1, resting=True)
    assert not bars.want(2, resting=True)  # one at a time: 2 waits for 1
    bars.answered(1, chances(0.3, 0.7))
    # Meanwhile a computer played on to 3: the bars keep the last position's, and say they
    # catch up when its turn ends.
    assert not bars.want(3, resting=False)
    panel = bars.panel(3, ("a", "b"), labels)
    assert panel.stale and not panel.working and panel.note == Message("hint.bars_later")
    assert [bar.share for bar in panel.bars] == [0.3, 0.7]
    assert bars.want(3, resting=True)
    panel = bars.panel(3, ("a", "b"), labels)
    assert panel.stale and panel.working and panel.note == Message("coachui.line.computing")
    bars.answered(3, chances(0.6, 0.4))
    assert not bars.panel(3, ("a", "b"), labels).stale


def test_each_bar_names_its_player_and_says_its_percent_in_words():
    bars = bars_of(chances(0.41, 0.59), ("b", "a"), {"a": "Ann", "b": "Bob"})
    assert [bar.player for bar in bars] == ["b", "a"]
    assert render(bars[1].label, "en") == "Ann: 41% chance to win"
    assert render(bars[1].label, "fr") == f"Ann{NNBSP}: 41{NNBSP}% de chances de gagner"
    assert bars[0].share == 0.59


def test_a_game_the_coach_cannot_judge_says_why_instead_of_bars():
    bars = ChanceBars(on=True)
    assert bars.want(1, resting=True)
    reason = Message("coachui.reason", reason=Message("hint.thinking"))
    bars.failed(1, reason)
    assert not bars.want(2, resting=True)
    panel = bars.panel(2, ("a", "b"), {"a": "Ann", "b": "Bob"})
    assert panel.bars == () and panel.note == reason


# --- drawn on the isle (the canvas's shapes and reader boxes, without a browser) ----------


def hint_colours(isle) -> list[object]:
    from companion.app.board_shapes import HINT_COLOUR

    return [
        shape
        for shape in isle.canvas.shapes
        if getattr(shape, "paint", None) and shape.paint.color == HINT_COLOUR
    ]


def test_the_isle_draws_the_hint_over_its_spaces_and_names_them_for_screen_readers():
    import flet as ft
    import flet.canvas as cv

    from companion.app.board_view import IsleCanvas
    from companion.app.theme import colour_of

    state, attack = first_position(Attack)
    game = state.game
    colours = {player: colour_of(player) for player in game.players}
    isle = IsleCanvas(game.board, colours, lambda _: None, 360, lambda width: width)
    isle.show(state.creatures(), {}, game.labels)
    assert hint_colours(isle) == []
    marks = hint_marks(state, attack)
    isle.show(state.creatures(), {}, game.labels, hint=(marks, "The computer would play: x."))
    drawn = hint_colours(isle)
    assert any(isinstance(shape, cv.Path) for shape in drawn)  # the arrow and its head
    rings = [shape for shape in drawn if isinstance(shape, cv.Circle)]
    attacker, target = marks.arrow
    assert {(ring.x, ring.y) for ring in rings} == {isle.layout.points[target]}
    assert isle.semantics.label.endswith(" The computer would play: x.")
    boxes = {
        box.content.identifier: (box.left, box.top)
        for box in isle.stack.controls
        if isinstance(box, ft.Container)
    }
    for location in (attacker, target):
        assert boxes[f"hint-{location}"] == boxes[f"space-{location}"]
    isle.show(state.creatures(), {}, game.labels)
    assert hint_colours(isle) == []
    assert not any(name.startswith("hint-") for name in boxes_of(isle))


def boxes_of(isle) -> list[str]:
    import flet as ft

    return [box.content.identifier for box in isle.stack.controls if isinstance(box, ft.Container)]


def test_a_hinted_summon_draws_its_creature_on_the_space_and_moves_the_number_to_a_tag():
    import flet.canvas as cv

    from companion.app.board_view import IsleCanvas
    from companion.app.theme import CREATURE_MARK, colour_of

    state, summon = first_position(Summon)
    assert isinstance(summon, Summon)
    game = state.game
    colours = {player: colour_of(player) for player in game.players}
    isle = IsleCanvas(game.board, colours, lambda _: None, 360, lambda width: width)
    isle.show(state.creatures(), {}, game.labels, hint=(hint_marks(state, summon), "x"))
    letters = [
        shape
        for shape in isle.canvas.shapes
        if isinstance(shape, cv.Text) and shape.value == CREATURE_MARK[CreatureKind(summon.kind)]
    ]
    assert [(text.x, text.y) for text in letters] == [isle.layout.points[summon.location]]
    number = str(game.board.location_numbers[summon.location])
    x, y = isle.layout.points[summon.location]
    placed = [
        (shape.x, shape.y)
        for shape in isle.canvas.shapes
        if isinstance(shape, cv.Text) and shape.value == number
    ]
    assert (x, y) not in placed  # on a tag at the rim, not under the creature drawn
