"""Who goes first next round, and who wins a tie at the end (rulings 12 and 13)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.engine.wording import joined


def next_turn_order(current: Sequence[str], energy: Mapping[str, int]) -> tuple[str, ...]:
    """Lowest energy first; a tie goes earlier to whoever was later in the current order."""
    position = {player: i for i, player in enumerate(current)}
    return tuple(sorted(current, key=lambda player: (energy[player], -position[player])))


def tie_notes(
    current: Sequence[str], energy: Mapping[str, int], labels: Mapping[str, str]
) -> tuple[str, ...]:
    """One sentence per tie in the next order, saying how it was broken."""
    notes = []
    order = next_turn_order(current, energy)
    groups: dict[int, list[str]] = {}
    for player in order:
        groups.setdefault(energy[player], []).append(player)
    for total, players in groups.items():
        if len(players) < 2:
            continue
        names = joined([labels[p] for p in players])
        notes.append(
            f"{names} are tied on {total}: whoever was later in this round's order goes "
            f"earlier, so the order is {', '.join(labels[p] for p in players)}."
        )
    return tuple(notes)


def final_winner(current: Sequence[str], energy: Mapping[str, int]) -> tuple[str, list[str]]:
    """The final-round winner, and everyone tied with them on the most energy."""
    best = max(energy[player] for player in current)
    tied = [player for player in current if energy[player] == best]
    # Later in the final round's order wins the tie.
    return tied[-1], tied
