"""`python -m companion aid [--lang fr] [--board ID]`: the player aid as a printable HTML page.

The page is the one the web server serves at /aid (docs/aid.md). An unknown board exits
with status 2 and one line naming the shipped ones.
"""

from __future__ import annotations

from typing import Annotated

import typer

from companion.aid.page import aid_page
from companion.boards import BoardError, shipped_board
from companion.cli.io import fail, unicode_argument
from companion.cli.language import Lang
from companion.language.render import DEFAULT_LANGUAGE, language, render


def aid(
    lang: Lang = DEFAULT_LANGUAGE,
    board: Annotated[
        str | None,
        typer.Option(
            help="A shipped board id: the page lists its territories and their bonuses.",
            callback=unicode_argument,
        ),
    ] = None,
) -> None:
    """Print the rules at a glance as an HTML page to print (see docs/aid.md)."""
    try:
        chosen = None if board is None else shipped_board(board)
    except BoardError as error:
        fail(render(error.message, lang))
    # Written as it is: the page escapes every name it shows, and its lines are its own.
    typer.echo(aid_page(language(lang), chosen), nl=False)
