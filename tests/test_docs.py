"""The examples in docs/ run, and say what they claim."""

import ast
import fnmatch
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def blocks(name: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (DOCS / name).read_text(), re.S)


WITH_PYTHON = sorted(p.name for p in DOCS.glob("*.md") if blocks(p.name, "python"))


def test_the_docs_carry_python_examples():
    assert {"engine.md", "store.md"} <= set(WITH_PYTHON)


@pytest.mark.parametrize("name", WITH_PYTHON)
def test_python_examples_run(name, capsys):
    for block in blocks(name, "python"):
        exec(compile(block, name, "exec"), {})
        printed = capsys.readouterr().out
        # Each '# ...' comment after a print states what that line prints.
        claims = re.findall(r"print\(.*\)\s+# (.+)", block)
        for claim in claims:
            assert claim.strip() in printed, f"{name}: {claim!r} not printed"


def test_tally_doc_example_matches_the_command():
    request, response = blocks("tally.md", "json")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "tally", "-"],
        input=request,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout) == json.loads(response)


def test_game_log_doc_example_is_a_valid_log():
    from models.game_log import GameLog

    (example,) = blocks("game-log.md", "json")
    log = GameLog.model_validate_json(example)
    assert len(log.parsed_commands()) == 5


# Names the docs quote as code (`GameState.from_position`, `companion/app/visit.py`,
# `models.seeded_dice.SeededDice`) must name code that exists. Read with ast, not imported.
ROOT = DOCS.parent
HERE = Path(__file__).resolve().relative_to(ROOT).as_posix()
SOURCES = ("models", "companion", "tests")
TOP = (*SOURCES, "docs", "assets")
FILE_ENDINGS = (".py", ".md")
# What a dotted name ending so names: a file, never code.
OTHER_FILES = ("wasm", "sqlite3", "json", "png", "ini", "toml", "po", "h")
# Objects of Flet's that the docs name by their usual variable.
FOREIGN = {"page"}
# Other tools' names the docs quote (SQLAlchemy, nginx, PostgreSQL, gettext, uvicorn).
THEIRS = {
    "pool_pre_ping",
    "least_conn",
    "pg_total_relation_size",
    "msgid_plural",
    "ProxyHeadersMiddleware",
}
# A lone name that can only be code: with an underscore, or CamelCase.
CODE_WORD = re.compile(r"_?[a-z]+(?:_[a-z0-9]+)+|_?[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+")
# Files the docs name that a build or a run makes, or that the docs say are not needed.
MADE_ELSEWHERE = {"companion/engine/compiled.json", "alembic.ini"}
QUOTED = re.compile(r"`([^`\s]+)`")
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _members(node: ast.ClassDef) -> set[str]:
    """What a class defines: methods, class attributes, fields and what `self.` is given."""
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(child.name)
        targets = []
        if isinstance(child, ast.Assign):
            targets = child.targets
        elif isinstance(child, (ast.AnnAssign, ast.AugAssign)):
            targets = [child.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Name):
                    names.add(part.id)
                elif isinstance(part, ast.Attribute):
                    names.add(part.attr)
    return names


def _words(tree: ast.Module) -> set[str]:
    """Every name a module defines, reads, passes or keys a dictionary with."""
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            words.add(node.name)
        elif isinstance(node, (ast.arg, ast.keyword)) and node.arg:
            words.add(node.arg)
        elif isinstance(node, ast.alias):
            words |= set((node.asname or node.name).split("."))
        elif isinstance(node, ast.Constant) and str(node.value).isidentifier():
            words.add(str(node.value))
    return words


