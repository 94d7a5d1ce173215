"""The build: the rules engine compiled with mypyc where this machine can, else pure Python.

A wheel (`pip install .`, `pip wheel .`) compiles `companion/engine` when mypyc, a C
compiler and Python's headers are at hand; the Python sources ship beside the compiled
modules either way. Without a compiler, or if compiling fails, the build goes on and the
wheel holds the pure engine. An editable install (`make`'s) is never compiled: compiled
modules next to the sources would shadow every later edit. The wheel also carries
`companion/engine/compiled.json`, the hash of every source the compiled code was built
from, so that an edited installed source makes the engine run as Python
(`companion/engine/compiled.py`). docs/engine.md, "Speed", says more.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
ENGINE = ROOT / "companion" / "engine"
# Package `__init__` files stay Python, and so does `compiled.py`, which checks the build's
# sources before anything compiled loads, and the declarations' shape: mypyc cannot compile
# a generic dataclass (mypyc issue 827).
PYTHON_ONLY = {"__init__.py", "compiled.py", "_declaration.py"}
# Our own packages: the compiled code is type-checked, and can be shaped, by what it imports
# from them, so their sources count in the build's hash too.
OURS = ("companion", "models")
MANIFEST = "companion/engine/compiled.json"


def compiled_sources() -> list[Path]:
    """The engine's modules mypyc compiles."""
    return sorted(p for p in ENGINE.rglob("*.py") if p.name not in PYTHON_ONLY)


def module_path(name: str) -> Path | None:
    """The source file of one of our modules (or packages), if it is one."""
    path = ROOT.joinpath(*name.split("."))
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    file = path.with_suffix(".py")
    return file if file.is_file() else None


def imported_sources(roots: list[Path]) -> list[Path]:
    """The roots and every source of ours they import, directly or not (parents included)."""
    seen: set[Path] = set()
    todo = list(roots)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] not in OURS:
                    continue
                for end in range(1, len(parts) + 1):
                    found = module_path(".".join(parts[:end]))
                    if found is not None:
                        todo.append(found)
    return sorted(seen)


def digest(path: Path) -> str:
    """A source file's hash, as `companion/engine/compiled.py` computes it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiler_missing() -> str | None:
    """Why this machine cannot compile C extensions, or None if it looks like it can."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]})"
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    if not headers.is_file():
        return "no Python headers (Debian: python3-dev)"
    return None


class CompiledEngine(build_ext):
    """Build the engine with mypyc, or leave it pure Python saying why."""

    def finalize_options(self) -> None:
        """Decide whether to compile, and have mypyc write the C code if so."""
        self.set_undefined_options(
            "build", ("build_lib", "build_lib"), ("build_temp", "build_temp")
        )
        self.pure_why: str | None = (
            "an editable or in-place build runs the sources as they are"
            if self.inplace or self.editable_mode
            else compiler_missing()
        )
        if self.pure_why is None:
            try:
                from mypyc.build import mypycify

                self.distribution.ext_modules = mypycify(
                    [
                        f"--cache-dir={Path(self.build_temp, 'mypy')}",
                        *(str(p.relative_to(ROOT)) for p in compiled_sources()),
                    ],
                    target_dir=str(Path(self.build_temp, "mypyc")),
                    group_name="companion_engine",
                )
            except (Exception, SystemExit) as error:
                self.pure_why = f"mypyc failed ({type(error).__name__}: {error})"
        super().finalize_options()

    def run(self) -> None:
        """Compile into the build folder only; on any failure the pure engine ships alone."""
        self._forget_compiled()
        if self.pure_why is None:
            try:
                super().run()
            except (Exception, SystemExit) as error:
                self._forget_compiled()
                self.pure_why = f"compiling failed ({type(error).__name__}: {error})"
        if self.pure_why is not None:
            print(f"note: the rules engine stays pure Python: {self.pure_why}", file=sys.stderr)
            self.extensions = []
            return
        sources = compiled_sources()
        manifest = {
            "modules": [_module_name(p) for p in sources],
            "sources": {str(p.relative_to(ROOT)): digest(p) for p in imported_sources(sources)},
        }
        out = Path(self.build_lib, MANIFEST)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")

    def _forget_compiled(self) -> None:
        """Remove what an earlier build compiled into the build folder: nothing stale ships."""
        build_lib = Path(self.build_lib)
        Path(build_lib, MANIFEST).unlink(missing_ok=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        stale = [build_lib / p.relative_to(ROOT).with_suffix(suffix) for p in compiled_sources()]
        stale += build_lib.glob(f"companion_engine__mypyc*{suffix}")
        for path in stale:
            path.unlink(missing_ok=True)


def _module_name(path: Path) -> str:
    """A source's module name, e.g. companion.engine.state."""
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


class BinaryDistribution(Distribution):
    """A distribution whose build runs build_ext, so the engine may be compiled."""

    def has_ext_modules(self) -> bool:
        """Always: mypyc makes the extensions once build_ext is finalized, not before."""
        return True


setup(distclass=BinaryDistribution, cmdclass={"build_ext": CompiledEngine})
