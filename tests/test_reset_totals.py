"""Digital Energy and Reset shows each energy as the passes leave it.

Ruling 10: the modifier, Sprite and domination passes run one after another, in turn order.
So when a player decides on a domination bonus, the first two passes and every bonus
decided before theirs have already moved the counters: the state shows those totals, and a
person or a bot decides on them (declining can be a real choice, to stay out of a band).
"""

from companion.boards import shipped_board
from companion.engine import Game, GameState, Phase
from models.commands import Dominate, Pass
from models.setup import GameSetup

# Duel Isle, round 2, Actions, Sprite step, Red's turn. Red's four Sprites hold North Cliffs
# (bonus 2) and Blue's two hold Skald's Strand (bonus 1); all uncontested. Red has one Sprite
# still face up, so Red's pass is the last decision of the Actions phase.
BEFORE_RESET = (
    "aSasasas12bsbs6 2/6 actions:2:0 ab 12,20 135/004/000/001,137/002/000/000 -:0 - - 0 -"
)


def at_domination_choices() -> GameState:
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital")
    state = GameState.from_position(Game(setup, shipped_board("duel-isle")), BEFORE_RESET)
    state.apply(Pass(by="red"))
    assert state.phase is Phase.ENERGY_AND_RESET
    return state


def test_deciding_players_see_the_modifier_and_sprite_passes_done():
    state = at_domination_choices()
    preview = state.reset_preview()
    red, blue = preview.player("red"), preview.player("blue")
    assert (red.sprites, blue.sprites) == (4, 2)
    assert state.energy_of("red") == 12 + red.modifier + 4
    assert state.energy_of("blue") == 20 + blue.modifier + 2
    assert state.current_player == "red"
    # The position keeps the energies the phase began with, after the '@'.
    assert f" {state.energy_of('red')},{state.energy_of('blue')}@12,20 " in state.position()


def test_a_bonus_taken_earlier_in_turn_order_shows_before_the_next_choice():
    state = at_domination_choices()
    red_before, blue_before = state.energy_of("red"), state.energy_of("blue")
    state.apply(Dominate("north-cliffs", True, by="red"))
    assert state.energy_of("red") == red_before + 2
    assert state.energy_of("blue") == blue_before
    assert state.current_player == "blue"
    state.apply(Dominate("skalds-strand", False, by="blue"))
    # The round is over: the tally from the phase's starting energies gives the same totals.
    assert state.phase is Phase.SUMMONING and state.round == 3
    assert state.last_tally is not None
    assert state.energy_of("red") == red_before + 2 == state.last_tally.player("red").after
    assert state.energy_of("blue") == blue_before == state.last_tally.player("blue").after
    assert "@" not in state.position()


def test_a_declined_bonus_leaves_the_total_as_the_first_passes_left_it():
    state = at_domination_choices()
    red_before = state.energy_of("red")
    state.apply(Dominate("north-cliffs", False, by="red"))
    assert state.energy_of("red") == red_before
    state.apply(Dominate("skalds-strand", True, by="blue"))
    assert state.energy_of("red") == red_before
    assert state.last_tally is not None
    assert [line.taken for line in state.last_tally.player("red").dominated] == [False]


def test_a_position_mid_reset_reads_back_and_finishes_the_same():
    state = at_domination_choices()
    state.apply(Dominate("north-cliffs", True, by="red"))
    back = GameState.from_position(state.game, state.position())
    assert back.position() == state.position()
    for done in (state, back):
        done.apply(Dominate("skalds-strand", True, by="blue"))
    assert back.position() == state.position()


def test_a_bonus_that_reaches_36_ends_the_game_at_once():
    """Ruling 11: a win in the domination pass ends the game before later choices."""
    text = BEFORE_RESET.replace(" 12,20 ", " 35,20 ")
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital")
    state = GameState.from_position(Game(setup, shipped_board("duel-isle")), text)
    state.apply(Pass(by="red"))
    # 35, less 5 (band 30-35), and 4 Sprites stay under 36; the bonus of 2 reaches it.
    below = state.energy_of("red")
    assert below < 36 <= below + 2
    state.apply(Dominate("north-cliffs", True, by="red"))
    assert state.is_terminal and state.winner_id == "red" and state.summoner
    assert state.energy_of("red") == below + 2
