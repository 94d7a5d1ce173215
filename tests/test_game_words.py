"""The game screens' words in French, word for word, from the plain-Python modules under them.

The screens render through these builders (`step_guide`, `describe_board`, undo labels,
the board editor's draft); a browser test shows the screens themselves in French.
"""

from __future__ import annotations

from pathlib import Path

from companion.boards import shipped_board
from companion.engine import Game
from companion.language.render import language
from companion.play.board_draft import BoardDraft, DraftHistory
from companion.play.board_guide import step_guide
from companion.play.board_labels import label_places, label_text
from companion.play.board_layout import Layout
from companion.play.board_taps import describe_board, targets
from companion.play.game_words import board_place_terms, place_terms, territory_names
from companion.play.session import GameSession
from companion.store.store import open_store
from models.commands import Activate, Pass, Summon
from models.rules import CreatureKind as K
from models.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent
FR = language("fr")
DUEL = shipped_board("duel-isle")
SETUP = GameSetup(
    players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
    board="duel-isle",
    mode="digital",
)


def duel() -> Game:
    """A digital game on the Duel Isle, Ragna against Bjorn."""
    return Game(SETUP, DUEL)


def test_the_step_guide_in_french():
    state = duel().new_initial_state()
    assert step_guide(state, FR) == (
        "Invoquez les Wyrms\u202f: touchez une case marquée pour en invoquer un ("
        "5 points d'énergie), puis Terminé. Vous avez 1 Wyrm en réserve et 5 points d'énergie."
    )
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    assert step_guide(state, FR) == (
        "Les Wyrms agissent\u202f: touchez l'un de vos Wyrms marqués pour l'activer "
        "(2 actions), puis Terminé."
    )
    state.apply(Activate("rh1"))
    assert step_guide(state, FR) == (
        "Votre Wyrm au Creux des Runes 1 a encore 2 actions\u202f: touchez une case verte "
        "pour y aller (→2\u202f: le déplacement coûte 2 actions), une rouge pour "
        "attaquer\u202f; ou Fin de l'activation."
    )


def test_the_isle_read_out_in_french_names_spaces_by_their_french_names():
    state = duel().new_initial_state()
    state.apply(Summon(K.WYRM, "rh1"))
    text = describe_board(
        state.creatures(), state.game.labels, targets(state), place_terms(state.game.isle), FR
    )
    assert text.startswith(
        "L'île\u202f: le Wyrm de Ragna au Creux des Runes 1. Touchez pour invoquer\u202f: "
        "Creux des Runes 2, Creux des Runes 3,"
    )
    assert "Étendue des Braises 1" in text and "Rune Hollow" not in text


def test_undo_and_redo_labels_are_told_again_in_french(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        game_id = store.new_game(SETUP).id
        session = GameSession(store, game_id)
        done = session.do(Summon(K.WYRM, "rh1"), by="red")
        assert done.ok and done.text(FR) == (
            "Ragna invoque un Wyrm au Creux des Runes 1 pour 5 points d'énergie (5 → 0)"
        )
        english = session.undo_text(language("en"))
        assert english == "Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)"
        assert session.undo_text(FR) == done.text(FR)
        undone = session.undo()
        assert str(undone.said) == f"Undone: {english}"
        assert undone.text(FR) == f"Annulé\u202f: {done.text(FR)}"
        assert session.redo_text(FR) == done.text(FR)
        refused = session.do(Summon(K.TROLL, "rh1"), by="red")
        assert refused.text(FR) == "C'est l'étape des Wyrms, pas celle des Trolls."


def test_territory_labels_on_the_isle_are_french_and_placed_by_their_own_width():
    names = territory_names(DUEL, FR)
    ember = next(t for t in DUEL.territories if t.label == "Ember Reach")
    assert label_text(ember, names[ember.id]) == "Étendue des Braises ◆" + str(ember.bonus)
    layout = Layout.fit(DUEL, 360, 420)
    english = label_places(DUEL, layout)
    french = label_places(DUEL, layout, names)
    width = {tid: box[2] - box[0] for tid, box in french.items()}
    assert width[ember.id] > english[ember.id][2] - english[ember.id][0]
    # The spaces are read out by their French names too.
    assert FR.value(board_place_terms(DUEL)["rh1"], "nu") == "Creux des Runes 1"


def test_a_shipped_layout_copied_in_french_is_named_in_french():
    draft = BoardDraft.from_board(DUEL, FR)
    assert draft.name == "Mon Île du Duel"
    assert "Falaises du Nord" in [t.name for t in draft.territories]
    history = DraftHistory(draft, FR)
    history.set_bonus("north-cliffs", 3)
    assert FR.render(history.undo_message) == "mettre le bonus de Falaises du Nord à 3"
    # English stays the default.
    assert BoardDraft.from_board(DUEL).name == "My Duel Isle"
