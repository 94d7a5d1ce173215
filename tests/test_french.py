"""The engine and the command line in French, word for word.

Rulings exercised by the tally below: 2 (Alice's 12 is in the 10-18 band, +3; Bob's 19 in
19-23, no change), 10 (modifiers, then uncontested Sprites, then domination bonuses, each
optional: Alice takes Frostholm's, Bob declines Skald's Strand's) and 12 (a tie on 20:
whoever was later in this round's order goes earlier).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from companion.boards import shipped_board
from companion.cli import app
from companion.engine import Game, IllegalCommand, SetupError
from companion.engine.dice import with_rolls
from companion.engine.isle import compile_isle
from companion.engine.reset_phase import reset_phase
from companion.language.render import render
from models.commands import Pass, Summon
from models.rules import CreatureKind
from models.seeded_dice import SeededDice
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
NB = "\u202f"  # French sets a narrow no-break space before ; and :

# Duel Isle, a shipped board: its territories have French names.
PLACEMENTS = {
    "nc1": ("Alice", S),
    "nc2": ("Alice", S),
    "er1": ("Alice", S),
    "fh1": ("Alice", T),
    "fh2": ("Alice", T),
    "fh3": ("Alice", W),
    "ss1": ("Bob", T),
    "ss2": ("Bob", S),
}
ENERGY = {"Alice": 12, "Bob": 19}
DECLINED = {"Bob": ["skalds-strand"]}

ALICE = (
    f"Alice commence à 12{NB}; le palier 10-18 donne +3{NB}; les Sprites sans rival donnent +3 "
    f"(2 dans les Falaises du Nord, 1 dans l'Étendue des Braises){NB}; "
    f"maîtrise de Frostholm{NB}: +2{NB}; termine à 20."
)
BOB = (
    f"Bob commence à 19{NB}; le palier 19-23 ne change rien{NB}; les Sprites sans rival "
    f"donnent +1 (1 dans la Grève du Scalde){NB}; maîtrise de la Grève du Scalde{NB}: "
    f"bonus refusé (1){NB}; termine à 20."
)
TIE = (
    f"Bob et Alice sont à égalité à 20{NB}: qui jouait plus tard dans cette manche jouera plus "
    "tôt, d'où l'ordre Bob, Alice."
)


def duel_tally():
    isle = compile_isle(shipped_board("duel-isle"))
    occupants: list = [None] * isle.size
    for location, occupant in PLACEMENTS.items():
        occupants[isle.index[location]] = occupant
    return reset_phase(isle, ["Alice", "Bob"], ENERGY, occupants, DECLINED, round_=3)


def test_the_tally_explained_in_french_word_for_word():
    result = duel_tally()
    assert result.turn_order == ("Bob", "Alice")
    assert render(result.player("Alice").explanation("Alice"), "fr") == ALICE
    assert render(result.player("Bob").explanation("Bob"), "fr") == BOB
    assert [render(note, "fr") for note in result.order_messages] == [TIE]


def test_the_same_tally_in_english_is_unchanged():
    result = duel_tally()
    assert str(result.player("Alice").explanation("Alice")) == (
        "Alice starts on 12; band 10-18 gives +3; uncontested Sprites give +3 (2 in North "
        "Cliffs, 1 in Ember Reach); holding all of Frostholm: +2; ends on 20."
    )
    assert tuple(map(str, result.order_messages)) == (
        "Bob and Alice are tied on 20: whoever was later in this round's order goes earlier, "
        "so the order is Bob, Alice.",
    )


def test_the_log_line_in_french():
    line = render(duel_tally().log_message({"Alice": "Alice", "Bob": "Bob"}), "fr")
    assert line == (
        f"Énergie et Réinitialisation, manche 3{NB}: Alice 12 → 20 (palier 10-18 +3, "
        "2 Sprites dans les Falaises du Nord, 1 Sprite dans l'Étendue des Braises, "
        f"Frostholm +2), Bob 19 → 20 (palier 19-23 sans changement, 1 Sprite dans la Grève "
        f"du Scalde, bonus de la Grève du Scalde refusé){NB}; prochain ordre du tour{NB}: "
        f"Bob → Alice. {TIE}"
    )


def test_a_winner_in_french():
    isle = compile_isle(shipped_board("duel-isle"))
    result = reset_phase(
        isle, ["Alice", "Bob"], {"Alice": 5, "Bob": 4}, [None] * isle.size, final_round=True
    )
    assert render(result.winner_message, "fr") == "Alice a le plus d'énergie (10) et l'emporte."
    # Ruling 13: a tie goes to the tied player later in the final round's order.
    tied = reset_phase(
        isle, ["Alice", "Bob"], {"Alice": 4, "Bob": 4}, [None] * isle.size, final_round=True
    )
    assert render(tied.winner_message, "fr") == (
        f"Alice et Bob sont à égalité à 9{NB}; Bob jouait le plus tard dans l'ordre du tour de "
        "la dernière manche et l'emporte."
    )


def digital_game():
    setup = GameSetup(
        players=[{"id": "a", "name": "Alice"}, {"id": "b", "name": "Bjorn"}],
        board="duel-isle",
        mode="digital",
    )
    return Game(setup, shipped_board("duel-isle")).new_initial_state()


def test_commands_say_themselves_in_french():
    state = digital_game()
    summon = Summon(W, "nc1")
    assert render(state.sentence(summon), "fr") == (
        "Alice invoque un Wyrm aux Falaises du Nord 1 pour 5 points d'énergie (5 → 0)"
    )
    assert render(state.sentence(Summon(W, "er2")), "fr") == (
        "Alice invoque un Wyrm à l'Étendue des Braises 2 pour 5 points d'énergie (5 → 0)"
    )
    state.apply(summon)
    assert render(state.sentence(Pass()), "fr") == "Bjorn n'invoque plus de Wyrms"


def test_refusals_carry_their_message_and_say_it_in_french():
    state = digital_game()
    with pytest.raises(IllegalCommand) as refused:
        state.apply(Summon(T, "nc1"))
    assert str(refused.value) == "it is the Wyrms step, not Trolls"
    assert render(refused.value.message, "fr") == "c'est l'étape des Wyrms, pas celle des Trolls"
    state.apply(Summon(W, "nc1"))
    with pytest.raises(IllegalCommand) as refused:
        state.apply(Summon(W, "nc1"))
    assert render(refused.value.message, "fr") == "la case Falaises du Nord 1 n'est pas libre"


# --- the command line ---------------------------------------------------------------------

REQUEST = {
    "board": "duel-isle",
    "round": 3,
    "turn_order": ["Alice", "Bob"],
    "energy": ENERGY,
    "placements": {
        location: {"player": player, "creature": kind.value}
        for location, (player, kind) in PLACEMENTS.items()
    },
    "decline_domination": DECLINED,
}


def invoke(*args: str, env: dict | None = None):
    return CliRunner().invoke(app, list(args), input=json.dumps(REQUEST), env=env)


def test_tally_explains_in_french_with_lang():
    result = invoke("tally", "--explain", "--lang", "fr", "-")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["explanation"] == {
        "players": {"Alice": ALICE, "Bob": BOB},
        "turn_order": [TIE],
        "winner": "",
    }


def test_the_environment_picks_the_language_and_lang_overrides_it():
    french = json.loads(invoke("tally", "--explain", "-", env={"SUMMONERS_ISLE_LANG": "fr"}).stdout)
    assert french["explanation"]["players"]["Bob"] == BOB
    # A locale works too: its language part is taken.
    locale = invoke("tally", "--explain", "-", env={"SUMMONERS_ISLE_LANG": "fr_FR.UTF-8"})
    assert json.loads(locale.stdout)["explanation"]["players"]["Bob"] == BOB
    english = invoke("tally", "--explain", "--lang", "en", "-", env={"SUMMONERS_ISLE_LANG": "fr"})
    assert json.loads(english.stdout)["explanation"]["players"]["Bob"].startswith(
        "Bob starts on 19"
    )


def test_json_keys_and_numbers_do_not_change_with_the_language():
    english = json.loads(invoke("tally", "--explain", "-").stdout)
    french = json.loads(invoke("tally", "--explain", "--lang", "fr", "-").stdout)
    english.pop("explanation")
    french.pop("explanation")
    assert english == french


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=json.dumps(REQUEST),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def test_an_unknown_language_is_refused_in_one_line(monkeypatch):
    result = run("tally", "--explain", "--lang", "de", "-")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: '--lang' must be en or fr, not 'de'\n"


def test_an_unknown_language_in_the_environment_is_named_there():
    import os

    env = {**os.environ, "SUMMONERS_ISLE_LANG": "de"}
    result = run("tally", "--explain", "-", env=env)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: SUMMONERS_ISLE_LANG must be en or fr, not 'de'\n"


def test_a_saved_game_shown_and_played_in_french(tmp_path):
    from companion.cli.game import game_app

    db = ["--db", str(tmp_path / "games.sqlite3")]
    runner = CliRunner()
    game_id = runner.invoke(
        game_app, ["new", "--players", "a:Alice,b:Bjorn", "--mode", "digital", *db]
    ).stdout.strip()
    done = runner.invoke(
        game_app,
        [
            "do",
            game_id,
            '{"type": "summon", "kind": "wyrm", "location": "nc1"}',
            "--lang",
            "fr",
            *db,
        ],
    )
    assert done.stdout == (
        "Alice invoque un Wyrm aux Falaises du Nord 1 pour 5 points d'énergie (5 → 0)\n"
    )
    refused = runner.invoke(
        game_app,
        [
            "do",
            game_id,
            '{"type": "summon", "kind": "troll", "location": "nc2"}',
            "--lang",
            "fr",
            *db,
        ],
    )
    assert refused.exit_code == 2
    assert refused.stderr == "error: c'est l'étape des Wyrms, pas celle des Trolls\n"
    shown = runner.invoke(game_app, ["show", game_id, "--lang", "fr", *db]).stdout.splitlines()
    assert shown[0] == (
        f"partie {game_id}, révision 1, en cours{NB}: duel-isle, numérique, manche 1 sur 6"
    )
    assert shown[1] == f"invocation, étape des Wyrms{NB}: à Bjorn de jouer"
    assert shown[2] == f"énergie{NB}: Alice 0, Bjorn 5"
    assert shown[4:] == [
        f"journal (1 commande){NB}:",
        "     1  Alice invoque un Wyrm aux Falaises du Nord 1 pour 5 points d'énergie (5 → 0)",
        f"annuler{NB}: Alice invoque un Wyrm aux Falaises du Nord 1 pour 5 points d'énergie "
        "(5 → 0)",
        f"rétablir{NB}: -",
    ]
    legal = runner.invoke(game_app, ["legal", game_id, "--json", "--lang", "fr", *db]).stdout
    rows = json.loads(legal)["legal"]
    assert rows[0]["command"] == {"type": "summon", "kind": "wyrm", "location": "nc2", "by": "b"}
    assert rows[-1]["description"] == "Bjorn n'invoque plus de Wyrms"
    undone = runner.invoke(game_app, ["undo", game_id, "--lang", "fr", *db]).stdout
    assert undone == (
        f"annulé{NB}: Alice invoque un Wyrm aux Falaises du Nord 1 pour 5 points d'énergie "
        "(5 → 0)\n"
    )


def test_replay_says_a_refused_command_in_french(tmp_path):
    log = {
        "version": 2,
        "setup": {
            "players": [{"id": "a", "name": "Alice"}, {"id": "b", "name": "Bob"}],
            "board": "duel-isle",
        },
        "commands": [
            {"type": "summon", "kind": "wyrm", "by": "a"},
            {"type": "summon", "kind": "wyrm", "by": "a"},
        ],
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    french = CliRunner().invoke(app, ["replay", str(path), "--lang", "fr"])
    assert french.exit_code == 2
    assert french.stderr == f"error: commande 1{NB}: Alice n'a plus de Wyrms à invoquer\n"
    english = CliRunner().invoke(app, ["replay", str(path)])
    assert english.stderr == "error: command 1: Alice has no Wyrms left to summon\n"


# Never "de le", "de les", "à le", "à les", nor "de" before a vowel sound ("de Alice").
UNFRENCH = re.compile(r"\b(de|à) (le|les)\b|\bde ([AEIOUaeiouÉéÈèÊêÎîÔôÛû]|[Yy][^aeiouy])")


@pytest.mark.parametrize("seed", [1, 2])
def test_every_sentence_of_random_games_is_good_french_and_unchanged_english(seed):
    """Players whose names start with a vowel, on both shipped boards: every legal command's
    sentence and every tally renders in both languages, with French contractions right."""
    players = [{"id": "a", "name": "Alice"}, {"id": "i", "name": "Ivar"}]
    if seed == 2:
        players += [{"id": "e", "name": "Éloïse"}]
    board = "duel-isle" if len(players) == 2 else "gathering-isle"
    setup = GameSetup(players=players, board=board, mode="digital")
    game = Game(setup, shipped_board(setup.board))
    state = game.new_initial_state()
    rng, roll = random.Random(seed), SeededDice(seed)
    said = set()
    while not state.is_terminal:
        legal = [with_rolls(state, command, roll) for command in state.legal_commands()]
        for command in legal:
            sentence = state.sentence(command)
            assert render(sentence) == str(state.sentence(command))
            said.add(render(sentence, "fr"))
        before = state.last_tally
        state.apply(rng.choice(legal))
        if state.last_tally is not before:
            said.add(render(state.last_tally.log_message(game.labels), "fr"))
    wrong = sorted(text for text in said if UNFRENCH.search(text))
    assert wrong == []
    assert any("d'Alice" in text or "d'Ivar" in text for text in said)


def test_a_setup_the_board_cannot_take_is_refused_in_french():
    setup = GameSetup(
        players=[{"id": p, "name": p} for p in ("a", "b", "c")], board="duel-isle", mode="table"
    )
    with pytest.raises(SetupError) as refused:
        Game(setup, shipped_board("duel-isle"))
    assert str(refused.value) == "board 'duel-isle' is for 2 players, not 3"
    assert render(refused.value.message, "fr") == (
        "le plateau «\u202fduel-isle\u202f» est prévu pour 2 joueurs, pas pour 3"
    )
