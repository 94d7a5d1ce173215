"""Text that comes in is clean Unicode wherever it arrives; text saved before is shown safely.

A player name holding a lone surrogate ("Bo\\ud800b"), bidi overrides or a look-alike of
another name is refused wherever it arrives (the app's Import, `game import`, a non-UTF-8
terminal): one check (models/text.py) guards every entry point. A game saved by an older
version with such a name still opens, and Home, `game list`, `game do`, `game show` and
`game export` show it without a crash or an empty temporary file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from companion.boards import BoardError, parse_board
from companion.boards.user import board_from_counts, board_name
from companion.cli import app
from companion.language import Message
from companion.language.render import render
from companion.play.home import Standings, import_log_file
from companion.play.new_game import name_problems as problems_of
from companion.store.store import open_store
from models.commands import CommandFormatError, Correction, command_from_json
from models.problems import InvalidValue, problem
from models.setup import GameSetup
from models.text import check_typed_text, looks_alike, name_key, printable, shown_safely

SURROGATE = "Bo\ud800b"
OVERRIDE = "Bo\u202eb"
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Latin "Bob", and the same with a Cyrillic capital Ve and small o.
LATIN, CYRILLIC = "Bob", "\u0412\u043eb"
REASON = Message("problem.what.reason")


def setup_with(*names: str) -> dict:
    players = [{"id": pid, "name": name} for pid, name in zip(("red", "blue"), names, strict=True)]
    return {"players": players, "board": "duel-isle", "mode": "table"}


def log_with(*names: str) -> bytes:
    log = {"format": "summoners-isle-game", "version": 2, "setup": setup_with(*names)}
    return json.dumps(log).encode()


def refusal(data: dict) -> str:
    with pytest.raises(ValidationError) as refused:
        GameSetup.model_validate(data)
    return str(problem(refused.value, data))


# --- the one check ---------------------------------------------------------------------------


@pytest.mark.parametrize("char", list(BIDI))
def test_every_bidirectional_control_is_refused_with_its_code(char):
    with pytest.raises(InvalidValue) as refused:
        check_typed_text(f"fix{char}ed", REASON)
    code = f"U+{ord(char):04X}"
    assert str(refused.value) == (
        f"the reason may not contain {code}, a character that changes the order text is shown in"
    )
    assert render(refused.value.message, "fr") == (
        f"la raison ne peut pas contenir {code}, un caractère qui change l'ordre d'affichage "
        "du texte"
    )


def test_a_lone_surrogate_is_refused_in_a_sentence():
    with pytest.raises(InvalidValue) as refused:
        check_typed_text(SURROGATE, REASON)
    assert str(refused.value) == (
        "the reason is not valid Unicode text (it holds the lone surrogate U+D800, "
        "as bytes that are not UTF-8 become)"
    )
    assert "demi-codet isolé U+D800" in render(refused.value.message, "fr")


def test_text_coming_in_is_kept_composed():
    decomposed = "Zoe\u0308"
    assert check_typed_text(decomposed, REASON) == "Zo\u00eb"
    # An id is kept exactly: saved commands name places by it.
    assert check_typed_text(decomposed, REASON, normalise=False) == decomposed


def test_stored_text_is_shown_with_each_unsafe_character_replaced_visibly():
    assert shown_safely(SURROGATE) == "Bo\ufffdb"
    assert shown_safely(OVERRIDE + "\x1b[2J") == "Bo\ufffdb\ufffd[2J"
    assert shown_safely("Zoe\u0308") == "Zo\u00eb"
    # And a terminal never gets a raw surrogate: it could not even be written.
    assert printable(SURROGATE) == "Bo\\ud800b"


# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "said"),
    [
        ((SURROGATE, "Ann"), "Player 1's name is not valid Unicode text (it holds the lone "),
        (("Ann", OVERRIDE), "Player 2's name has U+202E in it, a character that changes"),
        (("Ann", "A\u2066nn\u2069"), "Player 2's name has U+2066 in it"),
        (("Ann", "Ann\u200f"), "Player 2's name has U+200F in it"),
        (("Zo\u00eb", "ZOE\u0308"), "Player 2's name is already Zoë's"),
        (("Bob", "Bo\u200bb"), "Player 2's name is already Bob's"),
        (("Bob", "\uff22\uff4f\uff42"), "Player 2's name is already Bob's"),
        (("Bob", "B  ob"), None),
        ((LATIN, CYRILLIC), "Player 2's name looks just like Bob's (the same letters from anoth"),
        (("Paul", "\u0420\u0430ul"), "Player 2's name looks just like Paul's"),
    ],
)
def test_names_of_one_game_are_clean_and_tell_apart(names, said):
    data = setup_with(*names)
    if said is None:
        GameSetup.model_validate(data)
    else:
        assert refusal(data).startswith(said), refusal(data)


def test_names_are_compared_as_players_see_them():
    assert name_key(" Zoe\u0308  Ann ") == name_key("ZOË ANN")
    assert name_key("Bo\u200db") == "bob"
    assert looks_alike(LATIN, CYRILLIC)
    assert looks_alike("BOB", "\u0412\u041e\u0412")
    # Same script, different letters: two people, even if a font draws them alike.
    assert not looks_alike("Al", "AI")
    # Real names in two scripts that only share a letter or two are two names.
    assert not looks_alike("Bob", "\u0411\u043e\u0431")
    assert not looks_alike("Ragna", "Bjorn")


def test_a_typed_name_is_stored_composed():
    setup = GameSetup.model_validate(setup_with("Zoe\u0308", "Ann"))
    assert setup.players[0].name == "Zo\u00eb"
    assert unicodedata.is_normalized("NFC", setup.players[0].name)


def name_problems(names, words=None):
    """The form's sentence for each seat's name, in a language (English by default)."""
    from companion.language.render import language

    words = words or language("en")
    return [None if said is None else words.render(said) for said in problems_of(names)]


def test_new_game_says_what_is_wrong_with_a_typed_name_in_both_languages():
    assert name_problems(["Ann", OVERRIDE, LATIN, CYRILLIC]) == [
        None,
        "Player 2's name has U+202E in it, a character that changes the order text is shown in.",
        None,
        "Player 4's name looks just like Bob's (the same letters from another alphabet).",
    ]
    from companion.language.render import language

    french = name_problems(["Ann", SURROGATE], language("fr"))
    assert french[1] == (
        "Le nom du joueur 2 n'est pas du texte Unicode valide (il contient le demi-codet "
        "isolé U+D800)."
    )


# --- every entry point -----------------------------------------------------------------------


@pytest.fixture
def store(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as opened:
        yield opened


@pytest.mark.parametrize("name", [SURROGATE, OVERRIDE])
def test_the_apps_import_refuses_a_bad_name(store, name):
    saved, said = import_log_file(store, log_with(name, "Ann"))
    assert saved is None
    assert said.startswith("Not imported: in this game log, Player 1's name ")
    assert store.games() == []


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """The command line in a process of its own, arguments as bytes (as a terminal sends)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )


