"""The Energy and Reset draft as the store keeps it: what the table has entered so far.

A table's draft belongs to the game, not to one phone: every device shows it and
changes it, and it survives a reload, a restart and the undo of the applied record. It holds
only what the table said, per territory (the rules look at who holds a territory, not at
which of its places): the creatures put there, the ones marked as not on the board, and the
bonuses declined, with the seat of the device that declined each. The engine rebuilds the
draft from it against the record (`companion.engine.table_reset.draft_from`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pydantic import TypeAdapter

from models.commands import Removed
from models.rules import CreatureKind


class DraftPlacement(NamedTuple):
    """One creature the table put in a territory."""

    territory: str
    player: str
    kind: CreatureKind


class DraftDeclined(NamedTuple):
    """A domination bonus the table declined, and the seat of the device that declined it
    (a player's id or the scorekeeper; "" on a table's only phone, or unknown)."""

    player: str
    territory: str
    by: str = ""


class DraftEntries(NamedTuple):
    """Everything the table entered at one Energy and Reset."""

    placed: tuple[DraftPlacement, ...] = ()
    gone: tuple[Removed, ...] = ()
    declined: tuple[DraftDeclined, ...] = ()


_ADAPTER = TypeAdapter(DraftEntries)


def entries_to_json(entries: DraftEntries) -> dict[str, Any]:
    """The entries as JSON-ready data: each part a list of objects named by field."""
    return {
        part: [
            {key: str(value) for key, value in item._asdict().items()}
            for item in getattr(entries, part)
        ]
        for part in DraftEntries._fields
    }


def entries_from_json(data: Any) -> DraftEntries:
    """Entries read back from JSON data (pydantic's ValidationError if they are not)."""
    return _ADAPTER.validate_python(data)
