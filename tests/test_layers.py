"""The layers import only downwards: models <- engine <- bots, store, aid <- play <- app <- cli;
the load generator (load) stands beside the command line, outside the app it loads.

Read from the source (every import statement, those inside functions too), so a layer
cannot reach up even lazily.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# How the engine applies, settles and checks commands: GameState is the way in.
ENGINE_WORKINGS = {
    "companion.engine.ahead",
    "companion.engine.commands",
    "companion.engine.flow",
    "companion.engine.movement",
    "companion.engine.rulesets",
}
# What each layer must never import: a package, or any module inside it.
FORBIDDEN = {
    # models/records.py holds the store's SQLModel tables: SQLModel is part of the data model.
    "models": {"companion", "flet"},
    # The engine is pure: no UI, no storage, no clock, no randomness of its own.
    "companion/engine": {
        "companion.app",
        "companion.bots",
        "companion.store",
        "flet",
        "sqlmodel",
        "sqlalchemy",
        "random",
        "models.seeded_dice",
        "time",
        "datetime",
    },
    # Bots and screens ask the engine through GameState, not its working parts.
    "companion/bots": {
        "companion.app",
        "companion.play",
        "companion.store",
        "flet",
        "sqlmodel",
        "sqlalchemy",
    }
    | ENGINE_WORKINGS,
    # The play layer decides what a device may do and when; it draws nothing.
    "companion/play": {"companion.app", "flet"} | ENGINE_WORKINGS,
    # The app serves; the load generator and the command line that runs it are its clients.
    "companion/app": {"companion.cli", "companion.load"} | ENGINE_WORKINGS,
    # The load generator reaches the app as a browser does, over its websocket, never by its
    # code (but the keys a browser keeps for it); it sets tables up through play/ and store/.
    "companion/load": {"companion.app", "companion.cli", "flet"} | ENGINE_WORKINGS,
    # The player aid is made from the rules table and the engine's odds; the app, the web
    # server and the command line show it.
    "companion/aid": {
        "companion.app",
        "companion.bots",
        "companion.cli",
        "companion.play",
        "companion.store",
        "flet",
        "sqlmodel",
        "sqlalchemy",
    }
    | ENGINE_WORKINGS,
    "companion/store": {"companion.app", "companion.play", "companion.bots", "flet"},
}
# What a layer may import all the same: models say why input is refused as messages, pure
# data (companion.language.message imports nothing); rendering them (Babel) is above. The
# load generator's devices keep what a browser keeps, under the app's keys.
ALLOWED = {"models": {"companion.language.message"}, "companion/load": {"companion.app.kept"}}


def imported(path: Path) -> set[str]:
    """Every module an import statement in the file names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def reaches(name: str, forbidden: set[str]) -> bool:
    """Whether a module name is one of the forbidden packages or inside one."""
    return any(name == package or name.startswith(package + ".") for package in forbidden)


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files
    wrong = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in files
        for name in sorted(imported(path))
        if reaches(name, FORBIDDEN[layer]) and name not in ALLOWED.get(layer, set())
    ]
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_imports_inside_functions(tmp_path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from companion.bots import make_bot\n", encoding="utf-8")
    assert imported(lazy) == {"companion.bots"}
    assert reaches("companion.bots", FORBIDDEN["models"])
    assert not reaches("companionship", FORBIDDEN["models"])


def test_the_package_root_holds_only_the_entry_points():
    # Every other module sits in a folder that names its layer (README, Layout).
    loose = sorted(path.name for path in (ROOT / "companion").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]


# The logic under the screens: plain Python, tested without a browser (and without Flet). The
# whole play layer, and the app's drawing arithmetic.
APP_LOGIC = [
    "companion.app.sizes",
    *sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "companion" / "play").rglob("*.py")
    ),
]


def test_the_apps_logic_loads_without_flet():
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys\nfor name in {APP_LOGIC!r}: __import__(name)\n"
            "print(sorted(m for m in sys.modules if m == 'flet' or m.startswith('flet.')))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert loaded.stdout.strip() == "[]"
