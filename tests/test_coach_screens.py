"""The coach on the screens, without a browser: the device's
chance switch, the table's chance line, the result's rounds, the review's view-model, the
coach's work off the pages' thread, and playing on from the review's moments."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from functools import cache

import pytest

from companion.boards import resolve_board, shipped_board
from companion.bots import make_bot
from companion.bots.playout import PlayedGame, play
from companion.coach import CoachError, Estimator, review, win_chances
from companion.coach.review import chances_message
from companion.coach.tabled import as_table
from companion.engine import Game
from companion.engine.replay import replay
from companion.language import Message
from companion.language.render import render
from companion.play.coach_view import (
    chance_line,
    chances_on,
    kept_value,
    line_text,
    round_rows,
)
from companion.play.coach_work import CoachWork, chances_after, last_reset, records_key
from companion.play.review_view import PlayOnForm, review_view, round_choices
from companion.play.service import Service
from companion.play.visit import Visit
from companion.store.history import energy_by_round
from companion.store.store import open_store
from models.commands import EnergyAndReset
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

NAMES = (("a", "Ann"), ("b", "Bob"), ("c", "Cy"))
NNBSP = "\u202f"


@cache
def greedy_game(players: int, seed: int = 7) -> tuple[Game, PlayedGame]:
    board = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": i, "name": n} for i, n in NAMES[:players]], board=board, mode="digital"
    )
    game = Game(setup, shipped_board(board))
    bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
    return game, play(game, bots, SeededDice(seed))


@cache
def table_game(players: int = 3):
    game, played = greedy_game(players)
    return as_table(game, played.commands)


def resets(records) -> list[int]:
    return [n + 1 for n, record in enumerate(records) if isinstance(record, EnergyAndReset)]


@pytest.fixture
def store(tmp_path):
    with open_store(str(tmp_path / "games.db")) as opened:
        yield opened


# --- the device's switch and the table's line --------------------------------------------


def test_the_chance_switch_is_off_until_a_device_turns_it_on():
    # Some tables want no spoilers.
    assert not chances_on(None)
    assert not chances_on("")
    assert not chances_on("yes please")
    assert not chances_on(kept_value(False))
    assert chances_on(kept_value(True))


def test_the_chance_line_shows_the_newest_energy_and_reset_and_nothing_before_the_first():
    table, records = table_game()
    first, second = resets(records)[:2]
    assert chance_line(records[: first - 1]).upto is None
    assert render(line_text(chance_line([]), None, table.labels), "en") == (
        "They show after each Energy and Reset."
    )
    line = chance_line(records[: second + 3])
    assert line.upto == second == last_reset(records[: second + 3])
    assert render(line.heading, "en") == "Win chances after round 2's Energy and Reset"
    assert render(line_text(line, None, table.labels), "en") == "Working out the win chances…"


def test_the_chance_line_reads_like_ann_41_bob_33_cy_26_in_both_languages():
    table, records = table_game()
    chances = win_chances(replay(table, records[: resets(records)[0]]), budget=64)
    said = chances_message(chances, table.labels)
    english = render(said, "en")
    shares = [round(line.chance * 100) for line in chances.players]
    assert english == f"Ann {shares[0]}% · Bob {shares[1]}% · Cy {shares[2]}%"
    french = render(said, "fr")
    assert french == f"Ann {shares[0]}{NNBSP}% · Bob {shares[1]}{NNBSP}% · Cy {shares[2]}{NNBSP}%"


# --- the coach's work --------------------------------------------------------------------


def test_the_coachs_work_is_done_in_a_process_of_its_own_which_is_replaced_if_it_dies():
    table, records = table_game(2)
    moment = records[: resets(records)[0]]
    work = CoachWork()
    try:
        elsewhere = work.submit("pid", os.getpid).result(timeout=60)
        assert elsewhere != os.getpid()
        assert asyncio.run(work.chances("g1", table, moment)) == chances_after(table, moment)
        os.kill(elsewhere, signal.SIGKILL)
        time.sleep(0.5)
        assert asyncio.run(work.chances("g1", table, records)) == chances_after(table, records)
    finally:
        work.close()


def test_the_coach_works_off_the_callers_thread_once_per_moment_and_keeps_it_out_of_the_log():
    table, records = table_game(2)
    moment = records[: resets(records)[0]]
    # In a thread, so the patched estimator is the one counted (the server's is a process).
    work = CoachWork(processes=False)
    threads: list[str] = []
    real = Estimator.chances

    def counted(self, state, budget=400):
        threads.append(threading.current_thread().name)
        return real(self, state, budget)

    async def ask_twice():
        return await asyncio.gather(
            work.chances("g1", table, moment), work.chances("g1", table, list(moment))
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Estimator, "chances", counted)
        first, second = asyncio.run(ask_twice())
    assert first == second == chances_after(table, moment)
    assert len(threads) == 1 and threads[0].startswith("coach")
    assert threads[0] != threading.current_thread().name
    assert work.known("chances/" + records_key("g1", moment)) == first
    # Another moment (or another game) is another key.
    assert records_key("g1", moment) != records_key("g1", records[: resets(records)[1]])
    assert records_key("g1", moment) != records_key("g2", moment)
    work.close()


def test_a_board_without_paths_gets_a_sentence_not_chances_and_is_asked_again():
    board = resolve_board(
        {
            "territories": [
                {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
                {"id": "south", "bonus": 1, "locations": ["s1", "s2"]},
            ]
        }
    )
    table = Game(GameSetup(players=[{"id": "a"}, {"id": "b"}], board=board), board)
    work = CoachWork()
    for _ in range(2):  # a refusal is not kept as a result
        with pytest.raises(CoachError) as refused:
            asyncio.run(work.chances("g", table, []))
        said = render(Message("coachui.reason", reason=refused.value.message), "en")
        assert said.startswith("No win chances: ") and said.endswith(".")
    assert work.known("chances/" + records_key("g", [])) is None
    work.close()


def test_the_service_gives_every_page_one_coach(store):
    service = Service(store)
    assert Visit(service).service.coach is service.coach


# --- the result's rounds -----------------------------------------------------------------


def test_the_result_shows_each_rounds_energy_beside_the_chance_from_there():
    table, records = table_game()
    told = review(table, records, budget=32)
    energies = energy_by_round(table, records)
    final = replay(table, records)
    rows = round_rows(table.players, energies, told, win_chances(final))
    rounds = len(energies["a"])
    assert len(rows) == rounds + 1
    assert render(rows[0].heading, "en") == "Start"
    assert [cell.energy for cell in rows[0].cells] == [5, 5, 5]
    assert render(rows[2].heading, "fr") == "Après la manche 2"
    assert [cell.energy for cell in rows[2].cells] == [energies[p][1] for p in table.players]
    # Row r holds the chance after round r's Energy and Reset: the review's round starts.
    after_two = told.by_round()[2].chances
    assert [render(c.chance, "en") for c in rows[2].cells if c.chance] == [
        f"{round(after_two.chance(p) * 100)}%" for p in table.players
    ]
    # The last row is the result: the winner 100%.
    winner = final.winner_id
    last = {cell.player: render(cell.chance, "en") for cell in rows[-1].cells if cell.chance}
    assert last[winner] == "100%" and set(last.values()) == {"100%", "0%"}
    # Chances not asked for: energies only.
    assert all(
        cell.chance is None
        for row in round_rows(table.players, energies, None)
        for cell in row.cells
    )


# --- the review's view-model -------------------------------------------------------------


def test_a_table_review_tells_its_turning_points_and_plays_on_from_the_round_before():
    table, records = table_game()
    told = review(table, records, budget=32)
    shown = review_view(told)
    assert not shown.digital and not shown.marks
    assert render(shown.marks_note, "en").startswith("At the table, the records between")
    assert render(shown.rounds[0].text, "en").startswith("Round 1: Ann ")
    assert render(shown.rounds[-1].text, "fr").startswith("Fin\u202f: Ann ")
    assert len(shown.turning) == len(told.turning_points) > 0
    for line, point in zip(shown.turning, told.turning_points, strict=True):
        assert render(line.text, "en") == render(point.message(told.labels), "en")
        # From just before the turning point: the start of the round that turned.
        assert line.upto == told.moments[point.start].index
        assert line.upto in {0, *resets(records)}
    # Every round start can be played on from, but not the finished game's end.
    assert [line.upto for line in shown.choices] == [0, *resets(records)[:-1]]
    assert render(shown.choices[2].text, "en") == "Start of round 3"
    assert render(shown.choices[2].text, "fr") == "Début de la manche 3"


@cache
def mixed_game(seed: int = 7) -> tuple[Game, PlayedGame]:
    """A 2-player game where Ann plays at random (decisions worth marking) against greedy."""
    game, _ = greedy_game(2)
    bots = [make_bot("random", seed=seed), make_bot("greedy", seed=seed + 1)]
    return game, play(game, bots, SeededDice(seed))


def test_a_digital_review_marks_decisions_by_what_they_cost_with_a_sign_and_a_word():
    game, played = mixed_game()
    told = review(game, played.commands, budget=32)
    shown = review_view(told)
    assert shown.digital
    marked = told.marked()
    assert len(shown.marks) == len(marked) > 0
    signs = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for line, moment in zip(shown.marks, marked, strict=True):
        assert line.sign == signs[moment.mark.value]
        assert line.upto == moment.index - 1
        assert moment.choice and moment.player == "a"  # greedy plays what the search finds
        text = render(line.text, "en")
        assert text.startswith(f"Round {moment.played_in}, record {moment.number}: ")
        assert (
            render(line.cost, "en")
            == f"{told.labels[moment.player]} \u2212{round(moment.cost * 100)}%"
        )
        said = render(Message("coachui.review.mark", sign=line.sign, mark=line.mark), "fr")
        assert said.startswith(line.sign + " Un")
        # Each costly record can be played on from just before it.
        assert line.upto in {choice.upto for choice in shown.choices}
    assert shown.marks_note is None


def test_the_results_play_on_choices_are_the_round_starts_without_a_review():
    table, records = table_game()
    assert [line.upto for line in round_choices(table, records)] == [0, *resets(records)[:-1]]


# --- playing on --------------------------------------------------------------------------


def test_play_on_from_a_table_games_round_3_opens_a_digital_game_and_keeps_the_original(store):
    table, records = table_game()
    original = store.import_log(GameLog.of(table.setup, records))
    form = PlayOnForm(table.players, tuple(round_choices(table, records)))
    assert form.bots == {"a": None, "b": None, "c": None}
    form.upto = resets(records)[1]
    form.bots["c"] = "mcts:easy"
    new = form.start(store, original.id)
    assert not isinstance(new, Message)
    assert new.id != original.id and new.setup.mode is Mode.DIGITAL
    assert new.state.round == 3
    assert [p.bot for p in new.setup.players] == [None, None, "mcts:easy"]
    assert store.load(original.id).log == original.log


def test_play_on_says_why_not_in_one_sentence(store):
    table, records = table_game()
    original = store.import_log(GameLog.of(table.setup, records))
    mid_round = resets(records)[0] + 2  # a summon recorded: the board is not known
    refused = PlayOnForm(table.players, (), mid_round).start(store, original.id)
    assert isinstance(refused, Message)
    assert render(refused, "en").startswith("No new game: no win chances in round 2 yet")
    assert render(refused, "fr").startswith("Pas de nouvelle partie\u202f: ")
    assert render(PlayOnForm(table.players, ()).start(store, original.id), "en") == (
        "Pick a moment to play on from."
    )
    assert len(store.games()) == 1


def test_the_review_has_an_address_of_its_own(store):
    table, records = table_game()
    saved = store.import_log(GameLog.of(table.setup, records))
    route = Visit(Service(store)).route(["game", saved.id, "review"])
    assert (route.screen, route.game_id) == ("review", saved.id)


def test_a_game_in_play_is_reviewed_up_to_now_and_every_moment_can_be_played_on_from():
    game, played = greedy_game(2)
    now = len(played.commands) // 2
    state = replay(game, played.commands[:now])
    told = review(game, played.commands[:now], budget=32)
    assert told.moments[-1].index not in {m.index for m in told.round_starts()}
    shown = review_view(told)
    assert render(shown.rounds[-1].text, "en").startswith(f"Now (round {state.round}): Ann ")
    assert render(shown.rounds[-1].text, "fr").startswith(
        f"Maintenant (manche {state.round})\u202f: Ann "
    )
    assert all(0 <= line.upto <= now for line in shown.choices)
    assert [render(line.text, "en") for line in shown.choices][:2] == [
        "Start of round 1",
        "Start of round 2",
    ]
