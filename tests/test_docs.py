"""The examples in docs/ run, and say what they claim."""

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
