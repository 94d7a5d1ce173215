"""The New game form's view-model: driven without a browser, its checks the models'."""

from __future__ import annotations

from companion.language import Message
from companion.play.new_game import ENTER, NewGameForm, TerritoryEntry, played_by
from companion.store.store import SavedGame, open_store
from models.rules import EXTENDED_ROUNDS, STANDARD_ROUNDS, rounds_for
from models.setup import GameSetup, Mode


def test_the_seventh_round_is_offered_from_three_players_only():
    # Rulebook, game end: a game lasts 6 rounds; with 3 or 4 players it may last 7.
    assert rounds_for(2) == (STANDARD_ROUNDS,)
    assert rounds_for(3) == rounds_for(4) == (STANDARD_ROUNDS, EXTENDED_ROUNDS)
    form = NewGameForm()
    form.set_count(4)
    form.final_round = EXTENDED_ROUNDS
    form.set_count(3)
    assert form.final_round == EXTENDED_ROUNDS
    # Down to two players, the 7th round goes: the form never holds what the rules refuse.
    form.set_count(2)
    assert form.final_round == STANDARD_ROUNDS and form.rounds() == (STANDARD_ROUNDS,)


def test_the_first_order_moves_a_seat_up_and_takes_a_draw_as_drawn():
    form = NewGameForm()
    form.set_count(3)
    form.move_up(2)
    assert form.seats() == [0, 2, 1]
    form.draw_order(lambda seats: seats.reverse())
    assert form.seats() == [1, 2, 0]
    # Seats beyond the count keep their place behind: a fourth player comes in last.
    form.set_count(4)
    assert form.seats() == [1, 2, 0, 3]


def test_the_form_says_what_keeps_a_game_from_starting():
    form = NewGameForm(names=["Ann", " ann", "Cy", "Di"])
    boards = form.boards()
    assert form.setup(boards) == Message("app.new.name_taken", seat=2, other="Ann")
    form.names[1] = "Bob"
    form.colours[1] = form.colours[0]
    assert form.setup(boards) == Message("app.new.same_colour")
    form.colours[1] = "blue"
    form.board_id = ENTER
    assert form.setup(boards) == Message("app.new.save_board_first")
    form.board_id = "no-such-board"
    assert form.setup(boards) == Message("app.new.choose_board")


def test_a_filled_form_makes_the_game_it_shows(tmp_path):
    form = NewGameForm(names=["Ann", "Bob", "Cy", "Di"])
    form.set_count(3)
    form.move_up(1)
    setup = form.setup(form.boards())
    assert isinstance(setup, GameSetup)
    assert [p.name for p in setup.players] == ["Ann", "Bob", "Cy"]
    assert setup.first_turn_order == ("blue", "red", "green")
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        saved = form.start(store)
        assert isinstance(saved, SavedGame) and store.load(saved.id).setup == saved.setup


def test_the_digital_board_offers_only_boards_it_can_draw_and_seats_the_computers():
    form = NewGameForm(mode=Mode.DIGITAL, board_id=ENTER)
    boards = form.boards()
    assert boards and all(board.playable_digitally for board in boards)
    assert form.board_id == boards[0].id  # typing a board in is for table games
    form.bots[1] = "mcts:easy"
    setup = form.setup(boards)
    assert isinstance(setup, GameSetup) and setup.players[1].bot == "mcts:easy"
    assert played_by("mcts:easy") == Message("app.new.bot_easy") and played_by("odd") is None


def test_a_typed_board_is_made_from_its_territories():
    form = NewGameForm(board_name="Kitchen Isle")
    form.territories = [TerritoryEntry("North", 2, 3), TerritoryEntry("South", 3, 2)]
    board = form.typed_board()
    assert board.name == "Kitchen Isle"
    assert [(t.name, t.bonus, len(t.locations)) for t in board.territories] == [
        ("North", 2, 3),
        ("South", 3, 2),
    ]
