"""The digital board's step guide in words, from the engine's query surface: plain Python."""

from __future__ import annotations

from companion.app.board_taps import Mark, targets
from companion.engine import GameState, Phase
from companion.engine.wording import counted
from models.board import Territory
from models.rules import CREATURES, WYRM_SWAP_COST

PHASE_NAMES = {
    Phase.SUMMONING: "Summoning",
    Phase.ACTIONS: "Actions",
    Phase.ENERGY_AND_RESET: "Energy and Reset",
}


def step_guide(state: GameState) -> str:
    """What the player whose turn it is can do now, in a sentence or two."""
    turn = state.decision()
    if turn is None:
        return ""
    kind = turn.kind
    if turn.phase is Phase.SUMMONING:
        assert kind is not None, "a Summoning step is of a kind"
        mine = state.holdings(turn.player)
        return (
            f"Summon {kind.plural}: tap a marked space to summon one for {mine.costs[kind]} "
            f"energy ({mine.reserve[kind]} in reserve, {mine.energy} energy), then Done."
        )
    if turn.phase is Phase.ACTIONS and turn.active is None:
        assert kind is not None, "an Actions step is of a kind"
        actions = CREATURES[kind].actions
        return (
            f"{kind.plural} act: tap one of your marked {kind.plural} to activate it "
            f"({counted(actions, 'action')}), then Done."
        )
    if turn.phase is Phase.ACTIONS:
        assert kind is not None and turn.active is not None, "a creature is being activated"
        where = state.game.board.location_names[turn.active]
        marks = {target.mark for target in targets(state).values()}
        parts = []
        if Mark.MOVE in marks:
            parts.append("a green space to move there (the number is the actions it takes)")
        if Mark.ATTACK in marks:
            parts.append("a red one to attack")
        if Mark.SWAP in marks:
            parts.append(f"a blue one to swap places ({WYRM_SWAP_COST} energy)")
        head = f"Your {kind.title} at {where} has {counted(turn.actions_left, 'action')} left"
        if not parts:
            return f"{head}: End activation when it is done."
        return f"{head}: tap {', '.join(parts)}; or End activation."
    if turn.territory is not None:
        territory = territory_of(state, turn.territory)
        return (
            f"You hold every space of {territory.label}: take its {territory.bonus}-energy "
            f"bonus, or decline it (a higher total can mean a worse band next round)."
        )
    return ""


def territory_of(state: GameState, territory_id: str) -> Territory:
    """The board's territory of an id."""
    return next(t for t in state.game.board.territories if t.id == territory_id)
