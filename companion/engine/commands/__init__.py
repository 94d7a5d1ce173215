"""Every command type declared in one module: its check and effect, sentence, legal
commands, board spaces and chance outcomes together (boardgame.io's moves).

A module names its command's type (`models/commands.py`, the log format, registered there
by `@command`) and declares it for each rule set that has it: `TABLE` and `DIGITAL`, each a
`Declaration` (generic over the command, so mypy checks every part) or None. Adding a
command is its class in `models/commands.py`, its module here (found by being in this
package) and its messages; `tests/test_commands.py` holds the registry to that.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from companion.engine.commands._declaration import Declaration, Legal, Moment, Step, in_actions


def _modules() -> tuple[ModuleType, ...]:
    """Every command module of this package, by name: a new one is found by being here."""
    names = sorted(
        info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_")
    )
    return tuple(importlib.import_module(f"{__name__}.{name}") for name in names)


MODULES: tuple[ModuleType, ...] = _modules()


__all__ = ["MODULES", "Declaration", "Legal", "Moment", "Step", "in_actions"]
