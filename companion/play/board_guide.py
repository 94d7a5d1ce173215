"""The digital board's step guide in words, from the engine's query surface: plain Python."""

from __future__ import annotations

from collections.abc import Callable

from companion.engine import GameState, Phase
from companion.engine.names import kind_term, kinds_term, territory_term
from companion.language import Message, by_commas
from companion.language.render import Language
from companion.play.board_taps import Mark, targets
from companion.play.game_words import counted_kind, english, place_terms
from models.board import Territory
from models.rules import CREATURES, WYRM_SWAP_COST

# Each phase's name, as a message id.
PHASE_NAMES = {
    Phase.SUMMONING: "game.phase.summoning",
    Phase.ACTIONS: "game.phase.actions",
    Phase.ENERGY_AND_RESET: "game.phase.energy_and_reset",
}


def phase_name(phase: Phase, words: Language) -> str:
    """A phase's name ('Summoning'), or nothing for the end of the game."""
    said = PHASE_NAMES.get(phase)
    return words.render(Message(said)) if said else ""


def step_guide(state: GameState, words: Language | None = None) -> str:
    """What the player whose turn it is can do now, in a sentence or two (default English)."""
    words = words or english()
    said = guide_message(state)
    return "" if said is None else words.render(said)


def guide_message(state: GameState) -> Message | None:
    """The step guide as a message, or None when nobody decides."""
    turn = state.decision()
    if turn is None:
        return None
    kind = turn.kind
    if turn.phase is Phase.SUMMONING:
        assert kind is not None, "a Summoning step is of a kind"
        mine = state.holdings(turn.player)
        return Message(
            "game.guide.summon",
            kinds=kinds_term(kind),
            cost=Message("count.energy", count=mine.costs[kind]),
            reserve=counted_kind(kind, mine.reserve[kind]),
            energy=Message("count.energy", count=mine.energy),
        )
    if turn.phase is Phase.ACTIONS and turn.active is None:
        assert kind is not None, "an Actions step is of a kind"
        actions = CREATURES[kind].actions
        return Message(
            "game.guide.activate",
            kinds=kinds_term(kind),
            actions=Message("count.action", count=actions),
        )
    if turn.phase is Phase.ACTIONS:
        assert kind is not None and turn.active is not None, "a creature is being activated"
        head = Message(
            "game.guide.active",
            kind=kind_term(kind),
            place=place_terms(state.game.isle)[turn.active],
            actions=Message("count.action", count=turn.actions_left),
        )
        marked = targets(state).values()
        marks = {target.mark for target in marked}
        parts: list[Message] = []
        if Mark.MOVE in marks:
            # The example is a real one: the dearest move marked, as the engine charges it
            # (a Sprite with one action left was told '→2').
            cost = max(target.cost for target in marked if target.mark is Mark.MOVE)
            taken = Message("count.action", count=cost)
            parts.append(Message("game.guide.tap_move", cost=cost, actions=taken))
        if Mark.ATTACK in marks:
            parts.append(Message("game.guide.tap_attack"))
        if Mark.SWAP in marks:
            parts.append(
                Message("game.guide.tap_swap", cost=Message("count.energy", count=WYRM_SWAP_COST))
            )
        if not parts:
            return Message("game.guide.active_done", head=head)
        return Message("game.guide.active_taps", head=head, taps=by_commas(parts))
    if turn.territory is not None:
        territory = territory_of(state, turn.territory)
        return Message(
            "game.guide.dominate",
            territory=territory_term(state.game.board, territory),
            bonus=territory.bonus,
        )
    return None


def territory_of(state: GameState, territory_id: str) -> Territory:
    """The board's territory of an id."""
    return next(t for t in state.game.board.territories if t.id == territory_id)


def ringed(state: GameState, label: Callable[[str], str]) -> Message | None:
    """While an Energy and Reset is read, who the players' card rings already (the next
    round's first to decide) and why; None once the game is over. When the first of the new
    order can do nothing yet, the engine has passed over them, and the sentence says so."""
    player = state.current_player
    if player is None or state.is_terminal:
        return None
    order = state.order()
    passed = order[: order.index(player)] if player in order else ()
    if passed:
        return Message(
            "game.board.ringed_passed",
            player=label(player),
            round=state.round,
            passed=by_commas([label(other) for other in passed]),
        )
    return Message("game.board.ringed_next", player=label(player), round=state.round)
