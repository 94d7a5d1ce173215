"""The player aid as one printable HTML page: self-contained (its style inline, the reader's
own fonts, no request to any host), black on white, two A4 or Letter sides."""

from __future__ import annotations

from fractions import Fraction
from html import escape

from babel.numbers import format_percent

from companion.aid.content import Cell, Section, Table, aid_sections
from companion.aid.numbers import RuleNumbers
from companion.engine.names import board_term
from companion.language import Message
from companion.language.render import Language
from models.board import Board

# Printed in two columns of small type; on a narrow screen, one; on a phone, the tables take
# the whole width and break their words rather than the page.
STYLE = """
@page { margin: 10mm; }
html { font: 8.6pt/1.3 "DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif;
  color: #000; background: #fff; }
body { margin: 0 auto; padding: 4mm; max-width: 190mm; }
header { border-bottom: 1.5pt solid #000; margin-bottom: 3mm; }
h1 { font-size: 14pt; margin: 0 0 1mm; }
header p { margin: 0 0 1.5mm; }
main { column-count: 2; column-gap: 6mm; }
section { break-inside: avoid; margin: 0 0 3mm; }
h2 { font-size: 10.5pt; margin: 0 0 1mm; border-bottom: 0.75pt solid #000; }
p, li { margin: 0 0 1mm; }
ol { margin: 0 0 1mm; padding-left: 6.5mm; }
table { border-collapse: collapse; margin: 1mm 0 1.5mm; max-width: 100%; font-size: 8pt; }
th, td { border: 0.5pt solid #000; padding: 0.3mm 1mm; text-align: center; }
th[scope=row] { text-align: left; }
thead th { font-weight: bold; }
footer { border-top: 0.75pt solid #000; margin-top: 2mm; font-size: 7.5pt; }
@media screen and (max-width: 640px) { main { column-count: 1; } }
@media screen and (max-width: 420px) { body { padding: 2mm; } table { width: 100%; }
  th, td { padding: 0.3mm 0.5mm; overflow-wrap: anywhere; } }
"""


def cell_text(words: Language, cell: Cell) -> str:
    """A table cell in `words`' language: a chance as a percentage, a name without article."""
    if isinstance(cell, Fraction):
        return str(format_percent(float(cell), locale=words.locale))
    if isinstance(cell, int):
        return words.number(cell)
    return words.value(cell, "nu")


def table_html(words: Language, table: Table) -> str:
    """One table: a head row, then rows each led by their own head."""
    head = "".join(f'<th scope="col">{escape(cell_text(words, c))}</th>' for c in table.columns)
    rows = []
    for first, *cells in table.rows:
        shown = "".join(f"<td>{escape(cell_text(words, c))}</td>" for c in cells)
        rows.append(f'<tr><th scope="row">{escape(cell_text(words, first))}</th>{shown}</tr>')
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def section_html(words: Language, section: Section) -> str:
    """One section: its title, its sentences, its table after them."""
    said = [escape(words.render(line)) for line in section.lines]
    if section.numbered:
        body = "<ol>" + "".join(f"<li>{line}</li>" for line in said) + "</ol>"
    else:
        body = "".join(f"<p>{line}</p>" for line in said)
    table = "" if section.table is None else table_html(words, section.table)
    title = escape(words.render(section.title))
    return f'<section id="{section.key}"><h2>{title}</h2>{body}{table}</section>'


def aid_page(
    words: Language, board: Board | None = None, numbers: RuleNumbers | None = None
) -> str:
    """The whole aid as an HTML document in `words`' language, with `board`'s territories."""
    title = escape(words.render(Message("aid.page.title")))
    subtitle = ""
    if board is not None:
        naming = Message("aid.page.board", board=board_term(board, short=True))
        subtitle = f"<p>{escape(words.render(naming))}</p>"
    sections = "\n".join(section_html(words, s) for s in aid_sections(numbers, board))
    source = escape(words.render(Message("aid.page.source")))
    return (
        f'<!doctype html>\n<html lang="{words.code}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{title}</h1>{subtitle}</header>\n<main>\n{sections}\n</main>\n"
        f"<footer><p>{source}</p></footer>\n</body>\n</html>\n"
    )
