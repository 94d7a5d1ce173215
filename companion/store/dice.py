"""Where a saved game's dice come from: its secret, the command's place and the command.

A game's secret (32 random bytes in `games.secret`) is never shown, sent or exported, so
nobody foresees a roll from what the app shows. An attack's dice are drawn from the secret,
its place in the game's active line and the whole command but its dice (target and attacker
included): an attack undone and tried again from the same position rolls the same dice (undo
cannot fish for a better roll), and a roll seen on one target says nothing of another's.

An imported game has no secret in its file. Its secret is drawn from the database's own key
(`store_keys`) and the game the file holds (board, players, order, rounds, commands): every
import of one file rolls as the first did (importing copies again and again cannot fish for
a roll), and no import rolls as the game it was exported from, whose secret was random (a
copy cannot preview the original's rolls).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from models.commands import Attack, Command, command_to_json
from models.seeded_dice import SeededDice
from models.setup import GameSetup

SECRET_BYTES = 32
# How dice are drawn: 1 from the secret and the place only (games saved before schema 0006
# keep it); 2 from the whole command too.
FIRST_DICE = 1
DICE = 2
# The name of the database's key for imported games' secrets (schema 0006).
COPIES_KEY = "copies"


def new_secret() -> str:
    """A fresh secret for a game's dice: 32 random bytes in hex."""
    return secrets.token_hex(SECRET_BYTES)


def dice_for(secret: str, index: int, command: Command, version: int = DICE) -> Callable[[], int]:
    """The dice for `command` at `index` of a game's active line, drawn as `version` says;
    seeded only when a die is asked for (most commands roll none)."""
    dice: list[SeededDice] = []

    def roll() -> int:
        if not dice:
            dice.append(SeededDice(_seed(secret, index, command, version)))
        return dice[0]()

    return roll


def _seed(secret: str, index: int, command: Command, version: int) -> int:
    if version == FIRST_DICE:
        said = f"roll:{index}"
    else:
        if type(command) is Attack:
            command = command._replace(attack_roll=None, defence_roll=None)
        said = f"roll:{version}:{index}:{_canonical(command_to_json(command))}"
    digest = hmac.new(secret.encode(), said.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def copy_secret(key: str, setup: GameSetup, commands: Sequence[Command]) -> str:
    """The dice secret of an imported game: the database's `key` over what decides its play
    (names, colours, the board's drawing and how taps were grouped do not)."""
    board = setup.board
    played: dict[str, Any] = {
        "board": board
        if isinstance(board, str)
        else {
            "territories": [[t.id, t.bonus, list(t.locations)] for t in board.territories],
            "paths": [list(path) for path in board.paths],
        },
        "players": [player.id for player in setup.players],
        "turn_order": list(setup.first_turn_order),
        "final_round": setup.final_round,
        "mode": setup.mode.value,
        "start": setup.start,
        "commands": [command_to_json(command) for command in commands],
    }
    return hmac.new(key.encode(), _canonical(played).encode(), hashlib.sha256).hexdigest()


def _canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
