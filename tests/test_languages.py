"""Languages: the catalogs are complete and agree, and French grammar and plurals come out right.

The completeness check parses both catalogs with Babel: every message id has an English
and a French text naming the same values, every id the code builds is in them and every
id in them is used, and every shipped name has its French entry.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from companion.boards import shipped_board, shipped_board_ids
from companion.engine.names import board_context, board_term, kind_term, kinds_term
from companion.language import Message, Term
from companion.language.grammar import FORMS
from companion.language.render import (
    LANGUAGES,
    UnknownLanguage,
    catalog,
    format_number,
    render,
    render_value,
)
from models.rules import CreatureKind

ROOT = Path(__file__).resolve().parent.parent


def entries(code: str) -> dict[tuple[str | None, str], object]:
    """A catalog's texts by (context, id), parsed by Babel from the shipped .po file."""
    parsed = catalog(code)
    found = {}
    for entry in parsed:
        if not entry.id:
            continue  # the header
        key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        found[entry.context, key] = entry.string
    return found


def messages(code: str) -> dict[str, object]:
    """A catalog's messages (entries without a context), by id."""
    return {key: text for (context, key), text in entries(code).items() if context is None}


def fields(text: str) -> set[str]:
    """The value names a catalog text refers to."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def texts(text: object) -> list[str]:
    """A singular text, or each plural form."""
    return list(text) if isinstance(text, tuple) else [str(text)]


# Where messages are built: the app, engine and CLI, and the models' refusals of input.
SOURCES = ("companion", "models")


def used_ids() -> dict[str, str]:
    """Every message id the code builds, `Message("id", ...)`, with where it is built."""
    found = {}
    for folder in SOURCES:
        for path, line, message, _, _ in extract_from_dir(
            str(ROOT / folder), method_map=[("**.py", "python")], keywords={"Message": None}
        ):
            found[message] = f"{folder}/{path}:{line}"
    return found


def test_every_message_has_an_english_and_a_french_text():
    english, french = messages("en"), messages("fr")
    assert english, "the English catalog has messages"
    assert sorted(set(english) - set(french)) == [], "no French text"
    assert sorted(set(french) - set(english)) == [], "no English text"
    empty = [
        f"{code} {key}"
        for code in LANGUAGES
        for key, text in messages(code).items()
        if not all(texts(text))
    ]
    assert empty == []


def test_english_and_french_name_the_same_values():
    # A plural form may leave a value out ('le Troll' for one, 'les 2 Trolls'), so each
    # language's forms together must name the same values as the other language's.
    english, french = messages("en"), messages("fr")
    wrong = []
    for key, text in english.items():
        ours = set().union(*(fields(form) for form in texts(text)))
        theirs = set().union(*(fields(form) for form in texts(french[key])))
        if ours != theirs:
            wrong.append(f"{key}: {sorted(ours)} in English, {sorted(theirs)} in French")
    assert wrong == []


def test_a_plural_message_is_plural_in_both():
    english, french = messages("en"), messages("fr")
    for key, text in english.items():
        assert isinstance(text, tuple) == isinstance(french[key], tuple), key


def test_catalog_texts_ask_only_for_forms_the_grammar_has():
    for code in LANGUAGES:
        for text in entries(code).values():
            for form in texts(text):
                for _, name, spec, _ in string.Formatter().parse(form):
                    if name is not None:
                        assert spec in (*FORMS, "+", "^") or spec.lower() in FORMS, (code, form)


def test_every_id_the_code_builds_is_in_the_catalogs_and_every_catalog_id_is_built():
    built = used_ids()
    known = set(messages("en"))
    assert sorted(f"{key} ({where})" for key, where in built.items() if key not in known) == []
    # Ids built through a helper are in the source as strings too.
    source = "\n".join(
        p.read_text(encoding="utf-8") for folder in SOURCES for p in (ROOT / folder).rglob("*.py")
    )
    assert sorted(key for key in known if f'"{key}"' not in source) == []


def test_every_shipped_name_has_a_french_entry():
    french = entries("fr")
    for board_id in shipped_board_ids():
        board = shipped_board(board_id)
        context = board_context(board)
        names = [board.name, board.short_name, *(t.label for t in board.territories)]
        for name in names:
            assert (context, name) in french, f"{board_id}: {name}"
    for kind in CreatureKind:
        for term in (kind_term(kind), kinds_term(kind)):
            assert (term.context, term.text) in french


def test_the_plural_rules_are_the_languages_own():
    # English: 0 is plural; French: 0 and 1 are singular (n > 1).
    assert [render(Message("count.action", count=n)) for n in (0, 1, 2)] == [
        "0 actions",
        "1 action",
        "2 actions",
    ]
    assert [render(Message("count.action", count=n), "fr") for n in (0, 1, 2)] == [
        "0 action",
        "1 action",
        "2 actions",
    ]
    assert render(Message("count.sprite", count=1), "fr") == "1 Sprite"
    assert render(Message("count.sprite", count=9), "fr") == "9 Sprites"


NORTH = Term("North Cliffs", "board duel-isle")
HOLLOW = Term("Rune Hollow", "board duel-isle")
STRAND = Term("Skald's Strand", "board duel-isle")
EMBER = Term("Ember Reach", "board duel-isle")
FROSTHOLM = Term("Frostholm", "board duel-isle")


@pytest.mark.parametrize(
    ("term", "de", "to", "inside"),
    [
        (NORTH, "des Falaises du Nord", "aux Falaises du Nord", "dans les Falaises du Nord"),
        (HOLLOW, "du Creux des Runes", "au Creux des Runes", "dans le Creux des Runes"),
        (STRAND, "de la Grève du Scalde", "à la Grève du Scalde", "dans la Grève du Scalde"),
        (
            EMBER,
            "de l'Étendue des Braises",
            "à l'Étendue des Braises",
            "dans l'Étendue des Braises",
        ),
        (FROSTHOLM, "de Frostholm", "à Frostholm", "à Frostholm"),
        ("Alice", "d'Alice", "à Alice", "à Alice"),
        ("Yvette", "d'Yvette", "à Yvette", "à Yvette"),
        ("Bjorn", "de Bjorn", "à Bjorn", "à Bjorn"),
        ("Yann", "de Yann", "à Yann", "à Yann"),
        ("Éloïse", "d'Éloïse", "à Éloïse", "à Éloïse"),
        ("Hugo", "de Hugo", "à Hugo", "à Hugo"),
        (Term("Troll", "creature"), "du Troll", "au Troll", "dans le Troll"),
    ],
)
def test_french_contractions_and_elision(term, de, to, inside):
    """Never 'de le Troll', 'de les', 'à le' or 'de Alice'."""
    from companion.language.render import language

    french = language("fr")
    assert (french.value(term, "de"), french.value(term, "à"), french.value(term, "dans")) == (
        de,
        to,
        inside,
    )


def test_a_name_keeps_its_article_its_number_and_a_capital_when_asked():
    from companion.language.render import language

    french = language("fr")
    place = Term("North Cliffs", "board duel-isle", 4)
    assert french.value(place) == "les Falaises du Nord 4"
    assert french.value(place, "à") == "aux Falaises du Nord 4"
    assert french.value(place, "nu") == "Falaises du Nord 4"
    assert french.value(place, "Le") == "Les Falaises du Nord 4"
    assert render_value(place) == "North Cliffs 4"


def test_a_shipped_board_has_a_french_name_long_and_short():
    board = shipped_board("duel-isle")
    assert render_value(board_term(board), "fr") == (
        "l'Île du Duel (disposition de l'appli, 2 joueurs)"
    )
    assert render_value(board_term(board, short=True), "fr") == "l'Île du Duel"
    assert render_value(board_term(board, short=True)) == "Duel Isle"


def test_names_as_entered_stay_as_entered():
    # A user's board has no catalog entries: its names are shown as typed, in any language.
    typed = Term("North Cliffs", "board my-kitchen-table")
    assert render_value(typed, "fr") == "North Cliffs"
    assert render_value("Ragna", "fr") == "Ragna"


def test_lists_and_numbers_in_each_language():
    names = ("Ragna", "Bjorn", "Alice")
    assert render_value(names) == "Ragna, Bjorn and Alice"
    assert render_value(names, "fr") == "Ragna, Bjorn et Alice"
    assert render_value(names[:2], "fr") == "Ragna et Bjorn"
    assert format_number(12345) == "12,345"
    assert format_number(12345, "fr") == "12\u202f345"
    assert format_number(-3, "fr") in ("-3", "\u22123")


def test_french_puts_a_narrow_no_break_space_before_high_punctuation():
    text = render(Message("tally.holding", territory=NORTH, bonus=2), "fr")
    assert text == "maîtrise des Falaises du Nord\u202f: +2"


def test_french_holds_a_quotation_in_guillemets_with_narrow_no_break_spaces():
    said = Message("game.tally.goes_on", button="Voir le résultat")
    assert render(said, "fr") == (
        "La partie continue quand vous touchez «\u202fVoir le résultat\u202f» (en bas)."
    )
    assert render(said, "en") == "Play goes on when you tap “Voir le résultat” (at the bottom)."


def test_str_of_a_message_is_english():
    assert str(Message("count.action", count=2)) == "2 actions"


def test_an_unknown_language_is_refused_with_a_sentence():
    with pytest.raises(UnknownLanguage, match="no language 'de': choose en or fr"):
        render(Message("count.action", count=1), "de")


def test_the_pure_message_module_reads_no_catalog():
    """The engine imports `companion.language`; it stays free of Babel, files and the layers
    above it (Babel is loaded only when a message is rendered)."""
    source = (ROOT / "companion" / "language" / "message.py").read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not any(
        name.startswith(("babel", "companion.engine", "companion.app", "flet")) for name in imported
    )
    for path in (ROOT / "companion" / "language").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "companion.engine" not in text and "import flet" not in text, path


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("fr", "fr"),
        ("FR", "fr"),
        ("fr_FR.UTF-8", "fr"),
        ("fr-CA", "fr"),
        ("en-GB", "en"),
        ("de", None),
        ("", None),
        ("french", None),
    ],
)
def test_a_locale_names_its_language(tag, code):
    """What a device or the environment says (a browser's 'fr-CA') picks a catalog."""
    from companion.language.render import language_for

    assert language_for(tag) == code


# The ways the code speaks: `Message("id", ...)`, `app.say("id", ...)`, `say(words, "id", ...)`.
_SPEAKERS = {"Message", "say"}
_ID = re.compile(r"^[a-z]+(\.[a-z0-9_]+)+$")


def spoken_ids() -> list[tuple[str, set[str], str]]:
    """Every message the code builds or says by a written id: its id, the values it gives
    by name, and where."""
    found = []
    for path in sorted(p for folder in SOURCES for p in (ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in _SPEAKERS:
                continue
            written = [
                arg.value
                for arg in node.args[:2]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            ]
            if written and _ID.match(written[0]):
                names = {keyword.arg for keyword in node.keywords if keyword.arg is not None}
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found.append((written[0], names, where))
    return found


def test_the_code_gives_every_value_a_text_names_and_no_other():
    """Every id the engine, the command line and every screen say is in the catalogs (both,
    by the test above), and gives the values its text names and no other: a text naming a
    value the code does not give would fail when shown; a value no text names is lost (a
    plural message's `count` only chooses the form)."""
    english = messages("en")
    spoken = spoken_ids()
    assert {key.split(".")[0] for key, _, _ in spoken} >= {"app", "game", "tally"}
    missing = sorted(f"{where} {key}" for key, _, where in spoken if key not in english)
    assert missing == []
    wrong = []
    for key, given, where in spoken:
        named = set().union(*(fields(form) for form in texts(english[key])))
        spare = given - named - ({"count"} if isinstance(english[key], tuple) else set())
        if named - given or spare:
            wrong.append(f"{where} {key}: gives {sorted(given)}, the text names {sorted(named)}")
    assert wrong == []


def test_on_screen_an_arrow_never_starts_a_line_and_never_parts_two_numbers():
    from companion.language.render import screen_language

    said = Message("energy.change", before=5, after=10)
    assert screen_language("fr").render(said) == "(5\u00a0→\u00a010)"
    assert render(said, "fr") == "(5 → 10)"  # the command line's output stays plain
    assert screen_language("en").render(Message("join.arrow", first="A", rest="B")) == "A\u00a0→ B"


def test_a_message_is_rendered_once_per_language_and_the_kept_ones_are_bounded(monkeypatch):
    # A screen says the same sentences to each device of a table; a hundred pages
    # coming back at once render each sentence once, in each language.
    from companion.language import render as rendering

    rendered: list[str] = []
    original = rendering.Language._render
    monkeypatch.setattr(
        rendering.Language, "_render", lambda self, m: rendered.append(m.id) or original(self, m)
    )
    english, french = rendering.language("en"), rendering.screen_language("fr")
    left = Message("game.table.left", count=3)
    assert english.render(left) == english.render(left) == "3 left"
    assert french.render(left) == french.render(left) == "encore 3"
    assert rendered == ["game.table.left", "game.table.left"]
    monkeypatch.setattr(rendering, "KEPT_RENDERINGS", 2)
    for count in (1, 2, 3):
        english.render(Message("game.table.left", count=count))
    assert len(english._rendered) <= 2
    assert english.number(1234) == "1,234" and french.number(-1234) == "-1\u202f234"
