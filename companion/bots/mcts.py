"""Monte Carlo tree search with dice as chance outcomes, within a time budget per turn.

Each node holds a position and the seat deciding there. Expanding a node evaluates every
legal command at once (as greedy would), which gives each child a first value and orders
them; progressive widening then lets the search look at more children of a node the more
it is visited, best first. An attack leads to a chance node whose outcomes (success and
failure) are visited in proportion to the engine's odds. Values are win chances for every
seat, backed up as max^n: a node is worth what its best child is worth to the seat
deciding there, a chance node the odds-weighted mean of its outcomes, so the tree is a
best-first expectimax search that UCB1 steers.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections import deque
from collections.abc import Callable
from typing import final

from companion.bots.evaluation import Evaluator, Weights
from companion.bots.trail import Trail, after, purposeful
from companion.engine import GameState
from companion.engine.position_keys import turn_key
from companion.engine.state import FIELDS
from models.commands import Command
from models.opponents import MCTS_LEVELS

DEFAULT_BUDGET_MS = MCTS_LEVELS["normal"]
# The search aims to end by this share of its budget: the rest absorbs what it cannot
# foresee (the machine busy with other work, freeing the tree) within the 20% allowed over.
_AIM = 0.9
# The least share of a turn's budget a decision may spend while the turn has budget left.
_FLOOR = 0.1


# Final: `type(x) is Chance` then tells the two apart for the type checker too.
@final
class Node:
    """A position in the tree: its visits, its value per seat, and children once expanded.

    Only expanded nodes keep their position; a leaf keeps the command that leads to it from
    its parent's and rebuilds it if the search comes back. Most nodes stay leaves, so the
    tree stays small and quick to free.
    """

    __slots__ = ("children", "command", "mover", "state", "value", "visits")

    def __init__(self, state: GameState, command: Command | None, values: list[float]) -> None:
        self.state: GameState | None = None
        self.command = command
        self.mover = state.current_seat
        self.visits = 1
        # The evaluation's win chances until expanded, then the best child's (max^n).
        self.value = values
        # (command, child), best first by the first evaluation; None until expanded.
        self.children: list[tuple[Command, Node | Chance]] | None = None


@final
class Chance:
    """An attack's outcomes, each a node with its probability."""

    __slots__ = ("outcomes", "value", "visits")

    def __init__(self, outcomes: list[tuple[float, Node]]) -> None:
        self.outcomes = outcomes
        self.visits = 1
        self.value = self.expected()

    def expected(self) -> list[float]:
        """The outcomes' values, weighted by their odds."""
        outcomes = self.outcomes
        return [
            sum(p * node.value[seat] for p, node in outcomes)
            for seat in range(len(outcomes[0][1].value))
        ]


