"""Why outside input is refused, in French word for word: the same sentences as in English
(tests/test_problems.py), JSON field names and quoted values as the input has them."""

import json

import pytest
from pydantic import ValidationError
from store_support import DUEL, random_log

from companion.boards import BoardError, resolve_board
from companion.language.render import language
from companion.play.home import import_log_file
from companion.store.errors import LogError
from companion.store.store import open_store
from models.game_log import MAX_LOG_COMMANDS, GameLog
from models.problems import problem
from models.setup import GameSetup

FRENCH = language("fr")
PLAYERS = [{"id": "red"}, {"id": "blue"}]


def said(data: dict, model: type = GameSetup) -> tuple[str, str]:
    """The first problem of the data, in English and in French."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    message = problem(caught.value, data)
    return str(message), FRENCH.render(message)


def board(*territories: dict) -> dict:
    return {"id": "mine", "name": "Mine", "territories": list(territories)}


@pytest.mark.parametrize(
    ("data", "english", "french"),
    [
        # A player, by number; their field by its JSON name.
        (
            {"players": [{"id": "red"}, {"id": "b lue"}], "board": "duel-isle"},
            "Player 2's id must be 1 to 24 letters, digits, '-' or '_'",
            "le champ id du joueur 2 doit compter de 1 à 24 lettres, chiffres, '-' ou '_'",
        ),
        (
            {"players": [{"id": "red", "name": " "}, {"id": "blue"}], "board": "duel-isle"},
            "Player 1's name is blank",
            "le nom du joueur 1 est vide",
        ),
        # A field this app does not know, kept as the file writes it.
        (
            {"players": [{"id": "red"}, {"id": "blue", "hat": 1}], "board": "duel-isle"},
            "Player 2's entry has a field this app does not know: hat",
            "l'entrée du joueur 2 a un champ que cette application ne connaît pas\u202f: hat",
        ),
        # A type error quotes the value given.
        (
            {"players": PLAYERS, "board": "duel-isle", "final_round": "x"},
            "final_round must be a whole number, not 'x'",
            "le champ final_round doit être un nombre entier, pas 'x'",
        ),
        (
            {"players": PLAYERS, "board": "duel-isle", "mode": "tabletop"},
            "mode must be one of 'table' or 'digital', not 'tabletop'",
            "le champ mode doit valoir 'table' ou 'digital', pas 'tabletop'",
        ),
        (
            {"players": PLAYERS * 3, "board": "duel-isle"},
            "a game has 2 to 4 players, not 6",
            "une partie se joue de 2 à 4 joueurs, pas 6",
        ),
        # A territory by its id, or by its place in the list.
        (
            {
                "players": PLAYERS,
                "board": board({"id": "north", "name": "N", "bonus": 2, "locations": []}),
            },
            "territory 'north' has no locations",
            "le champ locations du territoire 'north' est vide",
        ),
        (
            {"players": PLAYERS, "board": board({"name": "N", "bonus": 2, "locations": ["a"]})},
            "id of the 1st territory is missing",
            "le champ id du 1er territoire manque",
        ),
        (
            {
                "players": PLAYERS,
                "board": board(
                    {"id": "n", "name": "N", "bonus": 2, "locations": ["a"]},
                    {"id": "e", "name": "E", "bonus": 2, "locations": ["b"]},
                    {"name": "S", "bonus": 2, "locations": ["c"]},
                ),
            },
            "id of the 3rd territory is missing",
            "le champ id du 3e territoire manque",
        ),
        (
            {
                "players": PLAYERS,
                "board": board({"id": "s", "name": "S", "bonus": "x", "locations": ["c"]}),
            },
            "bonus of territory 's' must be a whole number, not 'x'",
            "le champ bonus du territoire 's' doit être un nombre entier, pas 'x'",
        ),
        # The models' own checks.
        (
            {
                "players": [{"id": "red", "name": "Ann"}, {"id": "blue", "name": "ann"}],
                "board": "duel-isle",
            },
            "Player 2's name is already Ann's",
            "le nom du joueur 2 est déjà celui d'Ann",
        ),
        (
            {
                "players": PLAYERS,
                "board": board(
                    {"id": "n", "name": "N", "bonus": 2, "locations": ["a"]},
                    {"id": "s", "name": "S", "bonus": 2, "locations": ["a"]},
                ),
            },
            "board: location 'a' is in two territories: 'n' and 's'",
            "le champ board\u202f: l'emplacement 'a' est dans deux territoires\u202f: 'n' et 's'",
        ),
        (
            {"players": [{"id": "red", "bot": "x"}, {"id": "blue"}], "board": "duel-isle"},
            "Player 1's bot: unknown bot 'x' (known: random, greedy, mcts)",
            "le champ bot du joueur 1\u202f: l'adversaire 'x' est inconnu"
            " (connus\u202f: random, greedy, mcts)",
        ),
    ],
)
def test_a_setups_problems_in_french(data, english, french):
    assert said(data) == (english, french)


def test_too_many_entries_is_plural_in_french():
    log = {"setup": {"players": PLAYERS, "board": "duel-isle"}, "commands": [{}] * 10_001}
    assert said(log, GameLog) == (
        f"commands has 10001 entries; at most {MAX_LOG_COMMANDS} are allowed",
        f"le champ commands a 10001 entrées\u202f; le maximum est {MAX_LOG_COMMANDS}",
    )
    many = {"players": [*PLAYERS, {"id": "green"}, {"id": "white"}, {"id": "black"}]}
    assert said(many | {"board": "duel-isle"})[1] == "une partie se joue de 2 à 4 joueurs, pas 5"


def test_a_command_in_a_log_is_named_in_french():
    log = {"setup": {"players": PLAYERS, "board": "duel-isle"}, "commands": [5]}
    assert said(log, GameLog) == (
        "command 0 must be an object, not 5",
        "la commande 0 doit être un objet, pas 5",
    )


def test_the_boards_and_the_stores_errors_carry_their_message():
    with pytest.raises(BoardError) as unknown:
        resolve_board("atlantis")
    assert str(unknown.value).startswith("unknown board 'atlantis' (shipped boards: ")
    assert FRENCH.render(unknown.value.message).startswith(
        "le plateau 'atlantis' est inconnu (plateaux fournis\u202f: "
    )
    plain = LogError("as it was written")
    assert str(plain) == "as it was written"
    assert FRENCH.render(plain.message) == "as it was written"


@pytest.fixture
def store(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as opened:
        yield opened


def refused(store, data: dict) -> str:
    saved, note = import_log_file(store, json.dumps(data).encode(), FRENCH)
    assert saved is None
    return note


def test_an_import_is_refused_in_french(store):
    good = random_log(DUEL, 2).to_json()
    players = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "ragna"}]
    alike = good | {"setup": good["setup"] | {"players": players}}
    assert refused(store, alike) == (
        "Non importé\u202f: dans ce journal de partie, le nom du joueur 2 est déjà celui de Ragna."
    )
    assert refused(store, good | {"version": 99}) == (
        "Non importé\u202f: ce journal est au format version 99, plus récent que ce que lit "
        "cette application (jusqu'à la version 2)\u202f; mettez l'application à jour pour "
        "l'ouvrir."
    )
    assert refused(store, good | {"setup": good["setup"] | {"final_round": "7"}}) == (
        "Non importé\u202f: dans ce journal de partie, le champ final_round doit être un nombre "
        "entier, pas '7'."
    )
    # The store's refusals: a command the file cannot hold, one the rules refuse, a board.
    assert refused(store, good | {"commands": [{"type": "fly"}]}).startswith(
        "Non importé\u202f: commande 0\u202f: le type de commande 'fly' est inconnu (connus\u202f: "
    )
    summon = {"type": "summon", "by": "red", "kind": 3, "location": "nc2"}
    assert refused(store, good | {"commands": [summon]}) == (
        "Non importé\u202f: commande 0\u202f: commande summon\u202f: le champ kind doit valoir "
        "'wyrm', 'troll' ou 'sprite', pas 3."
    )
    illegal = good | {"commands": [{"type": "pass"}, *good["commands"]]}
    assert refused(store, illegal).startswith("Non importé\u202f: commande 2\u202f: c'est ")
    assert refused(store, good | {"setup": good["setup"] | {"board": "atlantis"}}).startswith(
        "Non importé\u202f: le plateau 'atlantis' est inconnu"
    )


def test_the_command_line_refuses_input_in_the_language_asked(tmp_path):
    from typer.testing import CliRunner

    from companion.cli import app

    log = random_log(DUEL, 2).to_json()
    log["setup"] = log["setup"] | {"final_round": "x"}
    source = tmp_path / "log.json"
    source.write_text(json.dumps(log), encoding="utf-8")
    french = CliRunner().invoke(app, ["replay", "--lang", "fr", str(source)])
    assert french.exit_code == 2
    assert french.stderr == (
        "error: journal de partie\u202f: le champ final_round doit être un nombre entier, pas 'x'\n"
    )
    english = CliRunner().invoke(app, ["replay", str(source)])
    assert english.stderr == "error: game log: final_round must be a whole number, not 'x'\n"
    tally = {"board": "duel-isle", "turn_order": ["a", "b"], "energy": {"a": "x", "b": 3}}
    refused = CliRunner().invoke(app, ["tally", "--lang", "fr", "-"], input=json.dumps(tally))
    assert refused.exit_code == 2
    assert refused.stderr == "error: le champ energy.a doit être un nombre entier, pas 'x'\n"
    unknown = {"board": "atlantis", "turn_order": ["a", "b"], "energy": {"a": 1, "b": 3}}
    board = CliRunner().invoke(app, ["tally", "--lang", "fr", "-"], input=json.dumps(unknown))
    assert board.stderr.startswith("error: le plateau 'atlantis' est inconnu (plateaux fournis")

    # Game new and game import take --lang like the other game commands.
    db = ["--db", str(tmp_path / "games.sqlite3")]
    crowded = ["game", "new", "--players", "a,b,c", "--board", "duel-isle", "--lang", "fr", *db]
    new = CliRunner().invoke(app, crowded)
    assert new.exit_code == 2
    assert new.stderr == (
        "error: le plateau «\u202fduel-isle\u202f» est prévu pour 2 joueurs, pas pour 3\n"
    )
    imported = CliRunner().invoke(app, ["game", "import", "--lang", "fr", *db, str(source)])
    assert imported.exit_code == 2
    assert imported.stderr.startswith("error: journal de partie\u202f: le champ final_round")


@pytest.mark.parametrize(
    ("name", "territories", "english", "french"),
    [
        (
            "Mine",
            [("North", 2, 3), ("north", 2, 1)],
            "two territories are called 'north'",
            "deux territoires s'appellent 'north'",
        ),
        ("  ", [("North", 2, 3)], "give the board a name", "donnez un nom au plateau"),
        (
            "A\tB",
            [("North", 2, 3)],
            "the board's name may not contain the control character U+0009",
            "le nom du plateau ne peut pas contenir le caractère de contrôle U+0009",
        ),
        (
            "Mine",
            [("North", 2, 0)],
            "North needs at least one location",
            "North doit avoir au moins un emplacement",
        ),
    ],
)
def test_a_board_the_user_makes_is_refused_in_french(name, territories, english, french):
    from companion.boards.user import board_from_counts

    with pytest.raises(BoardError) as caught:
        board_from_counts(name, territories)
    assert str(caught.value) == english
    assert FRENCH.render(caught.value.message) == french
