"""Outside the engine, GameState is read only through its queries.

GameState keeps seat- and kind-indexed arrays (`occupant`, `pending`, `reserve`, ...) for
speed; views and bots ask `companion/engine/queries.py` (or GameState's query methods)
in player and location ids instead. Read from the source: an attribute of a GameState
internal's name, on an expression that holds a state, fails the test. Bots' fast path is
`position_keys.search_view`, an engine function; they do not read the fields themselves.
"""

import ast
from pathlib import Path

from companion.engine.state import FIELDS

ROOT = Path(__file__).resolve().parent.parent
# The slots that are public as they are: ids, plain numbers and the engine's own values.
PUBLIC = {"game", "round", "phase", "summoner", "last_tally"}
INTERNAL = set(FIELDS) - PUBLIC
# Names that hold a state wherever they appear, by the code's own convention.
STATE_NAMES = {"state", "trial"}
# Calls whose result is a state.
MAKES_STATE = {"clone", "new_initial_state", "initial", "replay"}


def _holds_state(node: ast.expr, names: set[str]) -> bool:
    """Whether an expression is (by name or by how it was made) a GameState."""
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        return node.attr == "state"
    if isinstance(node, ast.Call):
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        return name in MAKES_STATE
    return False


def _annotated_state(annotation: ast.expr | None) -> bool:
    text = ast.unparse(annotation) if annotation is not None else ""
    return "GameState" in text


def internal_reads(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every read of a GameState internal field in a module's source."""
    tree = ast.parse(source)
    names = set(STATE_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and _annotated_state(node.annotation):
            names.add(node.arg)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if _annotated_state(node.annotation):
                names.add(node.target.id)
        elif isinstance(node, ast.Assign) and _holds_state(node.value, names):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return [
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in INTERNAL
        and _holds_state(node.value, names)
    ]


def test_the_internal_fields_are_the_seat_indexed_ones():
    assert {"occupant", "pending", "reserve", "on_board", "ready", "returning"} <= INTERNAL
    assert {"face_down", "step_removals", "declined", "energy", "turn_order", "winner"} <= INTERNAL
    assert set(FIELDS) >= PUBLIC


def test_nothing_outside_the_engine_reads_gamestates_internal_fields():
    files = [
        path
        for path in sorted((ROOT / "companion").rglob("*.py"))
        if "engine" not in path.relative_to(ROOT / "companion").parts
    ]
    assert any("app" in path.parts for path in files)
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {expression}"
        for path in files
        for line, expression in internal_reads(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, "read through companion/engine/queries.py instead:\n" + "\n".join(wrong)


def test_the_scan_finds_reads_by_name_through_a_session_and_on_a_copy():
    source = """
def view(state, session, other: GameState, tally):
    a = state.occupant[0]
    b = session.state.pending
    copy = other.clone()
    c = copy.energy
    d = other.reserve
    e = tally.turn_order
    f = piece.face_down
    g = state.round
"""
    found = [expression for _, expression in sorted(internal_reads(source))]
    assert found == ["state.occupant", "session.state.pending", "copy.energy", "other.reserve"]
