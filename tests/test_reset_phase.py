"""Focused tests of the pure Energy and Reset function (rulings 2, 10, 11, 12 and 13)."""

from __future__ import annotations

import pytest

from companion.engine.isle import compile_isle
from companion.engine.reset_phase import Pass, domination_opportunities, reset_phase
from models.board import Board
from models.rules import CreatureKind

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE

# Twelve locations in five territories; paths do not matter to Energy and Reset.
BOARD = Board(
    id="reset-test",
    name="Reset test isle",
    territories=[
        {"id": "north", "name": "North", "bonus": 2, "locations": ["n1", "n2"]},
        {"id": "south", "name": "South", "bonus": 3, "locations": ["s1", "s2", "s3"]},
        {"id": "rock", "name": "Rock", "bonus": 1, "locations": ["r1"]},
        {"id": "west", "name": "West", "bonus": 2, "locations": ["w1", "w2", "w3"]},
        {"id": "east", "name": "East", "bonus": 3, "locations": ["e1", "e2", "e3"]},
    ],
)
ISLE = compile_isle(BOARD)


def board(**placed: tuple[str, CreatureKind]) -> list[tuple[str, CreatureKind] | None]:
    """The occupants list reset_phase reads, from location=(player, kind) keywords."""
    occupants: list[tuple[str, CreatureKind] | None] = [None] * ISLE.size
    for location, occupant in placed.items():
        occupants[ISLE.index[location]] = occupant
    return occupants


def tally(energy: dict[str, int], order=("red", "blue"), declined=None, final=False, **placed):
    """Run reset_phase on BOARD with the given energy, turn order and creatures."""
    return reset_phase(
        ISLE, list(order), energy, board(**placed), declined or {}, final_round=final
    )


# --- Ruling 2: modifier bands ------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "band", "modifier", "after"),
    [
        (0, "0-9", 5, 5),
        (9, "0-9", 5, 14),
        (10, "10-18", 3, 13),
        (18, "10-18", 3, 21),
        (19, "19-23", 0, 19),
        (23, "19-23", 0, 23),
        (24, "24-29", -3, 21),
        (29, "24-29", -3, 26),
        (30, "30-35", -5, 25),
        (35, "30-35", -5, 30),
    ],
)
def test_band_edges(before, band, modifier, after):
    """Ruling 2: 0-9 +5, 10-18 +3, 19-23 nothing, 24-29 -3, 30-35 -5, at every band edge."""
    result = tally({"red": before, "blue": 20})
    line = result.player("red")
    assert line.band.label == band
    assert line.modifier == modifier
    assert line.sprites == 0
    assert line.domination == 0
    assert line.after == after
    assert result.player("blue").after == 20
    assert not result.game_over


def test_modifier_is_applied_to_every_player_independently():
    """Ruling 10 (pass one): every player's own band applies, whatever the others hold."""
    result = tally({"red": 9, "blue": 30})
    assert [(line.player, line.modifier, line.after) for line in result.players] == [
        ("red", 5, 14),
        ("blue", -5, 25),
    ]


def test_modifier_comes_before_sprites_and_bonus():
    """Ruling 10: the band is read before the Sprite and domination passes add anything."""
    result = tally({"red": 9, "blue": 20}, n1=("red", S), n2=("red", S))
    red = result.player("red")
    # 9 -> +5 (band 0-9) = 14 -> +2 Sprites = 16 -> +2 North = 18; not (9+2+2) -> +3 = 16.
    assert (red.band.label, red.modifier, red.sprites, red.domination) == ("0-9", 5, 2, 2)
    assert red.after == 18


# --- Ruling 10, pass two: uncontested Sprites ---------------------------------------------


def test_uncontested_sprites_pay_one_each():
    """Ruling 10: 1 energy per Sprite in a territory holding no other player's creature."""
    result = tally({"red": 20, "blue": 20}, s1=("red", S), s2=("red", S), w1=("red", S))
    red = result.player("red")
    assert red.sprites == 3
    assert red.sprite_territories == [("South", 2), ("West", 1)]
    assert red.after == 23
    assert result.player("blue").sprites == 0


def test_rival_troll_makes_territory_contested():
    """Ruling 10: a territory with a rival Troll pays no Sprites to anyone."""
    result = tally({"red": 20, "blue": 20}, s1=("red", S), s2=("red", S), s3=("blue", T))
    assert result.player("red").sprites == 0
    assert result.player("red").sprite_territories == []
    assert result.player("red").after == 20
    assert result.player("blue").after == 20


def test_rival_sprite_contests_both_ways():
    """Ruling 10: Sprites of two players in one territory earn nothing for either."""
    result = tally({"red": 20, "blue": 20}, e1=("red", S), e2=("blue", S))
    assert (result.player("red").sprites, result.player("blue").sprites) == (0, 0)


def test_own_wyrm_and_troll_do_not_contest_and_do_not_pay():
    """Ruling 10: only Sprites pay; the owner's other creatures do not contest the territory."""
    result = tally({"red": 20, "blue": 20}, w1=("red", S), w2=("red", T), n1=("red", W))
    red = result.player("red")
    assert red.sprites == 1
    assert red.sprite_territories == [("West", 1)]
    assert red.after == 21


