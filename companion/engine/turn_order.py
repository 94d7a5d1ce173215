"""Who goes first next round, and who wins a tie at the end (rulings 12 and 13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.language import Message, by_commas


def next_turn_order(current: Sequence[str], energy: Mapping[str, int]) -> tuple[str, ...]:
    """Lowest energy first; a tie goes earlier to whoever was later in the current order."""
    position = {player: i for i, player in enumerate(current)}
    return tuple(sorted(current, key=lambda player: (energy[player], -position[player])))


# A tie in the next order: the total, and the players on it in their new order.
Tie = tuple[int, tuple[str, ...]]


def ties(current: Sequence[str], energy: Mapping[str, int]) -> tuple[Tie, ...]:
    """Each tie in the next order: the total, and the players on it in their new order."""
    groups: dict[int, list[str]] = {}
    for player in next_turn_order(current, energy):
        groups.setdefault(energy[player], []).append(player)
    return tuple((total, tuple(players)) for total, players in groups.items() if len(players) > 1)


def tie_notes(found: Sequence[Tie], labels: Mapping[str, str]) -> tuple[Message, ...]:
    """One sentence per tie found by `ties`, saying how it was broken."""
    notes = []
    for total, players in found:
        names = tuple(labels[p] for p in players)
        notes.append(Message("order.tie", players=names, total=total, order=by_commas(names)))
    return tuple(notes)


def final_winner(current: Sequence[str], energy: Mapping[str, int]) -> tuple[str, list[str]]:
    """The final-round winner, and everyone tied with them on the most energy."""
    best = max(energy[player] for player in current)
    tied = [player for player in current if energy[player] == best]
    # Later in the final round's order wins the tie.
    return tied[-1], tied
