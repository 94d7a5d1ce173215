"""What the app's screens stand on, without a browser: the session, user boards, the font."""

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from companion.boards import BoardError
from companion.boards.user import board_from_counts, save_user_board, user_boards
from companion.play.session import GameSession
from companion.store.store import open_store
from models.commands import (
    Activate,
    Attack,
    Declined,
    EndActivation,
    EnergyAndReset,
    Pass,
    Placement,
    Removal,
    Summon,
)
from models.game_log import GameLog
from models.rules import CreatureKind as K
from models.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def session(tmp_path):
    store = open_store(str(tmp_path / "games.sqlite3"))
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}], board="duel-isle"
    )
    yield GameSession(store, store.new_game(setup).id)
    store.close()


def test_a_refused_command_says_why_and_stores_nothing(session):
    """Ruling 3 through the app: the Wyrms step refuses a Sprite; the reason reads as a sentence."""
    outcome = session.do(Summon(K.SPRITE))
    assert not outcome.ok
    assert str(outcome.said) == "It is the Wyrms step, not Sprites."
    assert session.saved.log == ()


def test_records_undo_and_redo_go_through_the_store(session):
    done = session.do(Summon(K.WYRM))
    assert done.ok and str(done.said) == "Ragna summons a Wyrm for 5 energy (5 → 0)"
    assert str(session.undo().said) == "Undone: Ragna summons a Wyrm for 5 energy (5 → 0)"
    assert session.state.energy_of("red") == 5
    assert session.redo().ok
    reopened = GameSession(session.store, session.id)
    assert reopened.state.energy_of("red") == 0


def test_another_device_moving_on_is_reported_and_reloaded(session):
    other = GameSession(session.store, session.id)
    assert other.do(Summon(K.WYRM)).ok
    outcome = session.do(Pass())
    assert not outcome.ok and "The game moved on before that tap" in str(outcome.said)
    assert "(last recorded: Ragna summons a Wyrm" in str(outcome.said)
    assert session.state.energy_of("red") == 0


def test_reset_preview_is_the_engines_tally_and_records_nothing(session):
    """Ruling 10 through the app: preview the Energy and Reset with a declined bonus."""
    for command in [Summon(K.WYRM), Pass(), Summon(K.TROLL), Summon(K.SPRITE), Summon(K.SPRITE)]:
        assert session.do(command).ok
    assert session.do(Removal("blue", K.SPRITE)).ok
    for _ in range(3):
        assert session.do(Pass()).ok
    reset = EnergyAndReset(
        (
            Placement("rh1", "red", K.WYRM),
            Placement("ss1", "blue", K.TROLL),
            Placement("ss2", "blue", K.SPRITE),
        ),
        (Declined("blue", "skalds-strand"),),
    )
    tally = session.reset_preview(reset)
    assert tally.player("blue").after == 6 and tally.player("red").after == 6
    assert tally.turn_order == ("blue", "red")
    assert session.state.round == 1
    too_many = EnergyAndReset((Placement("rh1", "red", K.TROLL),), ())
    assert "Ragna has 0 Trolls on the board" in str(session.reset_preview(too_many))


def test_user_boards_are_saved_and_listed(tmp_path, monkeypatch):
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(tmp_path))
    board = board_from_counts("Kitchen Table", [("North", 2, 3), ("South Bay", 1, 2)])
    save_user_board(board)
    (loaded,) = user_boards()
    assert loaded == board
    assert loaded.id == "my-kitchen-table"
    assert loaded.territories[1].locations == ("south-bay-1", "south-bay-2")


def test_a_board_that_cannot_be_written_is_a_clear_error_and_leaves_nothing(tmp_path, monkeypatch):
    # The data folder's place is taken by a file: the boards folder cannot be made.
    blocked = tmp_path / "data"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(blocked))
    board = board_from_counts("Kitchen Table", [("North", 2, 3)])
    with pytest.raises(BoardError, match="could not save the board in"):
        save_user_board(board)
    assert blocked.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize(
    ("name", "territories", "message"),
    [
        ("", [("North", 2, 3)], "name"),
        ("Board", [], "at least one territory"),
        ("Board", [("North", 2, 3), ("north", 1, 1)], "two territories"),
        ("Board", [("North", 4, 3)], "North"),
        ("Board", [("", 2, 3)], "territory 1 needs a name"),
    ],
)
def test_bad_user_boards_say_what_is_wrong(name, territories, message):
    with pytest.raises(BoardError, match=message):
        board_from_counts(name, territories)


# Names players type, in the scripts the shipped font is cut down to (see `make fonts`).
PLAYER_NAMES = "Sigrún Bjørn Łukasz Zoë Şahin Nguyễn Ærøskøbing Αθηνά Ёжик Мирослава Đorđe ŒUVRE"


def test_the_shipped_font_covers_every_character_the_app_shows():
    cmap = TTFont(ROOT / "assets" / "fonts" / "DejaVuSans.ttf").getBestCmap()
    # Screens, and the engine's sentences and board names they show.
    sources = [*(ROOT / "companion").rglob("*.py"), *(ROOT / "models").rglob("*.py")]
    sources += (ROOT / "companion" / "data" / "boards").glob("*.json")
    text = "".join(p.read_text(encoding="utf-8") for p in sources) + PLAYER_NAMES
    wanted = set(re.sub(r"[\x00-\x1f\x7f]", "", text))
    missing = sorted(ch for ch in wanted if ord(ch) not in cmap)
    assert not missing, f"no glyph for {missing}"


def test_a_player_is_told_the_attacks_made_since_their_last_decision(tmp_path):
    # Computers play fast, and a creature that vanished while a person
    # looked away was explained only in the log. The turn card tells the attacks since then.
    setup = GameSetup(
        players=[
            {"id": "red", "name": "Ragna", "colour": "red"},
            {"id": "blue", "name": "Bjorn", "colour": "blue", "bot": "greedy"},
        ],
        board="duel-isle",
        mode="digital",
    )
    summons = [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2")]
    summons += [Summon(K.SPRITE, "rh3"), Pass()]
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        game = store.import_log(GameLog.of(setup, summons)).id
        session = GameSession(store, game)
        # Ragna's Wyrm attacks Bjorn's Sprite at rh2 (dice that win), then ends its activation.
        assert session.do_all([Activate("rh1"), Attack("rh2", 6, 1)]).ok
        # Her own attack is not news to her; Bjorn, who decided before it, is told.
        assert session.since_last("red") == ()
        (told,) = session.since_last("blue")
        assert str(told).startswith("Ragna's Wyrm at Rune Hollow 1 attacks Bjorn's Sprite")
        # Once Bjorn decides, it is behind him.
        assert session.do(EndActivation()).ok
        assert session.state.current_player == "blue"
        assert session.do(Pass()).ok
        assert session.since_last("blue") == ()
