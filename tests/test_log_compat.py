"""Version 2 table logs recorded by an earlier engine still replay to the same game.

tests/data/table-logs-v2.json holds random table games (2-4 players: summons tapped for later
players, whole-table skips, removals, swaps, Energy and Reset records) as an earlier
engine recorded them, with where each game ended. The engine now passes over a player with
nothing to record in every step (one pass rule); a version 2 log that was valid stays
valid (docs/game-log.md), so each must replay to the same energies, round, winner and board.
"""

import json
from pathlib import Path

import pytest

from companion.boards import resolve_board
from companion.engine import Game
from companion.engine.replay import replay
from models.game_log import GameLog

LOGS = json.loads((Path(__file__).parent / "data" / "table-logs-v2.json").read_text())


@pytest.mark.parametrize("case", LOGS, ids=lambda case: f"{len(case['log']['commands'])}-records")
def test_a_version_2_table_log_replays_to_the_same_end(case):
    log = GameLog.model_validate(case["log"])
    game = Game(log.setup, resolve_board(log.setup.board))
    state = replay(game, log.parsed_commands())
    final = case["final"]
    assert dict(zip(game.players, state.energy, strict=True)) == final["energy"]
    assert (state.round, state.winner_id, state.summoner) == (
        final["round"],
        final["winner"],
        final["summoner"],
    )
    assert state.position() == final["position"]
