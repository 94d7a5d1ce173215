"""What a seat may record: the server's check behind every write, whatever a screen showed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from companion.app.sharing.seats import SCOREKEEPER, WATCHER
from models.commands import PLAYER_COMMANDS, Command, Correction

WATCHERS_RECORD_NOTHING = "This device is watching: it cannot record anything."
# The seat of a device whose code the host has replaced: it records nothing until let in again.
LOCKED = "locked"
CODE_REPLACED = "The host made a new table code: nothing was recorded. Enter the new code."


def _closed(seat: str | None) -> str | None:
    """Why a seat records nothing at all, if it does not."""
    if seat == WATCHER:
        return WATCHERS_RECORD_NOTHING
    if seat == LOCKED:
        return CODE_REPLACED
    return None


def signed(seat: str | None, command: Command, bots: Iterable[str] = ()) -> Command:
    """A command as a seat makes it: a player's device makes every player's command as that
    player (so the engine refuses another's turn); computer players' moves stay theirs."""
    if seat in (None, SCOREKEEPER, WATCHER, LOCKED) or not isinstance(command, PLAYER_COMMANDS):
        return command
    if command.by is not None and command.by in set(bots):
        return command
    return command._replace(by=seat)


def others_refusal(
    seat: str | None, commands: Sequence[Command], bots: Iterable[str], labels: Mapping[str, str]
) -> str | None:
    """Why a player's device may not record commands made for another (human) player, if so."""
    if seat is None or seat in (SCOREKEEPER, WATCHER, LOCKED):
        return None
    for command in commands:
        by = command.by if isinstance(command, PLAYER_COMMANDS) else None
        if by is not None and by != seat and by not in set(bots):
            mine, theirs = labels.get(seat, seat), labels.get(by, by)
            return (
                f"This device records {mine}'s turns only: {theirs}'s are recorded on "
                f"{theirs}'s device or the scorekeeper's."
            )
    return None


def refusal(seat: str | None, commands: Sequence[Command]) -> str | None:
    """Why a seat may not record these commands; None if it may."""
    if seat is None or seat == SCOREKEEPER:
        return None
    if _closed(seat):
        return _closed(seat)
    if any(isinstance(command, Correction) for command in commands):
        return "Only the scorekeeper's device corrects energy by hand."
    return None


DELETE_REFUSED = "Only the host's device or the scorekeeper's deletes a shared game."
GAME_DELETED = "This game was deleted."


def delete_refusal(host: bool, seat: str | None) -> str | None:
    """Why a device may not delete a shared game (`host`: it came in with the host link)."""
    if host or seat is None or seat == SCOREKEEPER:
        return None
    return _closed(seat) if seat == LOCKED else DELETE_REFUSED


def undo_refusal(
    seat: str | None, taken_back: Sequence[Command], labels: Mapping[str, str] | None = None
) -> str | None:
    """Why a seat may not undo or redo these commands; None if it may."""
    if seat is None or seat == SCOREKEEPER:
        return None
    if _closed(seat):
        return _closed(seat)
    for command in taken_back:
        by = getattr(command, "by", None) if isinstance(command, PLAYER_COMMANDS) else None
        if by is not None and by != seat:
            whose = (labels or {}).get(by, by)
            return f"That is {whose}'s record: their device or the scorekeeper's undoes it."
        if isinstance(command, Correction):
            return "Only the scorekeeper's device undoes a correction by hand."
    return None
