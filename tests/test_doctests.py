"""The examples in module docstrings (`>>>`) run and print what they show."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for folder in ("companion", "models")
    for path in (ROOT / folder).rglob("*.py")
    if ">>>" in path.read_text(encoding="utf-8")
)


def test_some_modules_carry_examples():
    assert {"companion.engine", "companion.store.store"} <= set(WITH_EXAMPLES)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_module_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {name}'s examples failed"
