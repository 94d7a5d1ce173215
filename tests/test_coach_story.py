"""A review's story is told in decisions: turning points and marks only where a player had a
choice, judged against the best choice the search finds, never a swing the next turn takes
back; a finished game ends at its result and says what decided it; records and rounds are
numbered as the game's log numbers them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import PlayedGame, play
from companion.coach import review
from companion.coach.chances import Chances, PlayerChance
from companion.coach.decisions import bare
from companion.coach.moments import Moment
from companion.coach.story import turning_points
from companion.engine import Game
from companion.engine.replay import replay
from companion.language.render import render
from companion.play.review_view import PlayOnForm, review_view
from models.commands import Correction, Dominate, Removal, Summon
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent


@cache
def trial_game(seed: int = 3) -> tuple[Game, PlayedGame]:
    """As in a trial: a person (Ann, played here at random: decisions worth marking) against
    two computers at the normal level, on the 3-player board."""
    setup = GameSetup(
        players=[
            {"id": "a", "name": "Ann"},
            {"id": "b", "name": "Bob", "bot": "mcts:normal"},
            {"id": "c", "name": "Cy", "bot": "mcts:normal"},
        ],
        board="gathering-isle",
        mode="digital",
    )
    game = Game(setup, shipped_board("gathering-isle"))
    bots = [make_bot("random", seed=seed)] + [
        make_bot("mcts:normal", seed=seed * 10 + s) for s in (1, 2)
    ]
    return game, play(game, bots, SeededDice(seed))


@cache
def trial_review():
    game, played = trial_game()
    return review(game, played.commands, budget=16)


def test_a_trial_like_review_has_no_automatic_record_among_turning_points_or_marks():
    game, played = trial_game()
    told = trial_review()
    records = played.commands
    states = [game.new_initial_state()]
    for record in records:
        states.append(states[-1].clone())
        states[-1].apply(record)

    def decision(index: int) -> bool:
        """Whether record `index` (1-based) had its player choose among others, by the rules."""
        state, record = states[index - 1], records[index - 1]
        if state.current_player is None or len(state.legal_commands()) < 2:
            return False
        free = type(record) is Dominate and record.take and state.round == game.final_round
        return not free

    assert told.marked(), "Ann's random play costs her"
    for moment in told.marked():
        assert decision(moment.index) and moment.choice
        assert moment.cost is not None and moment.cost >= 0.05
    assert told.turning_points
    for point in told.turning_points:
        turn = told.moments[point.start + 1 : point.moment + 1]
        # One player's run of records, at least one of them their decision.
        assert len({moment.player for moment in turn}) == 1
        assert any(decision(moment.index) for moment in turn)
    for moment in told.moments[1:]:
        assert moment.choice == decision(moment.index)
    # The person's own decisions are counted and shown; the computers' are not listed.
    assert told.people == ("a",)
    shown = review_view(told)
    assert len(shown.decisions) == 1
    count = len(told.decisions("a"))
    assert render(shown.decisions[0], "en").startswith(f"Ann: {count} decisions, ")


def test_a_decision_the_search_would_make_costs_nothing():
    game, played = trial_game()
    told = trial_review()
    state = game.new_initial_state()
    from companion.bots.greedy import GreedyBot

    search = GreedyBot(0)
    checked = 0
    for moment, record in zip(told.moments[1:60], played.commands, strict=False):
        if moment.choice and bare(record) in search.best(state, state.legal_commands()):
            assert moment.cost == 0.0 and moment.mark is None
            checked += 1
        state.apply(record)
    assert checked > 0


def test_a_finished_review_ends_at_its_result_and_says_what_decided_it():
    _, played = trial_game()
    told = trial_review()
    end = told.moments[-1]
    winner = played.state.winner_id
    assert end.chances.over and end.chances.chance(winner) == 1.0
    assert told.result is not None
    said = render(told.result, "en")
    assert said.startswith(told.labels[winner])
    if played.state.summoner:
        assert "Summoner" in said
    else:
        assert "most energy" in said
    assert render(review_view(told).result, "fr").startswith(told.labels[winner])


def chances(*shares: float) -> Chances:
    return Chances(tuple(PlayerChance(p, s, s, s) for p, s in zip("ab", shares, strict=True)), 32)


def test_a_swing_the_next_turn_takes_back_is_no_turning_point():
    game = Game(
        GameSetup(players=[{"id": "a"}, {"id": "b"}], board="duel-isle", mode="digital"),
        shipped_board("duel-isle"),
    )
    state = game.new_initial_state()
    commands = []
    for _ in range(2):
        commands.append(state.legal_commands()[0])
        state.apply(commands[-1])
    moments = [
        Moment(0, 1, chances(0.5, 0.5)),
        # Ann's turn moves her to 70%; Bob's takes her back to 52%: a wobble, neither turn
        # turned the game.
        Moment(1, 1, chances(0.7, 0.3), player="a", choice=True, played_in=1, number=1),
        Moment(2, 1, chances(0.52, 0.48), player="b", choice=True, played_in=1, number=2),
    ]
    assert list(turning_points(game, commands, moments)) == []
    # Had Bob's turn left Ann on 66%, Ann's turn would have turned the game.
    kept = [*moments[:2], Moment(2, 1, chances(0.66, 0.34), player="b", choice=True)]
    assert [p.start for p in turning_points(game, commands, kept)] == [0]
    # A run of records with no decision in it (the engine's, or forced) is never a turn.
    forced = [moments[0], Moment(1, 1, chances(0.9, 0.1), player="a", choice=False)]
    assert list(turning_points(game, commands[:1], forced)) == []


def won_at_36_in_round_1() -> tuple[Game, list]:
    """A table game won in round 1: Ann's energy corrected to 33, then the bounty for
    Bob's Wyrm takes her to 36."""
    setup = GameSetup(
        players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}], board="duel-isle"
    )
    game = Game(setup, shipped_board("duel-isle"))
    state = game.new_initial_state()
    records: list = []
    for tap, kind in (
        (Summon("wyrm", by="a"), "wyrm"),
        (Summon("wyrm", by="b"), "wyrm"),
        (Correction("a", 33, "a bonus card"), None),
        (Removal("b", "wyrm", by="a"), None),
    ):
        for record in state.reach(tap, kind):
            state.apply(record)
            records.append(record)
    assert state.is_terminal and state.winner_id == "a" and state.summoner
    return game, records


