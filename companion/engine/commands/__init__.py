"""Every command type declared in one module: its check and effect, sentence, legal
commands, board spaces and chance outcomes together (boardgame.io's moves).

A module names its command's pydantic type (`models/commands.py`, the log format) and
declares it for each rule set that has it: `TABLE` and `DIGITAL`, each a `Declaration`
or None. Adding a command is its data in `models/commands.py`, one module here and its
line in `MODULES`; `tests/test_commands.py` holds the registry to that.
"""

from __future__ import annotations

from types import ModuleType

from companion.engine.commands import (
    activate,
    attack,
    correction,
    dominate,
    end_activation,
    energy_and_reset,
    late_removal,
    late_summon,
    move,
    pass_,
    removal,
    skip,
    summon,
    swap,
)
from companion.engine.commands._common import Declaration, Legal, Moment, Step, in_actions

MODULES: tuple[ModuleType, ...] = (
    summon,
    pass_,
    activate,
    move,
    attack,
    swap,
    end_activation,
    dominate,
    removal,
    correction,
    energy_and_reset,
    late_summon,
    late_removal,
    skip,
)


__all__ = ["MODULES", "Declaration", "Legal", "Moment", "Step", "in_actions"]
