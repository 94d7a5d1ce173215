"""What a calibration run reports: reliability tables and Brier scores, per number of players
and per round, from each player's chance at each judged position and who won.

Reliability: the chances in 10-point buckets, each bucket's mean chance beside the share of
those player-positions whose player won; a bucket holding at least `CHECKED_BUCKET` is
checked, and holds if that share is within `TOLERANCE` of its centre. Sharpness: the Brier
score (the mean squared error of the chances against what happened, lower is better) beside
the even chance's (every player 1 in 2, 3 or 4), and the skill over it: 1 less their ratio
(0: no better than the even chance, 1: every winner foretold with certainty).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Buckets of predicted chance, 10 points wide; the check applies where a bucket holds this many.
BUCKETS = 10
CHECKED_BUCKET = 30
# How far the observed rate may be from a checked bucket's centre.
TOLERANCE = 0.07

PLAYER_COUNTS = (2, 3, 4)
# A player's chance at a position, and whether that player won the game.
Point = tuple[float, bool]
# A map's powers, by number of players then rounds still to come.
Powers = dict[int, dict[int, float]]


@dataclass
class Bucket:
    """Predictions between `low` and `low + 0.1`: how many, their mean, and the share won."""

    low: float
    count: int = 0
    predicted: float = 0.0
    won: float = 0.0

    @property
    def checked(self) -> bool:
        """Whether the bucket holds enough predictions for the check."""
        return self.count >= CHECKED_BUCKET

    @property
    def within(self) -> bool:
        """Whether the share won is within the tolerance of the bucket's centre."""
        return abs(self.won - (self.low + 0.05)) <= TOLERANCE

    def to_json(self) -> dict[str, Any]:
        """The bucket as JSON data, in percent."""
        return {
            "bucket": f"{round(self.low * 100)}-{round(self.low * 100) + 10}%",
            "positions": self.count,
            "mean_predicted": round(self.predicted * 100, 1),
            "observed": round(self.won * 100, 1),
            "checked": self.checked,
            "within_7_points": self.within if self.checked else None,
        }


def buckets(points: Sequence[Point]) -> list[Bucket]:
    """Predictions (chance, won) grouped in 10-point buckets."""
    table = [Bucket(i / BUCKETS) for i in range(BUCKETS)]
    for chance, won in points:
        bucket = table[min(int(chance * BUCKETS), BUCKETS - 1)]
        bucket.count += 1
        bucket.predicted += chance
        bucket.won += won
    for bucket in table:
        if bucket.count:
            bucket.predicted /= bucket.count
            bucket.won /= bucket.count
    return table


def brier(points: Sequence[Point]) -> float:
    """The mean squared error of the chances against what happened (lower is better)."""
    return sum((chance - won) ** 2 for chance, won in points) / max(1, len(points))


def sharpness(points: Sequence[Point], players: int) -> dict[str, Any]:
    """The Brier score of the chances, the even chance's on the same player-positions, and
    the skill of the one over the other."""
    said = brier(points)
    even = brier([(1 / players, won) for _, won in points])
    return {
        "player_positions": len(points),
        "brier": round(said, 4),
        "even": round(even, 4),
        "skill": round(1 - said / even, 3) if even > 0 else None,
    }


def part_report(points: Sequence[Point], players: int) -> dict[str, Any]:
    """One number of players' reliability table and sharpness."""
    table = buckets(points)
    return {
        **sharpness(points, players),
        "table": [bucket.to_json() for bucket in table],
        "passes": all(bucket.within for bucket in table if bucket.checked),
    }


def bucket_line(row: dict[str, Any]) -> str:
    """One bucket of a calibration table as a line."""
    check = "" if not row["checked"] else (" ok" if row["within_7_points"] else " OFF")
    return (
        f"{row['bucket']:>8}: {row['positions']:5} player-positions, "
        f"predicted {row['mean_predicted']:5.1f}%, won {row['observed']:5.1f}%{check}"
    )


@dataclass
class CalibrationReport:
    """What a calibration run measured, and the numbers it fitted."""

    # The level every seat of the games played at.
    level: str
    games: dict[int, int]
    positions: int
    temperatures: dict[int, float]
    powers: Powers
    # Where the tables' chances come from: "check games" (other games, of another seed,
    # through the map fitted on these) or "out of fold" (each game's through the map
    # fitted on the other half of the games).
    checked_on: str
    check_games: dict[int, int]
    check_positions: int
    # (players, round, points through the fitted map, raw points, points through the
    # shipped map) per judged position.
    tested: list[tuple[int, int, list[Point], list[Point], list[Point]]]
    # Per number of players: the judged positions the rules decide, and how many of them
    # their sure winner won.
    settled: dict[int, tuple[int, int]]
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data: per number of players, its reliability table and Brier
        scores (fitted map, raw chances, shipped map), and per round the Brier scores."""
        by_players: dict[str, Any] = {}
        by_round: dict[str, Any] = {}
        for players in PLAYER_COUNTS:
            mine = [t for t in self.tested if t[0] == players]
            if not mine:
                continue
            fitted = [p for t in mine for p in t[2]]
            by_players[str(players)] = {
                **part_report(fitted, players),
                "raw": sharpness([p for t in mine for p in t[3]], players),
                "shipped": sharpness([p for t in mine for p in t[4]], players),
            }
            by_round[str(players)] = {
                str(round_): sharpness([p for t in mine if t[1] == round_ for p in t[2]], players)
                for round_ in sorted({t[1] for t in mine})
            }
        return {
            "level": self.level,
            "games": {str(players): count for players, count in self.games.items()},
            "positions": self.positions,
            "checked_on": self.checked_on,
            "check_games": {str(players): n for players, n in self.check_games.items()},
            "check_positions": self.check_positions,
            "player_positions": sum(len(t[2]) for t in self.tested),
            "settled": {
                str(players): {"positions": count, "won_by_the_sure_winner": won}
                for players, (count, won) in self.settled.items()
            },
            "temperatures": {str(after): t for after, t in self.temperatures.items()},
            "powers": {
                str(players): {str(after): power for after, power in fitted.items()}
                for players, fitted in self.powers.items()
            },
            "by_players": by_players,
            "by_round": by_round,
            "seconds": round(self.seconds),
            "passes": all(part["passes"] for part in by_players.values()),
        }


def readable(data: dict[str, Any]) -> dict[str, Any]:
    """The report with each number of players' figures as lines, for reading in a terminal."""
    by_players = data.pop("by_players")
    by_round = data.pop("by_round")
    for players, part in by_players.items():
        lines = [
            f"Brier {part['brier']} (even chance {part['even']}), skill {part['skill']}; "
            f"raw {part['raw']['brier']}, shipped map {part['shipped']['brier']}",
            *(bucket_line(row) for row in part["table"]),
            *(
                f"round {round_}: Brier {one['brier']} (even chance {one['even']}), "
                f"skill {one['skill']}, {one['player_positions']} player-positions"
                for round_, one in by_round[players].items()
            ),
        ]
        data[f"{players} players"] = lines
    return data
