"""A position as one line of text that prints and parses back (like chess's FEN).

Tests and bug reports write a position directly instead of replaying a game to reach it or
setting the engine's fields by hand. The text is relative to a `Game` (its players and its
board), as FEN is to the chessboard; it holds everything a decision depends on. What it
leaves out is history: the last Energy and Reset's tally (`last_tally`) is a record of
what happened, not part of the position, and comes back empty.

Eleven fields, separated by single spaces (docs/engine.md, "Position text"):

    board round phase order energy creatures active pending declined removals result

- board: the isle's locations in board order; a digit run counts empty locations, a
  creature is its seat's letter (a-d, in setup order) and its kind's letter, upper case
  face up and lower case face down: `3aWbt12`.
- round: `2/6`, this round of the final one.
- phase: the phase, its step index and the turn within the order: `actions:1:0`.
- order: the seats' letters in turn order: `ba`.
- energy: each seat's energy in setup order: `5,3`; while domination choices wait in a
  digital Energy and Reset, followed by `@` and the energies the phase began with:
  `9,3@5,3`.
- creatures: per seat in setup order, four counts by kind (Wyrm, Troll, Sprite) for
  reserve/on board/returning/ready: `035/100/000/100,024/011/000/011`.
- active: the active creature's location index and actions left, or `-` and actions left:
  `12:2`, `-:0`.
- pending, declined: domination bonuses to decide and declined, as seat letter and
  territory index, or `-`: `a3,b5`.
- removals: table removals recorded by the acting player in this step.
- result: the winner's seat letter or `-`, then `!` when the game ended by a Summoner.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from companion.engine.constants import KINDS, OWNED, Phase, Token
from models.rules import KIND_ORDER
from models.setup import Mode

if TYPE_CHECKING:
    from companion.engine.game import Game
    from companion.engine.state import GameState

FIELDS = (
    "board",
    "round",
    "phase",
    "order",
    "energy",
    "creatures",
    "active",
    "pending",
    "declined",
    "removals",
    "result",
)
SEATS = "abcd"
KIND_LETTERS = "".join(kind.value[0].upper() for kind in KIND_ORDER)
_TOKEN = re.compile(r"(\d+)|([a-d])([A-Za-z])")
_COUNTS = re.compile(rf"^\d{{{KINDS}}}(/\d{{{KINDS}}}){{3}}$")


class PositionError(ValueError):
    """A position text that does not describe a position of this game; the message says why."""


def position_text(state: GameState) -> str:
    """The state as one line of position text (see the module's docstring)."""
    game = state.game
    territories = game.isle.territory_index
    pending = ",".join(f"{SEATS[seat]}{territory}" for seat, territory in state.pending)
    declined = ",".join(
        f"{SEATS[game.seat[player]]}{territories[territory]}"
        for player, refused in state.declined.items()
        for territory in refused
    )
    result = "-" if state.winner is None else SEATS[state.winner]
    fields = (
        _board_text(state),
        f"{state.round}/{game.final_round}",
        f"{state.phase.value}:{state.step}:{state.turn}",
        "".join(SEATS[seat] for seat in state.turn_order),
        _energy_text(state),
        ",".join(_counts_text(state, seat) for seat in range(len(game.players))),
        f"{'-' if state.active is None else state.active}:{state.actions_left}",
        pending or "-",
        declined or "-",
        str(state.step_removals),
        result + ("!" if state.summoner else ""),
    )
    return " ".join(fields)


def _energy_text(state: GameState) -> str:
    now = ",".join(str(energy) for energy in state.energy)
    if state.reset_from is None:
        return now
    return now + "@" + ",".join(str(energy) for energy in state.reset_from)


def _board_text(state: GameState) -> str:
    parts: list[str] = []
    empty = 0
    for token, face_down in zip(state.occupant, state.face_down, strict=True):
        if token is None:
            empty += 1
            continue
        if empty:
            parts.append(str(empty))
            empty = 0
        letter = KIND_LETTERS[token[1]]
        parts.append(SEATS[token[0]] + (letter.lower() if face_down else letter))
    if empty or not parts:
        parts.append(str(empty))
    return "".join(parts)


def _counts_text(state: GameState, seat: int) -> str:
    rows = (state.reserve, state.on_board, state.returning, state.ready)
    return "/".join("".join(str(count) for count in row[seat]) for row in rows)


def parse_position(game: Game, text: str) -> GameState:
    """The state a position text describes in this game; PositionError says what is wrong."""
    from companion.engine.state import GameState

    parts = text.split()
    if len(parts) != len(FIELDS):
        raise PositionError(
            f"a position has {len(FIELDS)} fields ({' '.join(FIELDS)}), this one {len(parts)}"
        )
    field = dict(zip(FIELDS, parts, strict=True))
    seats = len(game.players)
    state = GameState(game)
    state.occupant, state.face_down = _parse_board(game, field["board"], seats)
    state.round = _parse_round(game, field["round"])
    state.phase, state.step, state.turn = _parse_phase(field["phase"], seats)
    state.turn_order = _parse_order(field["order"], seats)
    now, at, start = field["energy"].partition("@")
    state.energy = _numbers(now, "energy", seats)
    state.reset_from = tuple(_numbers(start, "energy", seats)) if at else None
    state.reserve, state.on_board, state.returning, state.ready = _parse_creatures(
        field["creatures"], seats
    )
    state.active, state.actions_left = _parse_active(game, field["active"])
    state.pending = _decisions(game, field["pending"], "pending")
    if at and not (state.phase is Phase.ENERGY_AND_RESET and state.pending):
        raise PositionError("energy: '@' only while domination choices wait at Energy and Reset")
    state.declined = {}
    for seat, territory in _decisions(game, field["declined"], "declined"):
        state.declined.setdefault(game.players[seat], []).append(game.isle.territory_ids[territory])
    (state.step_removals,) = _numbers(field["removals"], "removals", 1)
    state.winner, state.summoner = _parse_result(field["result"], seats)
    state.last_tally = None
    state.waived = []
    state.ahead = [0] * seats
    state.ahead_removals = [0] * seats
    _check_counts(state)
    return state


def _seat(letter: str, seats: int, where: str) -> int:
    seat = SEATS.find(letter)
    if not 0 <= seat < seats:
        raise PositionError(
            f"{where}: {letter!r} is no seat of this game (a to {SEATS[seats - 1]})"
        )
    return seat


def _numbers(text: str, where: str, count: int) -> list[int]:
    values = text.split(",")
    if len(values) != count or not all(value.isdigit() for value in values):
        raise PositionError(
            f"{where}: expected {count} whole number(s) split by commas, got {text!r}"
        )
    return [int(value) for value in values]


def _parse_board(game: Game, text: str, seats: int) -> tuple[list[Token | None], list[bool]]:
    occupant: list[Token | None] = []
    face_down: list[bool] = []
    position = 0
    for match in _TOKEN.finditer(text):
        if match.start() != position:
            break
        position = match.end()
        if match.group(1):
            run = int(match.group(1))
            if len(occupant) + run > game.isle.size:
                break
            occupant.extend([None] * run)
            face_down.extend([False] * run)
            continue
        letter = match.group(3)
        kind = KIND_LETTERS.find(letter.upper())
        if kind < 0:
            raise PositionError(f"board: {letter!r} is no creature (one of {KIND_LETTERS})")
        occupant.append(game.tokens[_seat(match.group(2), seats, "board")][kind])
        face_down.append(letter.islower())
    if position != len(text):
        raise PositionError(f"board: cannot read {text[position:]!r}")
    if len(occupant) != game.isle.size:
        raise PositionError(
            f"board: it describes {len(occupant)} locations; this isle has {game.isle.size}"
        )
    return occupant, face_down


def _parse_round(game: Game, text: str) -> int:
    this, _, final = text.partition("/")
    if not (this.isdigit() and final.isdigit()):
        raise PositionError(f"round: expected this round/final round, e.g. 2/6, got {text!r}")
    if int(final) != game.final_round:
        raise PositionError(f"round: this game's final round is {game.final_round}, not {final}")
    if not 1 <= int(this) <= game.final_round:
        raise PositionError(f"round: {this} is not a round of this game (1 to {final})")
    return int(this)


def _parse_phase(text: str, seats: int) -> tuple[Phase, int, int]:
    name, *numbers = text.split(":")
    try:
        phase = Phase(name)
    except ValueError:
        known = ", ".join(phase.value for phase in Phase)
        raise PositionError(f"phase: {name!r} is no phase ({known})") from None
    if len(numbers) != 2 or not all(number.isdigit() for number in numbers):
        raise PositionError(f"phase: expected phase:step:turn, e.g. actions:1:0, got {text!r}")
    step, turn = (int(number) for number in numbers)
    if step >= KINDS or turn >= seats:
        raise PositionError(f"phase: step {step} or turn {turn} is out of range")
    return phase, step, turn


def _parse_order(text: str, seats: int) -> list[int]:
    order = [_seat(letter, seats, "order") for letter in text]
    if sorted(order) != list(range(seats)):
        raise PositionError(f"order: every seat once (a to {SEATS[seats - 1]}), got {text!r}")
    return order


def _parse_creatures(text: str, seats: int) -> tuple[list[list[int]], ...]:
    groups = text.split(",")
    if len(groups) != seats or not all(_COUNTS.match(group) for group in groups):
        raise PositionError(
            f"creatures: expected {seats} groups like 135/000/000/000 split by commas, got {text!r}"
        )
    rows: tuple[list[list[int]], ...] = ([], [], [], [])
    for group in groups:
        for row, counts in zip(rows, group.split("/"), strict=True):
            row.append([int(digit) for digit in counts])
    return rows


def _parse_active(game: Game, text: str) -> tuple[int | None, int]:
    where, _, actions = text.partition(":")
    if not actions.isdigit() or not (where == "-" or where.isdigit()):
        raise PositionError(f"active: expected location:actions or -:actions, got {text!r}")
    if where == "-":
        return None, int(actions)
    if int(where) >= game.isle.size:
        raise PositionError(f"active: location {where} is not on this isle")
    return int(where), int(actions)


def _decisions(game: Game, text: str, where: str) -> list[tuple[int, int]]:
    if text == "-":
        return []
    decisions = []
    for item in text.split(","):
        if len(item) < 2 or not item[1:].isdigit():
            raise PositionError(
                f"{where}: expected a seat letter and a territory number, got {item!r}"
            )
        territory = int(item[1:])
        if territory >= len(game.isle.territory_ids):
            raise PositionError(f"{where}: territory {territory} is not on this isle")
        decisions.append((_seat(item[0], len(game.players), where), territory))
    return decisions


def _parse_result(text: str, seats: int) -> tuple[int | None, bool]:
    summoner = text.endswith("!")
    winner = text.removesuffix("!")
    if winner == "-":
        if summoner:
            raise PositionError("result: a Summoner's win needs a winner")
        return None, False
    if len(winner) != 1:
        raise PositionError(f"result: expected a seat letter or -, got {text!r}")
    return _seat(winner, seats, "result"), summoner


def _check_counts(state: GameState) -> None:
    """Each creature is somewhere, once; on a drawn board, the board shows each one on it."""
    game = state.game
    for seat, player in enumerate(game.players):
        for kind in range(KINDS):
            held = state.reserve[seat][kind] + state.on_board[seat][kind]
            total = held + state.returning[seat][kind]
            name = KIND_ORDER[kind].value
            if total != OWNED[kind]:
                raise PositionError(
                    f"creatures: {player} has {total} {name}s in all; "
                    f"every player has {OWNED[kind]}"
                )
            if state.ready[seat][kind] > state.on_board[seat][kind]:
                raise PositionError(f"creatures: {player} has more ready {name}s than on the board")
            if game.mode is Mode.DIGITAL:
                drawn = state.occupant.count((seat, kind))
                if drawn != state.on_board[seat][kind]:
                    raise PositionError(
                        f"board: it shows {drawn} of {player}'s {name}s; "
                        f"the counts say {state.on_board[seat][kind]}"
                    )
