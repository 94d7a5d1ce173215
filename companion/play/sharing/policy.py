"""What a seat may record: the server's check behind every write, whatever a screen showed."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from companion.engine import Phase
from companion.engine.names import kinds_term
from companion.language import Message
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from models.commands import (
    PLAYER_COMMANDS,
    Command,
    Correction,
    LateRemoval,
    LateSummon,
    LateSwap,
)
from models.rules import CreatureKind

# Refusals are messages: each device says them in its own language.
WATCHERS_RECORD_NOTHING = Message("app.policy.watchers_record_nothing")
# The seat of a device whose code the host has replaced: it records nothing until let in again.
LOCKED = "locked"
CODE_REPLACED = Message("app.policy.code_replaced")


def _closed(seat: str | None) -> Message | None:
    """Why a seat records nothing at all, if it does not."""
    if seat == WATCHER:
        return WATCHERS_RECORD_NOTHING
    if seat == LOCKED:
        return CODE_REPLACED
    return None


def signed(seat: str | None, command: Command, others: Iterable[str] = ()) -> Command:
    """A command as a seat makes it: a player's device makes every player's command as that
    player (so the engine refuses another's turn), but for `others`, whose commands it may
    record as theirs: computer players, and players with no device of their own."""
    if seat in (None, SCOREKEEPER, WATCHER, LOCKED):
        return command
    if isinstance(command, Correction):
        # The log says whose phone corrected whose energy.
        return command._replace(made_by=seat)
    if not isinstance(command, PLAYER_COMMANDS):
        return command
    if command.by is not None and command.by in set(others):
        return command
    return command._replace(by=seat)


def others_refusal(
    seat: str | None,
    commands: Sequence[Command],
    bots: Iterable[str],
    labels: Mapping[str, str],
    seated: Collection[str] | None = None,
) -> Message | None:
    """Why a player's device may not record commands made for another player, if so.

    Another player with a device of their own (`seated`; None: every other player) records
    their own turns; a player with none can be recorded from any phone at the table (issue
    20), as can the computer's moves. A late record counts as its player's, and a correction
    of a player's energy as theirs: a player's phone corrects its own player's energy.
    """
    if seat is None or seat in (SCOREKEEPER, WATCHER, LOCKED):
        return None
    for command in commands:
        if isinstance(command, PLAYER_COMMANDS):
            by = command.by
        elif isinstance(command, LateSummon | LateRemoval | LateSwap | Correction):
            by = command.player
        else:
            by = None
        if by is None or by == seat or by in set(bots):
            continue
        if seated is None or by in seated:
            mine, theirs = labels.get(seat, seat), labels.get(by, by)
            if isinstance(command, Correction):
                return Message("app.policy.correction_theirs", player=theirs)
            return Message("app.policy.others", mine=mine, theirs=theirs)
    return None


def skip_refusal(
    seat: str | None,
    passed: Sequence[tuple[str, Phase, CreatureKind]],
    seated: Collection[str],
    labels: Mapping[str, str],
) -> Message | None:
    """Why a player's device may not pass over another player who has a device of their own:
    'Bob is not done with Trolls yet'. A player with no device may be passed
    over by anyone at the table; the scorekeeper passes anyone over."""
    if seat is None or seat in (SCOREKEEPER, WATCHER, LOCKED):
        return None
    for player, phase, kind in passed:
        if player != seat and player in seated:
            name = labels.get(player, player)
            if phase is Phase.SUMMONING:
                return Message("app.policy.not_done_summoning", player=name, kinds=kinds_term(kind))
            return Message("app.policy.not_done_acting", player=name, kinds=kinds_term(kind))
    return None


def bonus_refusal(
    seat: str | None, player: str, seated: Collection[str], labels: Mapping[str, str]
) -> Message | None:
    """Why a seat may not take or decline `player`'s domination bonus, if so: a bonus is its
    holder's to decline (ruling 10: each is optional), on their own device, or on the
    scorekeeper's, or on any phone when the holder has no device of their own."""
    if seat is None or seat == SCOREKEEPER:
        return None
    if _closed(seat):
        return _closed(seat)
    if seat == player or player not in seated:
        return None
    return Message("app.policy.bonus_theirs", player=labels.get(player, player))


def refusal(seat: str | None, commands: Sequence[Command]) -> Message | None:
    """Why a seat may not record these commands; None if it may."""
    if seat is None or seat == SCOREKEEPER:
        return None
    return _closed(seat)


DELETE_REFUSED = Message("app.policy.delete_refused")
GAME_DELETED = Message("app.main.game_deleted")


def delete_refusal(host: bool, seat: str | None) -> Message | None:
    """Why a device may not delete a shared game (`host`: it came in with the host link)."""
    if host or seat is None or seat == SCOREKEEPER:
        return None
    if seat == LOCKED:
        return _closed(seat)
    return DELETE_REFUSED


def undo_refusal(
    seat: str | None,
    taken_back: Sequence[Command],
    labels: Mapping[str, str] | None = None,
    skipped: Collection[str] = (),
    unseated: Collection[str] = (),
) -> Message | None:
    """Why a seat may not undo or redo these commands; None if it may.

    A player may always take back a tap that passed them over (`skipped`): it
    said they were done when they were not. A record of a player with no device of their
    own (`unseated`) is any player's device's to take back, as it was theirs to make; a
    correction by hand, the scorekeeper's or the phone's that made it.
    """
    if seat is None or seat == SCOREKEEPER:
        return None
    if _closed(seat):
        return _closed(seat)
    if seat in skipped:
        return None
    for command in taken_back:
        by = getattr(command, "by", None) if isinstance(command, PLAYER_COMMANDS) else None
        if by is not None and by != seat and by not in unseated:
            whose = (labels or {}).get(by, by)
            return Message("app.policy.undo_theirs", player=whose)
        if isinstance(command, Correction) and command.made_by != seat:
            return Message("app.policy.undo_correction")
    return None
