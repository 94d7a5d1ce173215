"""What finished games say: energy round by round, and who wins from which seat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.engine import Game
from models.commands import Command
from models.rules import MAX_PLAYERS
from models.setup import name_key

if TYPE_CHECKING:
    from companion.store.saved import GameSummary


def energy_by_round(game: Game, commands: Iterable[Command]) -> dict[str, list[int]]:
    """Each player's energy at the end of every round played (the last one where the game ended)."""
    state = game.new_initial_state()
    ends: list[list[int]] = []
    for command in commands:
        before = state.round
        state.apply(command)
        # The round counter moves on right after Energy and Reset; the last round just ends.
        if state.round == before and not state.is_terminal:
            continue
        energy = [state.energy_of(player) for player in game.players]
        ends.extend(energy for _ in range(before, state.round))
        if state.is_terminal:
            ends.append(energy)
    return {player: [energy[seat] for energy in ends] for seat, player in enumerate(game.players)}


@dataclass(frozen=True, slots=True)
class History:
    """Counts over finished games; seats and positions are numbered from 1."""

    games: int
    # By player name, most wins first; names group as models.setup.name_key says.
    wins_by_name: dict[str, int]
    wins_by_seat: dict[str, int]
    wins_by_start_position: dict[str, int]
    summoner_wins: int
    final_round_wins: int

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON-ready data."""
        return {
            "games": self.games,
            "wins_by_name": self.wins_by_name,
            "wins_by_seat": self.wins_by_seat,
            "wins_by_start_position": self.wins_by_start_position,
            "summoner_wins": self.summoner_wins,
            "final_round_wins": self.final_round_wins,
        }


def summarise(finished: Sequence[GameSummary]) -> History:
    """Wins by name, by seat (order of the setup's players) and by place in round 1's order.

    `finished` comes most recent first: a name is shown as it was spelt most recently.
    """
    by_name: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    by_seat: Counter[str] = Counter()
    by_position: Counter[str] = Counter()
    summoner = 0
    for game in finished:
        if game.winner is None:
            continue
        # Everyone who played is listed, with 0 wins if need be.
        for label in game.labels:
            spelling.setdefault(name_key(label), label.strip())
            by_name.setdefault(name_key(label), 0)
        by_name[name_key(game.labels[game.players.index(game.winner)])] += 1
        by_seat[str(game.players.index(game.winner) + 1)] += 1
        by_position[str(game.first_turn_order.index(game.winner) + 1)] += 1
        summoner += game.summoner
    places = [str(place) for place in range(1, MAX_PLAYERS + 1)]
    won = sum(by_seat.values())
    ranked = sorted(by_name, key=lambda key: (-by_name[key], key))
    return History(
        games=len(finished),
        wins_by_name={spelling[key]: by_name[key] for key in ranked},
        wins_by_seat={place: by_seat[place] for place in places},
        wins_by_start_position={place: by_position[place] for place in places},
        summoner_wins=summoner,
        final_round_wins=won - summoner,
    )
