"""Why the digital board's isle takes no tap now (never ignored without a word),
decided in the play layer and said in English and French."""

from companion.boards import shipped_board
from companion.engine import Game
from companion.language.render import language
from companion.play.board_refusals import go_on_label, untaken
from models.commands import Pass
from models.setup import GameSetup

DUEL = shipped_board("duel-isle")
EN, FR = language("en"), language("fr")
NAMES = {"red": "Ragna", "blue": "Bjorn"}


def game(first_bot: bool):
    players = [{"id": "red"}, {"id": "blue"}]
    players[0 if first_bot else 1]["bot"] = "mcts:normal"
    setup = GameSetup(players=players, board="duel-isle", mode="digital")
    return Game(setup, DUEL).new_initial_state()


def test_a_persons_turn_takes_taps():
    state = game(first_bot=False)
    assert untaken(state, False, {"blue": "mcts:normal"}, NAMES.get) is None


def test_a_computers_turn_names_the_computer_and_its_level_in_both_languages():
    state = game(first_bot=True)
    said = untaken(state, False, {"red": "mcts:normal"}, NAMES.get)
    assert said is not None
    assert EN.render(said).startswith("It is Ragna's turn (Computer: normal)")
    assert "Ragna" in FR.render(said) and "Ordinateur" in FR.render(said)
    # A bot the app has no name for is named as its setup names it.
    assert "(greedy:7)" in EN.render(untaken(state, False, {"red": "greedy:7"}, NAMES.get))


def test_an_energy_and_reset_to_read_names_the_button_that_goes_on():
    state = game(first_bot=False)
    while state.last_tally is None:
        state.apply(Pass())
    said = untaken(state, True, {"blue": "mcts:normal"}, NAMES.get)
    button = EN.render(go_on_label(state))
    assert button == "Continue to round 2"
    assert EN.render(said) == (
        f"Play waits until the Energy and Reset of round 1 is read: tap “{button}” to go on."
    )
    # Once read, the isle takes the person's taps, or says whose computer turn it is.
    after = untaken(state, False, {"blue": "mcts:normal"}, NAMES.get)
    if state.current_player == "red":
        assert after is None
    else:
        assert EN.render(after).startswith("It is Bjorn's turn")
