"""The table's correction by hand as data (issue 21: the screens draw, the play layer decides):
what a typed change and reason come to, a `Correction` to record or what is wrong with each
field, the engine's refusal included. The table screen's dialog draws the fields."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from companion.language import Message
from companion.play.session import GameSession
from models.commands import Correction
from models.rules import MAX_TRACK_ENERGY
from models.text import text_problem


@dataclass(frozen=True, slots=True)
class CorrectionEntry:
    """The command the fields make, or why not: a problem with the change, the reason, or both."""

    command: Correction | None
    change: Message | None = None
    reason: Message | None = None


def correction_entry(
    session: GameSession, player: str, change: str, reason: str
) -> CorrectionEntry:
    """A correction of `player`'s energy by the typed `change`, with the typed `reason` that
    goes in the log; refused as the engine refuses it (energy stays on the track)."""
    delta: int | None
    try:
        delta = int(change.strip())
    except ValueError:
        delta = None
    said_change = None if delta is not None else Message("game.correct.whole", top=MAX_TRACK_ENERGY)
    why = reason.strip()
    # The log keeps it: held to the check every typed text gets (issue 25).
    said_reason = (
        text_problem(why, Message("problem.what.reason")) if why else Message("game.correct.why")
    )
    if delta is None or said_reason is not None:
        return CorrectionEntry(None, said_change, said_reason)
    command = Correction(player, delta, unicodedata.normalize("NFC", why))
    refusal = session.refusal(command)
    if refusal is not None:
        return CorrectionEntry(None, refusal)
    return CorrectionEntry(command)
