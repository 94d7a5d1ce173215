"""The table's correction by hand as data (the screens draw, the play layer decides): whose
energy this device may correct, what a typed change and reason come to, a `Correction` to
record or what is wrong with each field, the seat's and the engine's refusals included.

A player's own phone corrects its own player's energy (and, as every record, a player's with
no device of their own); the scorekeeper's device anyone's (companion/play/sharing/policy.py).
The form is offered only for the players this device may correct; the dialog
(companion/app/screens/table_correction.py) draws the fields and keeps them on a refusal."""

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
    # Why this device may not correct that player's energy (the seats changed meanwhile).
    who: Message | None = None


# Any correction stands for all of them when asking whose energy a device may correct.
_PROBE_DELTA = 1


def correctable(session: GameSession) -> tuple[str, ...]:
    """The players whose energy this device may correct, in turn order (none: say
    `WHO_CAN` instead of offering the form)."""
    return tuple(
        player
        for player in session.state.order()
        if session.tap_refusal([Correction(player, _PROBE_DELTA, "?")]) is None
    )


WHO_CAN = Message("game.correct.who_can")


def correction_entry(
    session: GameSession, player: str, change: str, reason: str
) -> CorrectionEntry:
    """A correction of `player`'s energy by the typed `change`, with the typed `reason` that
    goes in the log; refused as this device's seat or the engine refuses it (energy stays
    on the track)."""
    delta: int | None
    try:
        delta = int(change.strip())
    except ValueError:
        delta = None
    said_change = None if delta is not None else Message("game.correct.whole", top=MAX_TRACK_ENERGY)
    why = reason.strip()
    # The log keeps it: held to the check every typed text gets.
    said_reason = (
        text_problem(why, Message("problem.what.reason")) if why else Message("game.correct.why")
    )
    if delta is None or said_reason is not None:
        return CorrectionEntry(None, said_change, said_reason)
    command = Correction(player, delta, unicodedata.normalize("NFC", why))
    seat_refusal = session.tap_refusal([command])
    if seat_refusal is not None:
        return CorrectionEntry(None, who=seat_refusal)
    refusal = session.refusal(command)
    if refusal is not None:
        return CorrectionEntry(None, refusal)
    return CorrectionEntry(command)