def one_line(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, result.stderr
    assert b"Traceback" not in result.stderr
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_game_import_refuses_a_bad_name(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    said = one_line(cli("game", "import", "-", "--db", db, stdin=log_with(SURROGATE, "Ann")))
    assert "Player 1's name is not valid Unicode text" in said
    said = one_line(cli("game", "import", "-", "--db", db, stdin=log_with(LATIN, CYRILLIC)))
    assert "Player 2's name looks just like Bob's" in said


def test_a_terminal_that_is_not_utf8_is_refused_in_a_sentence(tmp_path):
    db = str(tmp_path / "games.sqlite3").encode()

    def cli_bytes(*args: bytes) -> subprocess.CompletedProcess:
        command = [sys.executable.encode(), b"-m", b"companion", *args, b"--db", db]
        return subprocess.run(command, capture_output=True, timeout=60, check=False)

    # A Latin-1 terminal's "Bo\xffb": Python makes the byte that is not UTF-8 a lone surrogate.
    assert one_line(cli_bytes(b"game", b"new", b"--players", b"red:Bo\xffb,blue")) == (
        "error: Invalid value for '--players': the value is not valid Unicode text (it holds "
        "the lone surrogate U+DCFF, as bytes that are not UTF-8 become)"
    )
    assert "Invalid value for 'ID'" in one_line(cli_bytes(b"game", b"show", b"ab\xff"))


def test_reasons_boards_and_tallies_refuse_bidi_and_surrogates():
    for reason, code in ((SURROGATE, "U+D800"), (OVERRIDE, "U+202E"), ("fixed\u200e", "U+200E")):
        with pytest.raises(CommandFormatError) as refused:
            command_from_json({"type": "correction", "player": "red", "delta": 1, "reason": reason})
        assert str(refused.value).startswith("correction command: reason")
        assert code in str(refused.value)
    with pytest.raises(BoardError, match="the board's name is not valid Unicode"):
        board_name(SURROGATE)
    with pytest.raises(BoardError, match="U\\+202E"):
        board_from_counts("Isle", [(OVERRIDE, 1, 2)])
    territory = {"id": "t", "name": "North\u2067", "bonus": 1, "locations": ["a"]}
    with pytest.raises(BoardError, match="U\\+2067"):
        parse_board({"territories": [territory]})
    tally = {"board": "duel-isle", "turn_order": [SURROGATE, "b"], "energy": {SURROGATE: 1, "b": 1}}
    result = CliRunner().invoke(app, ["tally", "-"], input=json.dumps(tally))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: turn_order entry 1 is not valid Unicode text")


# --- a game saved by an older version with a bad name ----------------------------------------


def save_as_an_older_version_did(db: str, *names: str, reason: str | None = None) -> str:
    """A game whose setup holds `names` as they were accepted then, written straight into the
    database (the current checks would refuse them); with a correction giving `reason`."""
    with open_store(db) as store:
        saved = store.new_game(GameSetup.model_validate(setup_with("Ragna", "Bjorn")))
        if reason is not None:
            # The table screen records a correction as typed; older versions kept any text.
            saved = store.append(saved.id, Correction("red", 1, reason), saved.revision)
    setup = saved.setup.model_dump(mode="json")
    for player, name in zip(setup["players"], names, strict=True):
        player["name"] = name
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        # json.dumps escapes the surrogate ("\ud800"), as the JSON column did when it was saved.
        connection.execute(
            text("UPDATE games SET setup = :setup WHERE id = :id"),
            {"setup": json.dumps(setup), "id": saved.id},
        )
    engine.dispose()
    return saved.id


@pytest.fixture
def older(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    game = save_as_an_older_version_did(db, SURROGATE, OVERRIDE, reason="miscount\u200f")
    yield db, game


def test_a_saved_bad_name_is_listed_and_opens_with_the_name_shown_safely(older):
    db, game = older
    with open_store(db) as store:
        summary = store.unfinished()[0]
        assert summary.labels == ("Bo\ufffdb", "Bo\ufffdb")
        where = Standings().of(store, summary)
        assert where.turn == "Bo\ufffdb's turn"
        saved = store.load(game)
        assert saved.game.labels["red"] == "Bo\ufffdb"
        assert saved.log[0].command.reason == "miscount\ufffd"
        # What Home and the game screens send to the browser can be sent: valid UTF-8.
        for shown in (*summary.labels, where.turn, where.board, str(saved.log[0].sentence)):
            shown.encode("utf-8")


@pytest.mark.parametrize(
    "args",
    [
        ("game", "list"),
        ("game", "list", "--json"),
        ("game", "show", "{game}"),
        ("game", "show", "{game}", "--json"),
        ("game", "legal", "{game}"),
        ("game", "export", "{game}"),
        ("game", "history"),
        ("game", "do", "{game}", '{"type": "pass"}'),
    ],
)
def test_every_command_works_on_a_saved_bad_name(older, args):
    db, game = older
    result = cli(*(game if arg == "{game}" else arg for arg in args), "--db", db)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stderr == b""
    assert "Bo\ufffdb" in result.stdout.decode("utf-8") or args[1] == "history"


def test_a_saved_bad_name_exports_to_a_file_that_imports_back(older, tmp_path):
    db, game = older
    out = tmp_path / "out"
    out.mkdir()
    result = cli("game", "export", game, "--output", str(out / "game.json"), "--db", db)
    assert result.returncode == 0, result.stderr.decode()
    assert [path.name for path in out.iterdir()] == ["game.json"]
    exported = json.loads((out / "game.json").read_text(encoding="utf-8"))
    names = [player["name"] for player in exported["setup"]["players"]]
    assert names == ["Bo\ufffdb", "Bo\ufffdb"]
    # Shown alike, the two names are one: the export says so when it is read back.
    said = one_line(cli("game", "import", str(out / "game.json"), "--db", db))
    assert "Player 2's name is already" in said


def test_a_board_saved_with_text_older_versions_took_is_still_listed(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(tmp_path))
    (tmp_path / "boards").mkdir()
    board = {
        "id": "my-isle",
        "name": "Isle\u200f",
        "territories": [{"id": "t", "name": "North\u061c", "bonus": 1, "locations": ["a"]}],
    }
    (tmp_path / "boards" / "my-isle.json").write_text(json.dumps(board), encoding="utf-8")
    from companion.boards.user import user_boards

    (shown,) = user_boards()
    assert shown.name == "Isle\ufffd"
    assert shown.territories[0].name == "North\ufffd"
