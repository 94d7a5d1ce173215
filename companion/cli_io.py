"""What every command shares: reading JSON input, printing JSON, failing in one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

import typer

EXIT_BAD_INPUT = 2


class UserError(Exception):
    """Bad input: reported as one line, exit status 2."""


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Stop with one clear line on stderr."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(status)


def print_json(data: Any) -> None:
    """Write JSON to stdout."""
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def source_name(source: str) -> str:
    """How to name an input in a message: the path, or 'standard input' for '-'."""
    return "standard input" if source == "-" else source


def read_text(source: str) -> str:
    """A file's text, or standard input for '-'; UserError says what is wrong."""
    try:
        return sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UserError(f"cannot read {source_name(source)}: {reason}") from None


def parse_json(text: str, what: str) -> Any:
    """JSON from text, or UserError with the line and column of the mistake."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(
            f"malformed JSON in {what}: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None


def read_json(source: str) -> Any:
    """Parse JSON from a file path or '-' (stdin); UserError says what is wrong."""
    return parse_json(read_text(source), source_name(source))
