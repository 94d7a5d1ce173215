"""A game has the size of a game (models/game_size.py): the rules table bounds the records a
round can hold, a log longer than its game's bound is refused at import, a game in play
takes no record past it, and a game log file larger than the largest such log is not read.
Each refusal is one sentence, in English and in French.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from store_support import BACKENDS, DUEL, database_url

from companion.boards import resolve_board
from companion.engine import Game
from companion.engine.dice import with_rolls
from companion.language.render import language
from companion.play.home import import_log_file
from companion.play.session import GameSession
from companion.store.store import open_store
from models.board import MAX_ID_CHARS, MAX_LOCATIONS, MAX_PATHS, MAX_TERRITORIES
from models.game_log import MAX_LOG_BYTES, GameLog
from models.game_size import CORRECTIONS_PER_ROUND, most_by_player_and_round, most_records
from models.seeded_dice import SeededDice
from models.setup import GameSetup


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    for url in database_url(request.param, tmp_path):
        with open_store(url) as opened:
            yield opened


def test_the_bound_is_read_from_the_rules_table():
    # Rulebook: 1 Wyrm, 3 Trolls, 9 Sprites a player (13 creatures, 20 actions: Wyrm 2, Troll
    # 3, Sprite 1); ruling 8, a swap costs 1 energy, energy tops at 35 on the track; ruling 7,
    # a Wyrm's bounty is 3. A player's round: 26 summons (or late ones), 6 turns ended, 46
    # activations with their actions and ends, 40 removals (or late ones), 41 swaps, 13
    # bonuses, and 10 corrections.
    assert most_by_player_and_round() == 26 + 6 + 46 + 40 + 41 + 13 + CORRECTIONS_PER_ROUND
    assert [most_records(2, 6), most_records(3, 7), most_records(4, 6), most_records(4, 7)] == [
        2286,
        3997,
        4566,
        5327,
    ]


@pytest.mark.parametrize(("board", "players"), [("duel-isle", 2), ("gathering-isle", 4)])
def test_games_played_to_be_as_long_as_they_can_stay_far_below_the_bound(board, players):
    # Computers that pass only when they must and swap their Wyrm whenever they may.
    rng = random.Random(7)
    rounds = 7 if players > 2 else 6
    longest = 0
    for seed in range(4):
        ids = ["red", "blue", "green", "yellow"][:players]
        setup = GameSetup(
            players=[{"id": p} for p in ids], board=board, mode="digital", final_round=rounds
        )
        state = Game(setup, resolve_board(board)).new_initial_state()
        dice, count = SeededDice(seed), 0
        while not state.is_terminal:
            options = state.legal_commands()
            busy = [c for c in options if type(c).__name__ not in ("Pass", "EndActivation")]
            swaps = [c for c in busy if type(c).__name__ == "Swap"]
            chosen = rng.choice(swaps or busy or options)
            state.apply(with_rolls(state, chosen, dice))
            count += 1
        longest = max(longest, count)
    assert longest < most_records(players, rounds) / 4


def long_log(count: int) -> bytes:
    """A Duel Isle log of `count` passes, as a file's bytes."""
    data = {"format": "summoners-isle-game", "version": 2, "setup": DUEL.model_dump(mode="json")}
    data["commands"] = [{"type": "pass", "by": "red"}] * count
    return json.dumps(data).encode()


def test_a_log_longer_than_its_game_can_be_is_refused_in_a_sentence(store):
    data = long_log(most_records(2, 6) + 1)
    saved, said = import_log_file(store, data)
    assert saved is None
    assert said == (
        "Not imported: in this game log, commands: a game of 2 players and 6 rounds holds at "
        "most 2,286 records; this log has 2,287."
    )
    _, dit = import_log_file(store, data, language("fr"))
    assert "une partie de 2 joueurs en 6 manches compte au plus 2\u202f286" in dit, dit
    assert store.games() == []


