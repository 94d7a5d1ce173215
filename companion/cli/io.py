"""What every command shares: reading JSON input, printing JSON, failing in one line."""

from __future__ import annotations

import errno
import json
import os
import sys
from enum import StrEnum
from typing import Any, NoReturn

import typer
from pydantic import ValidationError

# Typer carries its own copy of Click; its exceptions are only reachable there.
from typer._click import exceptions as click_errors
from typer.core import TyperGroup

from companion.language import Message
from models.problems import problem
from models.strict_json import MAX_INPUT_BYTES, JSONInputError, loads, read_bounded
from models.text import json_printable, printable, text_problem

EXIT_BAD_INPUT = 2
EXIT_NOT_WRITTEN = 1
# What writing to a full disk (or past a quota or a size limit, or to a failing device) says.
_OUTPUT_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


class Clock(StrEnum):
    """What the bots of a simulation read their budgets on, or a bench's playouts are timed on."""

    WALL = "wall"
    CPU = "cpu"


class UserError(Exception):
    """Bad input: reported as one line, exit status 2."""


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Stop with one clear line on stderr."""
    # Escaped: a message may quote input, and a newline in it would forge a second line.
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(status)


def interrupted() -> NoReturn:
    """Ctrl-C: say so in one line and stop with status 130."""
    typer.echo("interrupted", err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    # Not sys.exit: the exit handlers of a process pool whose workers Ctrl-C already
    # stopped can print a traceback of their own while the interpreter shuts down.
    os._exit(130)


def output_failed(error: OSError) -> NoReturn:
    """Standard output could not be written: say so in one line on stderr, status 1."""
    # Whatever is still buffered goes nowhere, so no later flush fails again.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    said = Message("input.output.failed", why=error.strerror or str(error))
    typer.echo(f"error: {said}", err=True)
    sys.exit(EXIT_NOT_WRITTEN)


class OneLineErrors(TyperGroup):
    """A command group whose usage errors are one line, like every other error of the CLI."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command; a usage mistake prints `error: ...` and exits with status 2."""
        kwargs["standalone_mode"] = False
        if not standalone_mode:
            return super().main(*args, **kwargs)
        try:
            try:
                status = super().main(*args, **kwargs)
            finally:
                # What is still buffered is written now, while a failure can be said in one
                # line (at the interpreter's exit it would be a message of its own).
                sys.stdout.flush()
        except OSError as error:
            # Standard output on a full disk (`> /dev/full`); a closed pipe ends quietly, as
            # Typer has it (status 1).
            if error.errno not in _OUTPUT_FULL:
                raise
            output_failed(error)
        except click_errors.NoArgsIsHelpError as error:
            error.show()
            sys.exit(error.exit_code)
        except click_errors.ClickException as error:
            message = " ".join(error.format_message().split())
            # Typer checks option values with pydantic: say what is wrong in our words.
            if isinstance(error, click_errors.BadParameter) and isinstance(
                error.__cause__, ValidationError
            ):
                hint = error.param.get_error_hint() if error.param else ""
                # Before any --lang is read: English.
                message = str(problem(error.__cause__, subject=hint or "the value"))
            typer.echo(f"error: {printable(message)}", err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(status if isinstance(status, int) else 0)


def unicode_argument(value: str | None) -> str | None:
    """A text argument (not a file's path) as given, if it is valid Unicode: a terminal whose
    bytes are not UTF-8 gives lone surrogates, which no game, file or screen can hold."""
    said = None if value is None else text_problem(value, Message("input.what.argument"))
    if said is not None and said.id == "input.text.surrogate":
        # Before any --lang is read: English.
        raise typer.BadParameter(str(said))
    return value


def text_option(help_text: str, *names: str) -> Any:
    """A typer option whose value is text typed by a person, checked by `unicode_argument`."""
    return typer.Option(*names, help=help_text, callback=unicode_argument)


def echo(text: str) -> None:
    """Write text for a person to stdout, control characters shown as escapes."""
    typer.echo(printable(text))


def print_json(data: Any) -> None:
    """Write JSON to stdout."""
    typer.echo(json_printable(json.dumps(data, indent=2, ensure_ascii=False)))


def source_name(source: str) -> str:
    """How to name an input in a message: the path, or 'standard input' for '-'."""
    return "standard input" if source == "-" else source


def read_text(source: str, limit: int = MAX_INPUT_BYTES) -> str:
    """A file's text, or standard input for '-', of at most `limit` bytes; UserError says
    what is wrong."""
    what = source_name(source)
    try:
        if source == "-":
            return read_bounded(sys.stdin.buffer, what, limit)
        with open(source, "rb") as stream:
            return read_bounded(stream, what, limit)
    except JSONInputError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"cannot read {what}: {error.strerror or error}") from None


def parse_json(text: str, what: str) -> Any:
    """JSON from text, strictly (see models.strict_json); UserError says what is wrong."""
    try:
        return loads(text, what)
    except JSONInputError as error:
        raise UserError(str(error)) from None


def read_json(source: str) -> Any:
    """Parse JSON from a file path or '-' (stdin); UserError says what is wrong."""
    return parse_json(read_text(source), source_name(source))