def test_analyse_of_a_table_game_won_at_36_in_round_1_shows_the_end_and_its_turning_point(
    tmp_path,
):
    game, records = won_at_36_in_round_1()
    path = tmp_path / "won.json"
    path.write_text(json.dumps(GameLog.of(game.setup, records).to_json()), encoding="utf-8")
    shown = subprocess.run(
        [sys.executable, "-m", "companion", "analyse", str(path), "--budget", "32"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    start = re.fullmatch(r"  Round 1: Ann (\d+)% · Bob \d+%", lines[1])
    assert start is not None and 40 <= int(start[1]) <= 60
    assert lines[2] == "  End: Ann 100% · Bob 0%"
    assert lines[3].startswith("  Result: Ann reaches 36 energy in round 1 and wins with ")
    assert f"  - Round 1: Ann removes Bob's Wyrm: Ann {start[1]}% → 100%" in lines


def test_records_and_rounds_are_numbered_as_the_log_numbers_them():
    game, played = trial_game()
    commands = played.commands[:120]
    # A saved game whose records 5 to 9 were undone: its log numbers skip them.
    numbers = [n if n < 5 else n + 5 for n in range(1, len(commands) + 1)]
    told = review(game, commands, budget=8, numbers=numbers)
    for moment in told.moments[1:]:
        assert moment.number == numbers[moment.index - 1]
        assert moment.played_in == replay(game, commands[: moment.index - 1]).round
    shown = review_view(told)
    for line, moment in zip(shown.marks, told.marked(), strict=True):
        said = render(line.text, "en")
        assert said.startswith(f"Round {moment.played_in}, record {moment.number}: ")
    for point in told.turning_points:
        assert point.round == told.moments[point.start + 1].played_in
    # Play on offers its moments in the game's order: a round's start before what follows.
    uptos = [line.upto for line in shown.choices]
    assert uptos == sorted(uptos)
    for line in shown.choices:
        said = render(line.text, "en")
        if said.startswith("Before record"):
            moment = told.moments[line.upto + 1]
            assert said == f"Before record {moment.number} (round {moment.played_in})"


@pytest.mark.parametrize(
    ("bots", "expected"),
    [
        ({"b": "mcts:normal", "c": "mcts:hard"}, {"a": None, "b": "mcts:normal", "c": "mcts:hard"}),
        ({"b": "random"}, {"a": None, "b": "mcts:normal", "c": None}),
    ],
)
def test_play_on_keeps_each_seats_player_unless_changed(bots, expected):
    setup = GameSetup(
        players=[{"id": p, "bot": bots.get(p)} for p in "abc"],
        board="gathering-isle",
        mode="digital",
    )
    form = PlayOnForm.of(setup, (), None)
    assert form.bots == expected
    form.bots["a"] = "mcts:easy"  # changed: the new seat is the one picked
    assert form.bots["a"] == "mcts:easy"
