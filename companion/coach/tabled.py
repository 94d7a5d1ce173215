"""A digital game told as a table would have recorded it: its summons, removals, Wyrm swaps,
and at each Energy and Reset the board as it stood.

Table games come from people, so the coach's measures of table games (the speed of a
table review, the table positions carried over to the digital rules) use digital games
between bots, recorded the table's way.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import Game, GameState, Phase
from companion.engine.queries import creatures
from models.commands import (
    Attack,
    Command,
    Declined,
    Dominate,
    EnergyAndReset,
    Placement,
    Removal,
    Skip,
    Summon,
    Swap,
)
from models.rules import CreatureKind
from models.setup import Mode


def table_game(game: Game) -> Game:
    """The table game over the same board and players as a digital one."""
    return Game(game.setup.model_copy(update={"mode": Mode.TABLE}), game.board)


def as_table(game: Game, commands: Sequence[Command]) -> tuple[Game, list[Command]]:
    """The table game and the records a table would have made of a digital game's commands."""
    table = table_game(game)
    recorder = _Recorder(table.new_initial_state())
    state = game.new_initial_state()
    declined: list[Declined] = []
    for command in commands:
        player = state.current_player
        assert player is not None, "every digital command is someone's decision"
        if type(command) is Summon:
            recorder.tap(Summon(command.kind, by=player), command.kind)
        elif type(command) is Swap:
            recorder.tap(Swap(by=player))
        elif type(command) is Attack and state.attack_outcome(command)[2]:
            view = state.attack_view(command)
            removal = Removal(view.defender, view.defender_kind, by=player)
            recorder.tap(removal, view.attacker_kind)
        elif type(command) is Dominate and not command.take:
            declined.append(Declined(player, command.territory))
        before = state.round
        state.apply(command)
        if state.round != before or (state.is_terminal and state.last_tally is not None):
            recorder.reset(state, declined)
            declined = []
    return table, recorder.records


class _Recorder:
    """The table game's state and the records made so far."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.records: list[Command] = []

    def tap(self, command: Command, kind: CreatureKind | None = None) -> None:
        """What one tap at the table records (a skip to the player's turn, then the command)."""
        for record in self.state.reach(command, kind):
            self.record(record)

    def record(self, command: Command) -> None:
        """Apply and keep one record."""
        self.state.apply(command)
        self.records.append(command)

    def reset(self, digital: GameState, declined: list[Declined]) -> None:
        """End the round at the table and record the board as the digital game has it."""
        if self.state.is_terminal:
            return
        while self.state.phase is not Phase.ENERGY_AND_RESET:
            self.record(Skip("summoning" if self.state.phase is Phase.SUMMONING else "actions"))
        placements = tuple(
            Placement(location, creature.player, creature.kind)
            for location, creature in creatures(digital).items()
        )
        self.record(EnergyAndReset(placements, tuple(declined), ()))