def test_a_game_in_play_takes_no_record_past_its_bound(store, monkeypatch):
    import companion.store.writes as writes

    monkeypatch.setattr(writes, "most_records", lambda players, rounds: 2)
    saved = store.new_game(DUEL)
    session = GameSession(store, saved.id)
    for _ in range(2):
        assert session.do(session.state.legal_commands()[0]).ok
    refused = session.do(session.state.legal_commands()[0])
    assert not refused.ok
    assert str(refused.said) == (
        "This game holds 2 records, the most a game of its players and rounds can: "
        "nothing more can be recorded."
    )
    assert language("fr").render(refused.said).startswith("Cette partie compte 2 enregistrements")
    assert len(store.load(saved.id).log) == 2


def largest_log() -> dict:
    """The largest log the bound allows: the largest board, every id, name and reason at its
    longest (a correction's reason in 4-byte characters), 4 players, 7 rounds."""
    width = MAX_ID_CHARS - 6
    places = [f"{'l' * width}{n:06d}" for n in range(MAX_LOCATIONS)]
    per = MAX_LOCATIONS // MAX_TERRITORIES
    board = {
        "id": "my-" + "b" * (MAX_ID_CHARS - 3),
        "name": "B" * 100,
        "description": "D" * 1000,
        "territories": [
            {
                "id": f"{'t' * width}{n:06d}",
                "name": "T" * 100,
                "bonus": 3,
                "locations": places[n * per : (n + 1) * per],
            }
            for n in range(MAX_TERRITORIES)
        ],
        "locations": [
            {"id": place, "x": (n % 32) * 3.1234567891, "y": (n // 32) * 6.1234567891}
            for n, place in enumerate(places)
        ],
        "paths": [
            [places[n], places[(n + step) % MAX_LOCATIONS]]
            for step in range(1, MAX_PATHS // MAX_LOCATIONS + 1)
            for n in range(MAX_LOCATIONS)
        ],
    }
    players = [f"{'p' * 23}{n}" for n in range(4)]
    setup = {
        "players": [
            {"id": p, "name": f"{'N' * 23}{n}", "colour": f"{'c' * 23}{n}"}
            for n, p in enumerate(players)
        ],
        "board": board,
        "final_round": 7,
    }
    most = most_records(4, 7)
    corrections = 7 * 4 * CORRECTIONS_PER_ROUND
    commands = [
        {"type": "correction", "player": players[0], "delta": -35, "reason": "\U0001f600" * 200}
    ] * corrections + [
        {
            "type": "attack",
            "target": places[0],
            "attack_roll": 6,
            "defence_roll": 6,
            "by": players[1],
        }
    ] * (most - corrections)
    return {"format": "summoners-isle-game", "version": 2, "setup": setup, "commands": commands}


def test_the_largest_log_the_bound_allows_fits_the_files_size_and_a_larger_file_is_not_read(
    store,
):
    data = largest_log()
    GameLog.model_validate(data)  # a board and a log the models accept
    written = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
    assert 2 * 1024 * 1024 < len(written) < MAX_LOG_BYTES
    _, said = import_log_file(store, b" " * (MAX_LOG_BYTES + 1))
    assert said == "Not imported: the file is larger than 3 MiB."
    _, dit = import_log_file(store, b" " * (MAX_LOG_BYTES + 1), language("fr"))
    assert dit == "Non importé\u202f: le fichier dépasse 3\u202fMio."


def test_game_import_says_a_file_too_large_or_too_long_in_one_line(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_LOG_BYTES + 1))
    env = {"SUMMONERS_ISLE_DB": str(tmp_path / "games.sqlite3")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", "game", "import", str(big)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert (done.returncode, done.stderr) == (2, f"error: {big} is larger than 3 MiB\n")
    long = tmp_path / "long.json"
    long.write_bytes(long_log(2287))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "game", "import", str(long)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "holds at most 2,286 records; this log has 2,287" in done.stderr
