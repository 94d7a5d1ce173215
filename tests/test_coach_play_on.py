"""Play on from any moment: a new digital game from a table game's Energy
and Reset or a digital game's record, its own game in the store, the original untouched."""

from __future__ import annotations

import pytest

from companion.boards import resolve_board, shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.coach import CoachError, playable
from companion.coach.play_on import play_on_log
from companion.coach.tabled import as_table
from companion.engine import Game, SetupError
from companion.engine.replay import replay
from companion.language.render import render
from companion.store.play_on import play_on
from companion.store.store import open_store
from models.commands import EnergyAndReset, Summon
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

NAMES = (("a", "Ann"), ("b", "Bob"), ("c", "Cy"))


def greedy_game(players: int, seed: int = 7):
    board = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": i, "name": n} for i, n in NAMES[:players]], board=board, mode="digital"
    )
    game = Game(setup, shipped_board(board))
    bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(players)]
    return game, play(game, bots, SeededDice(seed))


@pytest.fixture
def store(tmp_path):
    with open_store(str(tmp_path / "games.db")) as opened:
        yield opened


def resets(records) -> list[int]:
    """The moments right after each Energy and Reset, as record counts."""
    return [n + 1 for n, record in enumerate(records) if isinstance(record, EnergyAndReset)]


def test_a_table_games_round_3_plays_on_as_a_new_digital_game_from_its_position(store):
    game, played = greedy_game(3)
    table, records = as_table(game, played.commands)
    original = store.import_log(GameLog.of(table.setup, records))
    upto = resets(records)[1]  # after round 2's Energy and Reset: round 3 starts
    at_table = replay(table, records[:upto])
    assert at_table.round == 3

    new = play_on(store, original.id, upto, {"b": "mcts:easy", "c": "greedy"})

    assert new.id != original.id and new.log == ()
    assert new.setup.mode is Mode.DIGITAL
    assert [(p.id, p.name, p.bot) for p in new.setup.players] == [
        ("a", "Ann", None),
        ("b", "Bob", "mcts:easy"),
        ("c", "Cy", "greedy"),
    ]
    assert new.state.position() == playable(at_table).position()
    assert new.state.round == 3 and new.state.legal_commands()
    # The new game is the store's like any other: it reloads from its setup, and plays on.
    assert store.load(new.id).state.position() == new.state.position()
    command = new.state.legal_commands()[0]
    assert store.append(new.id, command, new.revision).log[0].command == command
    # The original is untouched.
    kept = store.load(original.id)
    assert kept.revision == original.revision and kept.log == original.log
    assert store.export(original.id) == GameLog.of(table.setup, records)


def test_a_digital_games_record_plays_on_with_the_records_before_it(store):
    game, played = greedy_game(2)
    original = store.import_log(GameLog.of(game.setup, played.commands))
    upto = 57

    new = play_on(store, original.id, upto, {"a": "mcts:normal"})

    assert new.id != original.id
    assert [e.command for e in new.log] == [e.command for e in original.log[:upto]]
    assert [e.tap for e in new.log] == [e.tap for e in original.log[:upto]]
    assert new.state.position() == replay(game, played.commands[:upto]).position()
    assert [p.bot for p in new.setup.players] == ["mcts:normal", None]
    assert new.setup.start is None
    assert store.load(original.id).log == original.log


def test_the_start_of_a_table_game_plays_on_too():
    game, _ = greedy_game(2)
    table, _ = as_table(game, [])
    log = play_on_log(table, [], 0, {})
    assert Game(log.setup, table.board).new_initial_state().position() == (
        game.new_initial_state().position()
    )


def test_a_table_moment_whose_board_is_not_known_is_refused_in_both_languages():
    game, played = greedy_game(2)
    table, records = as_table(game, played.commands)
    after_a_summon = next(n + 1 for n, r in enumerate(records) if isinstance(r, Summon))
    with pytest.raises(CoachError) as refused:
        play_on_log(table, records, after_a_summon, {})
    assert "right after an Energy and Reset" in str(refused.value)
    assert "juste après une Énergie et Réinitialisation" in render(refused.value.message, "fr")


@pytest.mark.parametrize(
    ("upto", "computers", "english", "french"),
    [
        (-1, {}, "-1 is not a moment of this game: from 0 (its start) to", "de 0 (son début)"),
        (10_000, {}, "10,000 is not a moment", "10\u202f000 n'est pas un moment"),
        (3, {"zed": "greedy"}, "'zed' is not a player of this game", "ne joue pas"),
        (3, {"a": "chess"}, "chess", "chess"),
        (3, {"a": "mcts:expert"}, "expert", "expert"),
    ],
)
def test_bad_moments_and_seats_are_refused_in_one_sentence(upto, computers, english, french):
    game, played = greedy_game(2)
    with pytest.raises(CoachError) as refused:
        play_on_log(game, played.commands, upto, computers)
    assert english in str(refused.value)
    assert french in render(refused.value.message, "fr")


def test_the_end_of_a_game_has_nothing_to_play_on():
    game, played = greedy_game(2)
    with pytest.raises(CoachError) as refused:
        play_on_log(game, played.commands, len(played.commands), {})
    assert "the game is over" in str(refused.value)


def test_a_table_game_without_paths_cannot_be_played_on_digitally():
    board = resolve_board(
        {
            "territories": [
                {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
                {"id": "south", "bonus": 1, "locations": ["s1", "s2"]},
            ]
        }
    )
    table = Game(GameSetup(players=[{"id": "a"}, {"id": "b"}], board=board), board)
    with pytest.raises(CoachError) as refused:
        play_on_log(table, [], 0, {})
    assert "cannot be played on digitally" in str(refused.value)
    assert "no paths" in str(refused.value)


@pytest.mark.parametrize(
    "start",
    [
        "not a position",
        "3aW20 1/6 summoning:0:1 ab 0,5 039/000/000/000,139/000/000/000 -:0 - - 0 -",  # Wyrm?
        "999999999999 1/6 summoning:0:0 ab 5,5 135/000/000/000,135/000/000/000 -:0 - - 0 -",
        "24 \u0661/6 summoning:0:0 ab 5,5 135/000/000/000,135/000/000/000 -:0 - - 0 -",
    ],
)
def test_a_setup_whose_start_is_no_position_of_its_game_is_refused(start):
    setup = GameSetup(players=[{"id": "a"}, {"id": "b"}], board="duel-isle", mode="digital")
    with pytest.raises(SetupError) as refused:
        Game(setup.model_copy(update={"start": start}), shipped_board("duel-isle"))
    assert "the setup's start is not a position" in str(refused.value)
    assert "n'est pas une position" in render(refused.value.message, "fr")


def test_a_log_with_a_start_replays_from_it_and_a_long_start_is_refused():
    game, played = greedy_game(2)
    state = replay(game, played.commands[:30])
    log = GameLog.of(game.setup.model_copy(update={"start": state.position()}), [])
    read = GameLog.model_validate_json(log.model_dump_json())
    assert Game(read.setup, game.board).new_initial_state().position() == state.position()
    data = log.to_json()
    data["setup"]["start"] = "1" * 1001
    with pytest.raises(ValueError, match="at most 1000"):
        GameLog.model_validate(data)