class MctsBot:
    """Searches within its budget per turn, then plays the command worth most to its seat.

    The budget is per turn (a seat's run of decisions, e.g. activate, move, attack, end),
    not per decision, so the people at the table wait for one budget per computer seat,
    however many decisions its turn takes. Each decision may spend half of what is left of
    the turn's budget, and at least `_FLOOR` of it: the first decision of a turn, which
    chooses what the turn is about, searches longest.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: float = DEFAULT_BUDGET_MS,
        iterations: int | None = None,
        weights: Weights | None = None,
        # Small beside the value gaps between commands (a few points of win chance): a larger
        # bonus spread the visits evenly and more iterations bought little (docs/bots.md).
        exploration: float = 0.03,
        widening: float = 2.0,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._random = random.Random(seed)
        self.budget_ms = budget_ms
        # A cap on iterations makes the choice independent of the machine's speed.
        self.iterations = iterations
        self.evaluator = Evaluator(weights)
        self.exploration = exploration
        self.widening = widening
        # Seconds from any fixed point; the search never reads the time another way.
        self.clock = clock
        self.last_iterations = 0
        # The subtree under the command last played, and the round its values look to: the
        # next decision often starts from one of its positions.
        self._kept: Node | Chance | None = None
        self._kept_horizon = 0
        self._child_seconds = 0.0
        # The tree just searched, freed when the next decision starts rather than on return.
        self._spent: Node | None = None
        # The turn being decided (see `_turn_of`) and the seconds already spent on it.
        self._turn: tuple[object, ...] | None = None
        self._turn_seconds = 0.0
        # Where the creature being activated has stood: no line of search goes back there.
        self._trail = Trail()
        self._root_stood: frozenset[str] = frozenset()

    def choose(self, state: GameState) -> Command:
        """The best valued command after searching from `state`; dice are left to the caller."""
        started = self.clock()
        turn = turn_key(state)
        if turn != self._turn:
            self._turn, self._turn_seconds = turn, 0.0
        deadline = started + self.decision_seconds() * _AIM
        # The tree holds no reference cycles, so reference counting frees it all; pausing the
        # cycle collector keeps its full sweeps over a large tree from overrunning the budget.
        collecting = gc.isenabled()
        gc.disable()
        try:
            # Freeing the last tree takes time: here it comes out of this decision's budget.
            self._spent = None
            self._root_stood = self._trail.stood(state)
            commands = purposeful(state.legal_commands(), self._root_stood)
            if len(commands) == 1:
                self._trail.played(commands[0])
                return commands[0]
            self.evaluator.forget()
            root = self._search(state, commands, deadline)
            command, self._kept = self._best(root)
            self._trail.played(command)
            self._kept_horizon = state.round
            self._spent = root
        finally:
            if collecting:
                gc.enable()
            self._turn_seconds += self.clock() - started
        return command

    def decision_seconds(self) -> float:
        """What the next decision may spend: half the turn's budget left, or the floor."""
        budget = self.budget_ms / 1000
        left = max(0.0, budget - self._turn_seconds)
        return min(left, max(left / 2, budget * _FLOOR))

    def _search(self, state: GameState, commands: list[Command], deadline: float) -> Node:
        """Grow the tree from `state` until the deadline or the iteration cap."""
        horizon = state.round
        # Seconds to evaluate one child: the last decision's estimate, halved so that one slow
        # moment does not keep shortening every search after it.
        self._child_seconds /= 2
        root = self._reuse(state)
        if root is None:
            root = Node(state, None, [0.0] * len(state.game.players))
            root.state = state.clone()
            self._expand(root, horizon, commands, deadline, partial=True)
        done = 0
        while (self.iterations is None or done < self.iterations) and self._iterate(
            root, horizon, deadline
        ):
            done += 1
        self.last_iterations = done
        return root

    def _reuse(self, state: GameState) -> Node | None:
        """The kept subtree's node for `state`, looked for breadth first, if it is there."""
        kept, self._kept = self._kept, None
        if kept is None or state.round != self._kept_horizon:
            return None
        frontier = deque([kept])
        looked = 0
        while frontier and looked < _REUSE_LOOKUP:
            node = frontier.popleft()
            if type(node) is Chance:
                frontier.extend(outcome for _, outcome in node.outcomes)
                continue
            if node.children is None:
                continue
            looked += 1
            assert node.state is not None, "an expanded node keeps its position"
            if _same(node.state, state):
                return node
            frontier.extend(child for _, child in node.children)
        return None

    def _iterate(self, root: Node, horizon: int, deadline: float) -> bool:
        """Select down the tree, expand one node, back its value up; False if out of time."""
        path: list[Node | Chance] = [root]
        node = parent = root
        stood: frozenset[str] | None = self._root_stood
        while node.children is not None and node.mover is not None:
            parent = node
            child = self._select(node)
            path.append(child)
            if type(child) is Chance:
                child = self._outcome(child)
                path.append(child)
            assert parent.state is not None and child.command is not None, "an expanded node"
            stood = after(stood, parent.state, child.command)
            node = child
        if node.mover is None:
            # A finished game: its value is exact and already backed up.
            if self.clock() > deadline:
                return False
        else:
            if node.state is None:
                assert parent.state is not None and node.command is not None, "a leaf's way back"
                node.state = parent.state.clone()
                node.state.apply(node.command)
            commands = node.state.legal_commands()
            if stood:
                commands = purposeful(commands, stood)
            # No expansion starts unless, at the slowest pace seen, it ends before the deadline.
            if self.clock() + len(commands) * self._child_seconds > deadline:
                return False
            if not self._expand(node, horizon, commands, deadline):
                return False
        for visited in path:
            visited.visits += 1
        for visited in reversed(path[:-1]):
            if type(visited) is Chance:
                visited.value = visited.expected()
            else:
                _back_up(visited)
        return True

    def _expand(
        self,
        node: Node,
        horizon: int,
        commands: list[Command],
        deadline: float,
        *,
        partial: bool = False,
    ) -> bool:
        """Evaluate the node's children and take the best one's value; False if the deadline
        came first.

        Slower children than expected can outlast the deadline: the expansion then stops
        there, so no decision runs over by more than one child's evaluation. With `partial`
        (the root, which must offer some choice) the children done so far are kept; otherwise
        the node stays unexpanded, never left with some of its commands missing.
        """
        begun = self.clock()
        state = node.state
        mover = node.mover
        assert state is not None and mover is not None, "a node is expanded where someone decides"
        evaluator = self.evaluator
        children: list[tuple[float, float, Command, Node | Chance]] = []
        for command in commands:
            if children and self.clock() > deadline:
                if not partial:
                    return False
                break
            chances = []
            for probability, outcome in state.chance_outcomes(command):
                child = state.clone()
                child.apply(outcome)
                chances.append(
                    (probability, Node(child, outcome, evaluator.values(child, horizon)))
                )
            edge: Node | Chance = chances[0][1] if len(chances) == 1 else Chance(chances)
            # The seeded generator breaks ties between equally valued commands.
            children.append((edge.value[mover], self._random.random(), command, edge))
        self._child_seconds = max(self._child_seconds, (self.clock() - begun) / len(children))
        children.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
        node.children = [(command, edge) for _, _, command, edge in children]
        node.value = children[0][3].value
        return True

    def _select(self, node: Node) -> Node | Chance:
        """The child maximising the mover's value plus an exploration bonus, among the widened."""
        children = node.children
        mover = node.mover
        assert children is not None and mover is not None, "selection is among a node's children"
        allowed = min(len(children), 1 + int(self.widening * math.sqrt(node.visits)))
        log_visits = math.log(node.visits)
        exploration = self.exploration
        best: Node | Chance | None = None
        best_score = -math.inf
        for _, child in children[:allowed]:
            score = child.value[mover] + exploration * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None, "an expanded node has children"
        return best

    @staticmethod
    def _outcome(chance: Chance) -> Node:
        """The outcome furthest behind its share of visits, so visits follow the odds."""
        total = chance.visits
        return max(chance.outcomes, key=lambda entry: entry[0] * total - entry[1].visits)[1]

    def _best(self, root: Node) -> tuple[Command, Node | Chance]:
        """The root's command of best max^n value for its seat, the more visited on a tie, and
        its subtree (the values are the search's best judgement; visits follow the bonus); a
        tree kept from the last decision may hold moves back to where the creature stood."""
        mover = root.mover
        assert root.children is not None and mover is not None, "the root is expanded"
        allowed = set(purposeful([command for command, _ in root.children], self._root_stood))
        return max(
            (entry for entry in root.children if entry[0] in allowed),
            key=lambda entry: (entry[1].value[mover], entry[1].visits),
        )


# What positions are compared by: everything in play, not the game or the last tally's text.
_COMPARED = tuple(name for name in FIELDS if name not in ("game", "last_tally"))
# How many positions of the kept subtree a new decision looks through for its own.
_REUSE_LOOKUP = 400


def _back_up(node: Node) -> None:
    """The node's value: its child's that is best for the seat deciding there (max^n)."""
    children = node.children
    mover = node.mover
    assert children is not None and mover is not None, "a node on a path was expanded"
    best = children[0][1].value
    for _, child in children:
        if child.value[mover] > best[mover]:
            best = child.value
    node.value = best


def _same(one: GameState, other: GameState) -> bool:
    """Whether two positions of one game are the same."""
    return all(getattr(one, name) == getattr(other, name) for name in _COMPARED)
