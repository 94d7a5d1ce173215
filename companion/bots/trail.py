"""Moves that would spend actions for nothing: back to where the active creature already stood.

A creature that moves 2 -> 4 -> 2 in one activation ends where it could have stayed, its
actions gone. Going back to any place it stood earlier in the activation is never better
than having stopped there, unless something happened in between: an attack (which needs
the creature where it was) or a Wyrm swap (which moves it without actions). So a bot
keeps where the creature being activated has stood since its activation began, or since
its last attack or swap, and leaves moves back there out of its choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import GameState
from companion.engine.constants import ACTIONS
from companion.engine.position_keys import search_view
from models.commands import Command, EndActivation, Move


class Trail:
    """Where the creature a bot is activating has stood, kept between the bot's decisions."""

    def __init__(self) -> None:
        # Where the bot's last command left the active creature (None: nowhere known), and
        # every place it stood since its activation began or its last attack or swap.
        self._at: str | None = None
        self._stood: frozenset[str] = frozenset()

    def stood(self, state: GameState) -> frozenset[str]:
        """The places the active creature of `state` stood this activation (empty if none is
        active); where the bot's memory does not reach, the place it stands now."""
        view = search_view(state)
        if view.active is None:
            self._at, self._stood = None, frozenset()
            return self._stood
        here = state.game.isle.location_ids[view.active]
        token = view.occupant[view.active]
        assert token is not None, "the active creature is on the board"
        if here != self._at or view.actions_left == ACTIONS[token[1]]:
            # A new activation, or one this bot did not follow (undone, or made elsewhere).
            self._stood = frozenset((here,))
        self._at = here
        return self._stood

    def played(self, command: Command) -> None:
        """The bot chose `command`: a move adds where it leads; anything else starts afresh."""
        if type(command) is Move and self._at is not None:
            self._at = command.to
            self._stood = self._stood | {command.to}
        else:
            self._at = None


def purposeful(commands: Sequence[Command], stood: frozenset[str]) -> list[Command]:
    """The commands but the moves back to a place in `stood` (all of them if none is left)."""
    if not stood:
        return list(commands)
    kept = [c for c in commands if type(c) is not Move or c.to not in stood]
    return kept or list(commands)


def after(
    stood: frozenset[str] | None, state: GameState, command: Command
) -> frozenset[str] | None:
    """Along a line of search: where the active creature of `state` has stood once `command`
    is played (`stood` before it, None if only its place now is known); None after anything
    but a move, which ends the activation or starts the trail afresh."""
    if type(command) is not Move:
        return None
    if stood is None:
        active = search_view(state).active
        assert active is not None, "a move is made by the active creature"
        stood = frozenset((state.game.isle.location_ids[active],))
    return stood | {command.to}


def wasted_activations(start: GameState, commands: Sequence[Command]) -> int:
    """How many activations of `commands`, played from `start`, ended where they began,
    having moved, with no attack or swap between: actions spent for nothing."""
    state = start.clone()
    ids = state.game.isle.location_ids
    began: str | None = None
    moved = False
    wasted = 0
    for command in commands:
        before = search_view(state).active
        state.apply(command)
        active = search_view(state).active
        if before is None and active is not None:
            began, moved = ids[active], False
        elif type(command) is Move:
            moved = True
        elif type(command) is not EndActivation:
            began = None  # an attack or a swap: where it began no longer says anything
        if before is not None and active is None:
            ended = command.to if type(command) is Move else ids[before]
            wasted += began is not None and moved and ended == began
            began = None
    return wasted
