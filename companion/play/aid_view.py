"""The player aid as a device shows it: where it opens, and which parts a search finds.

The aid's content is `companion.aid.content.aid_sections`; here it is rendered in the
device's language (`AidPart`), opened at the part where the player is (`opening_part`) and
searched in the words the device shows (`search`), accents and case aside, what a search
found marked in each line (`marked`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from companion.aid.content import Section, aid_sections
from companion.aid.numbers import RuleNumbers
from companion.aid.page import cell_text
from companion.engine.constants import Phase
from companion.language.render import Language

# The part of the aid each phase opens at: Summoning at the round (its steps, the costs
# below), Actions at the creatures (actions, attack, bounty; the swap and movement below),
# Energy and Reset at the energy bands (the Sprites, domination and next order below), the
# end of the game at how it ends.
PHASE_PART = {
    Phase.SUMMONING: "round",
    Phase.ACTIONS: "creatures",
    Phase.ENERGY_AND_RESET: "energy",
    Phase.GAME_OVER: "end",
}
# An attack opens the aid at the odds of every attack.
ATTACK_PART = "odds"


def opening_part(
    phase: Phase | None = None, *, attacking: bool = False, reading: bool = False
) -> str | None:
    """The key of the part the aid opens at: the odds for an attack; the Energy and Reset's
    while its tally is being `reading` (play has gone on to the next round meanwhile); else
    the phase's part; None (the top) outside a game."""
    if attacking:
        return ATTACK_PART
    if reading:
        return PHASE_PART[Phase.ENERGY_AND_RESET]
    return None if phase is None else PHASE_PART[phase]


@dataclass(frozen=True, slots=True)
class AidTable:
    """A table as shown: its column heads, then rows that each start with their own head."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def transposed(self) -> AidTable:
        """The same table turned: its columns become rows (a wide table fits a phone)."""
        turned = list(zip(self.columns, *self.rows, strict=True))
        return AidTable(turned[0], tuple(turned[1:]))


@dataclass(frozen=True, slots=True)
class AidPart:
    """One section of the aid in a language: its key, title, sentences and table."""

    key: str
    title: str
    lines: tuple[str, ...]
    table: AidTable | None
    numbered: bool
    # Everything it says, folded (`fold`), for the search.
    folded: str


def fold(text: str) -> str:
    """`text` without accents or case: 'Égalité' and 'egalite' read alike."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def render_part(words: Language, section: Section) -> AidPart:
    """One section in `words`' language."""
    table = None
    if section.table is not None:
        table = AidTable(
            tuple(cell_text(words, cell) for cell in section.table.columns),
            tuple(tuple(cell_text(words, cell) for cell in row) for row in section.table.rows),
        )
    title = words.render(section.title)
    lines = tuple(words.render(line) for line in section.lines)
    said = [title, *lines]
    if table is not None:
        said += [*table.columns, *(cell for row in table.rows for cell in row)]
    return AidPart(section.key, title, lines, table, section.numbered, fold("\n".join(said)))


def aid_parts(words: Language, numbers: RuleNumbers | None = None) -> list[AidPart]:
    """The whole aid in `words`' language, in reading order."""
    return [render_part(words, section) for section in aid_sections(numbers)]


def search(parts: list[AidPart], query: str) -> list[AidPart]:
    """The parts that say every word of `query` (accents and case aside), in reading order;
    all of them for an empty query."""
    wanted = fold(query).split()
    return [part for part in parts if all(word in part.folded for word in wanted)]


def marked(text: str, query: str) -> list[tuple[str, bool]]:
    """`text` in runs, each True where it says a word of `query` (accents and case aside):
    'Égalité' in 'en cas d'égalité' for 'egalite'. One run, unmarked, for an empty query."""
    # Each character folded on its own, so that a match in the folded text points back at
    # the characters it came from.
    folded, origin = [], []
    for index, character in enumerate(text):
        for piece in fold(character):
            folded.append(piece)
            origin.append(index)
    plain = "".join(folded)
    hit = [False] * len(text)
    for word in fold(query).split():
        start = plain.find(word)
        while start >= 0:
            for position in range(start, start + len(word)):
                hit[origin[position]] = True
            start = plain.find(word, start + 1)
    runs: list[tuple[str, bool]] = []
    for character, found in zip(text, hit, strict=True):
        if runs and runs[-1][1] == found:
            runs[-1] = (runs[-1][0] + character, found)
        else:
            runs.append((character, found))
    return runs or [("", False)]
