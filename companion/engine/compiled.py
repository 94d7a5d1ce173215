"""Which rules engine runs: compiled by mypyc, or the pure Python one, never a stale one.

A wheel built where a C compiler was at hand holds the engine's modules compiled beside
their Python sources, and `compiled.json`: the compiled modules, and the hash of every
source of ours the compiled code was built from (`setup.py`). Python would load a compiled
module before its source, so an installed source edited after the build would be ignored.
Before any other engine module loads, `use_sources_if_edited` compares the hashes: if one
source differs, every compiled module loads from its source instead (compiled modules call
each other directly, so it is all of them or none). Elsewhere (a checkout, an editable
install, a build without a compiler) nothing is compiled and nothing happens here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

MANIFEST = Path(__file__).resolve().parent / "compiled.json"
# The folder holding the `companion` and `models` packages: the manifest's paths start there.
ROOT = MANIFEST.parents[2]
# The installed sources that differ from the ones compiled, once checked.
edited: list[str] = []


class _Sources(MetaPathFinder):
    """Finds the compiled modules' Python sources, ahead of the compiled modules."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of a compiled module's source; None for every other module."""
        if fullname not in self.modules or path is None:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = Path(folder, leaf)
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def use_sources_if_edited() -> None:
    """Load the engine from its sources if one differs from what was compiled (see above)."""
    if edited or not MANIFEST.is_file():
        return
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    for name, expected in sorted(manifest["sources"].items()):
        source = ROOT / name
        if not source.is_file() or hashlib.sha256(source.read_bytes()).hexdigest() != expected:
            edited.append(name)
    if edited:
        sys.meta_path.insert(0, _Sources(manifest["modules"]))


def engine() -> str:
    """'compiled' when the engine runs as mypyc-compiled code, else 'pure'."""
    from companion.engine import state

    return "pure" if (state.__file__ or "").endswith(".py") else "compiled"