def _table_names(node: ast.ClassDef) -> list[str]:
    """The SQL table a record class is stored in (its `__tablename__`), if any."""
    return [
        child.value.value
        for child in node.body
        if isinstance(child, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__tablename__" for t in child.targets)
        and isinstance(child.value, ast.Constant)
    ]


class _Index:
    """The classes and modules of the sources, by name."""

    def __init__(self) -> None:
        self.files = [p.relative_to(ROOT).as_posix() for p in _repo_files()]
        self.classes: dict[str, list[tuple[set[str], list[str]]]] = {}
        self.modules: dict[str, set[str]] = {}
        self.tables: dict[str, set[str]] = {}
        self.names: set[str] = set()
        # Every word the sources use as a name: defined, read, passed, or a string key.
        self.words: set[str] = set()
        for name in self.files:
            # This file names wrong names on purpose.
            if not name.endswith(".py") or not name.startswith(SOURCES) or name == HERE:
                continue
            tree = ast.parse((ROOT / name).read_text())
            dotted = name[: -len(".py")].replace("/", ".").removesuffix(".__init__")
            self.words |= _words(tree) | set(dotted.split("."))
            top: set[str] = set()
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    bases = [b.id if isinstance(b, ast.Name) else "" for b in node.bases]
                    self.classes.setdefault(node.name, []).append((_members(node), bases))
                    self.names |= _members(node)
                    for table in _table_names(node):
                        self.tables[table] = _members(node)
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    top |= {(a.asname or a.name).split(".")[0] for a in node.names}
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    top.add(node.name)
                else:
                    top |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            self.modules[dotted] = top
            self.names |= top
            package, _, last = dotted.rpartition(".")
            self.modules.setdefault(package, set()).add(last)

    def has_member(self, cls: str, name: str, seen: frozenset[str] = frozenset()) -> bool:
        for members, bases in self.classes.get(cls, []):
            if name in members:
                return True
            if any(self.has_member(b, name, seen | {cls}) for b in bases if b not in seen):
                return True
        return False

    def missing(self, quoted: str) -> str | None:
        """Why a quoted name names nothing in the repo, or None if it does (or is not ours)."""
        name = quoted.split("(")[0].split("[")[0].rstrip(":,.")
        if name in MADE_ELSEWHERE:
            return None
        if name.endswith(FILE_ENDINGS) or ("/" in name and name.split("/")[0] in TOP):
            pattern = re.sub(r"<\w+>", "*", name.rstrip("/"))
            if pattern.startswith(("/", "~", ".")) or ("<" in name and "/" not in name):
                return None
            if "/" not in name:
                found = any(fnmatch.fnmatch(f.rsplit("/", 1)[-1], pattern) for f in self.files)
            else:
                found = any(
                    fnmatch.fnmatch(f, pattern)
                    or fnmatch.fnmatch(f, "*/" + pattern)
                    or f.startswith(pattern + "/")
                    for f in self.files
                )
            return None if found or _ignored(name) else "no such file"
        if CODE_WORD.fullmatch(name):
            if name in self.words or name in self.classes or name in THEIRS:
                return None
            return "defined nowhere"
        if not DOTTED.fullmatch(name) or name.rsplit(".", 1)[-1] in OTHER_FILES:
            return None
        first, *rest = name.split(".")
        if first in SOURCES:
            parts = [first]
            while rest and ".".join([*parts, rest[0]]) in self.modules:
                parts.append(rest.pop(0))
            module = ".".join(parts)
            if not rest:
                return None
            if rest[0] not in self.modules[module]:
                return f"{module} has no {rest[0]}"
            first, *rest = rest
            if first not in self.classes:
                return None
        if not rest:
            return None
        if first in self.classes:
            if not self.has_member(first, rest[0]):
                return f"{first} has no {rest[0]}"
            return None
        # A module by its last name (`dice.attack_odds`), a table's column (`games.secret`),
        # an object named after its class (`app.bus`, `seats.take`): the name must be defined
        # somewhere in the sources.
        kind = first.capitalize()
        ours = (
            first in self.tables
            or any(m.rsplit(".", 1)[-1] == first for m in self.modules)
            or any(cls.endswith(kind) for cls in self.classes)
        )
        if ours and first not in FOREIGN and rest[0] not in self.names:
            return f"{first} has no {rest[0]}"
        return None


def _repo_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [ROOT / name for name in listed if (ROOT / name).exists()]


def _ignored(path: str) -> bool:
    """Whether git ignores the path: what the tests write (tests/artifacts/)."""
    return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0


def quoted_names(text: str) -> set[str]:
    """The names a doc quotes as code, outside its code blocks."""
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    return set(QUOTED.findall(prose))


@pytest.fixture(scope="module")
def index() -> _Index:
    return _Index()


PAGES = sorted([*(f"docs/{p.name}" for p in DOCS.glob("*.md")), "README.md", "CHANGELOG.md"])


@pytest.mark.parametrize("name", PAGES)
def test_names_quoted_as_code_exist(name, index):
    wrong = {
        quoted: why
        for quoted in quoted_names((ROOT / name).read_text())
        if (why := index.missing(quoted)) is not None
    }
    assert not wrong, f"{name} quotes code that does not exist: {wrong}"


def test_a_wrong_name_is_found(index):
    assert index.missing("GameState.from_position") is None
    assert index.missing("companion/play/visit.py") is None
    assert index.missing("models.seeded_dice.SeededDice") is None
    assert index.missing("GameState.describe") == "GameState has no describe"
    assert index.missing("App.announce") == "App has no announce"
    assert index.missing("dice.nowhere") == "dice has no nowhere"
    assert index.missing("games.nowhere") == "games has no nowhere"
    assert index.missing("seat_name") == "defined nowhere"
    assert index.missing("seat_naming") is None
    assert index.missing("companion/app/nowhere.py") == "no such file"
    assert index.missing("companion.engine.nowhere") == "companion.engine has no nowhere"