# --- Ruling 10, pass three: domination ----------------------------------------------------


def test_domination_needs_every_location():
    """Ruling 10: a territory with an empty location is not dominated."""
    result = tally({"red": 20, "blue": 20}, s1=("red", S), s2=("red", S))
    assert result.player("red").dominated == []
    assert result.player("red").domination == 0
    assert domination_opportunities(ISLE, ["red", "blue"], board(s1=("red", S))) == []


def test_domination_fails_with_a_rival_in_the_territory():
    """Ruling 10: every location must hold the player's own creatures."""
    result = tally({"red": 20, "blue": 20}, s1=("red", T), s2=("red", T), s3=("blue", S))
    assert result.player("red").domination == 0
    assert result.player("blue").domination == 0


def test_domination_pays_the_bonus_with_any_kinds():
    """Ruling 10: holding every location (any creatures) pays the territory bonus."""
    result = tally(
        {"red": 20, "blue": 20}, s1=("red", T), s2=("red", W), s3=("red", T), r1=("blue", T)
    )
    red = result.player("red")
    assert red.domination == 3
    assert [(d.territory, d.bonus, d.taken) for d in red.dominated] == [("south", 3, True)]
    assert red.after == 23
    blue = result.player("blue")
    assert blue.domination == 1
    assert blue.after == 21


def test_domination_and_sprites_add_up():
    """Ruling 10: a territory full of one player's Sprites pays both its Sprites and its bonus."""
    result = tally({"red": 12, "blue": 20}, n1=("red", S), n2=("red", S))
    red = result.player("red")
    assert (red.modifier, red.sprites, red.domination, red.after) == (3, 2, 2, 19)


def test_declined_domination():
    """Ruling 10: taking a bonus is optional, per territory."""
    result = tally(
        {"red": 20, "blue": 20},
        declined={"red": ["north"]},
        n1=("red", T),
        n2=("red", T),
        r1=("red", T),
    )
    red = result.player("red")
    assert [(d.territory, d.taken) for d in red.dominated] == [("north", False), ("rock", True)]
    assert red.domination == 1
    assert red.after == 21


def test_domination_opportunities_in_turn_order():
    """Ruling 10: domination choices come player by player in turn order."""
    occupants = board(n1=("red", T), n2=("red", S), r1=("blue", S), e1=("blue", T))
    assert domination_opportunities(ISLE, ["blue", "red"], occupants) == [
        ("blue", "rock"),
        ("red", "north"),
    ]


# --- Ruling 11: reaching 36 stops the phase -------------------------------------------------

RED_SIX = {
    "n1": ("red", S),
    "n2": ("red", S),
    "s1": ("red", S),
    "s2": ("red", S),
    "s3": ("red", S),
    "r1": ("red", S),
}
BLUE_SIX = {
    "w1": ("blue", S),
    "w2": ("blue", S),
    "w3": ("blue", S),
    "e1": ("blue", S),
    "e2": ("blue", S),
    "e3": ("blue", S),
}


def test_win_in_sprite_pass_stops_later_players():
    """Ruling 11: red reaches 36 in the Sprite pass; blue, later, gets no Sprites or bonus."""
    result = tally({"red": 35, "blue": 10}, **RED_SIX, w1=("blue", S), w2=("blue", S))
    assert (result.winner, result.summoner, result.game_over) == ("red", True, True)
    assert result.decided_in is Pass.SPRITES
    red = result.player("red")
    assert (red.modifier, red.sprites, red.domination, red.after) == (-5, 6, 0, 36)
    assert red.dominated == []
    blue = result.player("blue")
    # The modifier pass had finished for everyone; the Sprite pass never reached blue.
    assert (blue.modifier, blue.sprites, blue.after) == (3, 0, 13)
    assert str(result.winner_message) == (
        "red reached 36 in the sprites pass and wins at once with Summoner status."
    )


@pytest.mark.parametrize(("first", "second"), [("red", "blue"), ("blue", "red")])
def test_first_in_turn_order_to_reach_36_wins(first, second):
    """Ruling 11: both would reach 36 in the Sprite pass; the first in turn order wins."""
    result = tally({"red": 35, "blue": 35}, order=(first, second), **RED_SIX, **BLUE_SIX)
    assert result.winner == first
    assert result.player(first).after == 36
    assert result.player(second).after == 30
    assert result.player(second).sprites == 0


# Red's Sprites hold the South and the Rock (bonus 4), blue's the West (bonus 2).
BOTH_HOLD_A_TERRITORY = {
    "s1": ("red", S),
    "s2": ("red", S),
    "s3": ("red", S),
    "r1": ("red", S),
    "w1": ("blue", S),
    "w2": ("blue", S),
    "w3": ("blue", S),
}


