"""`--lang en|fr` for the commands that print sentences; SUMMONERS_ISLE_LANG is its default.

Only the sentences change with the language: JSON keys, command types, ids and the
position line stay as they are, so scripts read every language alike.
"""

from __future__ import annotations

from typing import Annotated

import typer

# Typer carries its own copy of Click; its exceptions are only reachable there.
from typer._click import exceptions as click_errors
from typer._click.core import ParameterSource

from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, language_for

LANG_ENV = "SUMMONERS_ISLE_LANG"


def pick_language(ctx: typer.Context, param: typer.CallbackParam, value: str | None) -> str:
    """The --lang value checked: a language the catalogs have, else one line saying which."""
    if value is None or value == "":
        return DEFAULT_LANGUAGE
    # A locale such as fr_FR.UTF-8 names its language first.
    code = language_for(value)
    if code is None:
        # The environment is named when the value came from there, not from the command line.
        source = ctx.get_parameter_source(param.name or "lang")
        where = LANG_ENV if source is ParameterSource.ENVIRONMENT else "'--lang'"
        choices = " or ".join(LANGUAGES)
        raise click_errors.UsageError(f"{where} must be {choices}, not {value!r}", ctx)
    return code


Lang = Annotated[
    str,
    typer.Option(
        "--lang",
        envvar=LANG_ENV,
        metavar="en|fr",
        callback=pick_language,
        show_default=False,
        help=f"The language of the sentences: en or fr (default: ${LANG_ENV}, else en).",
    ),
]