def test_win_in_domination_pass_stops_later_players():
    """Ruling 11: red wins in the domination pass; blue, later, keeps its Sprites, no bonus."""
    result = tally({"red": 35, "blue": 20}, **BOTH_HOLD_A_TERRITORY)
    assert result.winner == "red"
    assert result.decided_in is Pass.DOMINATION
    red = result.player("red")
    assert (red.sprites, red.domination, red.after) == (4, 4, 38)
    blue = result.player("blue")
    assert (blue.modifier, blue.sprites, blue.domination, blue.after) == (0, 3, 0, 23)
    assert blue.dominated == []


def test_domination_earlier_in_order_is_applied_before_a_later_win():
    """Ruling 11: blue, earlier in the order, takes its bonus before red wins."""
    result = tally({"red": 35, "blue": 20}, order=("blue", "red"), **BOTH_HOLD_A_TERRITORY)
    assert result.winner == "red"
    assert result.player("blue").after == 25
    assert result.player("blue").domination == 2


def test_declining_the_winning_bonus_means_no_win():
    """Rulings 10 and 11: a declined bonus is not gained, so it cannot win."""
    placed = {"s1": ("red", S), "s2": ("red", S), "s3": ("red", S), "r1": ("red", S)}
    result = tally({"red": 35, "blue": 20}, declined={"red": ["south"]}, **placed)
    assert result.winner is None
    assert not result.game_over
    assert result.player("red").after == 35


# --- Ruling 12: next turn order --------------------------------------------------------------


def test_next_turn_order_lowest_first():
    """Ruling 12: the lowest energy goes first next round."""
    result = tally({"red": 20, "blue": 9})
    assert result.turn_order == ("blue", "red")
    assert result.order_messages == ()


def test_next_turn_order_tie_goes_to_the_later_player():
    """Ruling 12, rulebook example: John 2nd and Sarah 4th tie for first; Sarah goes first."""
    order = ("ann", "john", "bob", "sarah")
    energy = {"ann": 20, "john": 10, "bob": 30, "sarah": 10}
    result = reset_phase(ISLE, order, energy, board(), {}, labels={p: p.title() for p in order})
    assert [line.after for line in result.players] == [20, 13, 25, 13]
    assert result.turn_order == ("sarah", "john", "ann", "bob")
    assert tuple(map(str, result.order_messages)) == (
        "Sarah and John are tied on 13: whoever was later in this round's order goes earlier, "
        "so the order is Sarah, John.",
    )


# --- Ruling 13: the end of the final round ---------------------------------------------------


def test_final_round_most_energy_wins_without_summoner_status():
    """Ruling 13: after the final round's reset, the most energy wins, no Summoner status."""
    result = tally({"red": 20, "blue": 18}, final=True)
    assert (result.winner, result.summoner, result.game_over) == ("blue", False, True)
    assert result.decided_in is Pass.FINAL_ROUND
    assert str(result.winner_message) == "blue has the most energy (21) and wins."


def test_final_round_tie_rulebook_example():
    """Ruling 13, rulebook example: John (2nd) and Sarah (3rd) tie on 27; Sarah wins."""
    order = ("ann", "john", "sarah")
    energy = {"ann": 10, "john": 32, "sarah": 32}
    labels = {"ann": "Ann", "john": "John", "sarah": "Sarah"}
    result = reset_phase(ISLE, order, energy, board(), {}, final_round=True, labels=labels)
    assert [line.after for line in result.players] == [13, 27, 27]
    assert (result.winner, result.summoner, result.game_over) == ("sarah", False, True)
    assert str(result.winner_message) == (
        "John and Sarah tie on 27; Sarah was latest in the final round's order and wins."
    )


def test_reaching_36_in_the_final_round_keeps_summoner_status():
    """Rulings 11 and 13: a 36 in the final round's reset is still an immediate Summoner win."""
    result = tally({"red": 35, "blue": 10}, final=True, **RED_SIX)
    assert (result.winner, result.summoner, result.decided_in) == ("red", True, Pass.SPRITES)


# --- Explanations ------------------------------------------------------------------------------


def test_explanation_mentions_every_number():
    """Ruling 10: the tally explains band, Sprites and domination with their numbers."""
    result = tally({"red": 12, "blue": 20}, n1=("red", S), n2=("red", S), s1=("red", S))
    assert str(result.player("red").explanation("Red")) == (
        "Red starts on 12; band 10-18 gives +3; uncontested Sprites give +3 "
        "(2 in North, 1 in South); holding all of North: +2; ends on 20."
    )


def test_explanation_of_no_change_and_declined_bonus():
    """Rulings 2 and 10: the 19-23 band says 'no change'; a declined bonus says so."""
    result = tally({"red": 20, "blue": 20}, declined={"red": ["rock"]}, r1=("red", T))
    assert str(result.player("red").explanation("Red")) == (
        "Red starts on 20; band 19-23 gives no change; holding all of Rock: declined (1); "
        "ends on 20."
    )


def test_explanation_of_loss():
    """Ruling 2: a losing band shows its negative change."""
    result = tally({"red": 30, "blue": 20})
    assert str(result.player("red").explanation("Red")) == (
        "Red starts on 30; band 30-35 gives -5; ends on 25."
    )
