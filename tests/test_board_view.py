"""The logic under the digital board, without a browser: geometry, taps, highlights, bots' turns."""

import math
import random
from itertools import pairwise

import pytest
from pydantic import ValidationError

from companion.app.screens.board_bar import BAR_MARGIN, BAR_MOST, bar_padding
from companion.app.sizes import TAP
from companion.boards import shipped_board, shipped_board_ids
from companion.boards.user import board_from_counts
from companion.engine import Game, Phase
from companion.engine.dice import with_rolls
from companion.engine.queries import undo_depth
from companion.language import Message
from companion.language.render import language
from companion.play.board_draft import BoardDraft
from companion.play.board_guide import step_guide
from companion.play.board_labels import INSCRIBED, label_places
from companion.play.board_layout import (
    MARK_REACH,
    MIN_SPACING,
    Layout,
    along,
    canvas_height,
    convex_hull,
)
from companion.play.board_taps import Mark, describe_board, meaning, targets
from companion.play.turns import bot_seats
from models.commands import Activate, Attack, Dominate, EndActivation, Move, Pass, Summon, Swap
from models.rules import CreatureKind as K
from models.seeded_dice import SeededDice
from models.setup import GameSetup, PlayerSetup

DUEL = shipped_board("duel-isle")
GATHERING = shipped_board("gathering-isle")
PHONE_WIDTH = 336  # a 360 px phone less the screen's padding
TABLET_WIDTH = 700


def duel(bot: str | None = "greedy") -> Game:
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn", "bot": bot}],
        board="duel-isle",
        mode="digital",
    )
    return Game(setup, DUEL)


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
@pytest.mark.parametrize("width", [PHONE_WIDTH, TABLET_WIDTH])
def test_every_space_fits_the_canvas_and_a_tap_on_it_finds_it(board, width):
    height = canvas_height(board, width)
    layout = Layout.fit(board, width, height)
    assert set(layout.points) == set(board.location_ids)
    for location, (x, y) in layout.points.items():
        assert layout.radius <= x <= width - layout.radius
        assert layout.radius <= y <= height - layout.radius
        assert layout.location_at(x, y) == location
        # A tap anywhere on the drawn space still finds it.
        assert layout.location_at(x + layout.radius * 0.7, y - layout.radius * 0.7) == location


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
def test_spaces_are_tap_targets_of_at_least_48_px_even_on_a_phone(board):
    layout = Layout.fit(board, PHONE_WIDTH, canvas_height(board, PHONE_WIDTH))
    assert layout.reach * 2 >= TAP
    # Spaces never overlap, so the nearest space is always the one meant.
    points = list(layout.points.values())
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
    assert closest > 2 * layout.radius


def test_the_board_scales_from_phone_to_tablet_keeping_its_shape():
    phone = Layout.fit(DUEL, PHONE_WIDTH, canvas_height(DUEL, PHONE_WIDTH))
    tablet = Layout.fit(DUEL, TABLET_WIDTH, canvas_height(DUEL, TABLET_WIDTH))
    assert tablet.radius > phone.radius
    for a, b in [("nc1", "fh2"), ("wf1", "ss2"), ("nc2", "tf2")]:
        ratio_phone = math.dist(phone.points[a], phone.points[b]) / PHONE_WIDTH
        ratio_tablet = math.dist(tablet.points[a], tablet.points[b]) / TABLET_WIDTH
        assert ratio_phone == pytest.approx(ratio_tablet, rel=0.15)


def test_a_tap_on_the_sea_far_from_every_space_hits_nothing():
    layout = Layout.fit(DUEL, PHONE_WIDTH, canvas_height(DUEL, PHONE_WIDTH))
    assert layout.location_at(1, 1) is None
    assert layout.location_at(-50, -50) is None


def test_a_tall_board_is_capped_and_still_fits():
    height = canvas_height(DUEL, TABLET_WIDTH, max_height=400)
    assert height == 400
    layout = Layout.fit(DUEL, TABLET_WIDTH, height)
    assert all(0 < y < 400 for _, y in layout.points.values())


def test_convex_hull_keeps_the_corners_only():
    square = [(0, 0), (4, 0), (4, 4), (0, 4), (2, 2), (1, 3)]
    assert sorted(convex_hull(square)) == [(0, 0), (0, 4), (4, 0), (4, 4)]
    assert convex_hull([(1, 1), (3, 3)]) == [(1, 1), (3, 3)]
    assert convex_hull([(2, 2)]) == [(2, 2)]


def test_summoning_highlights_every_vacant_space_and_taps_summon_there():
    state = duel().new_initial_state()
    marks = targets(state)
    assert set(marks) == set(DUEL.location_ids)
    assert {target.mark for target in marks.values()} == {Mark.SUMMON}
    assert state.tap_command("rh1") == Summon(K.WYRM, "rh1") == marks["rh1"].command
    state.apply(Summon(K.WYRM, "rh1"))
    # Bjorn's Wyrm: rh1 is taken now, so it is not marked, and a tap there is refused.
    assert "rh1" not in targets(state)
    assert state.tap_command("rh1") not in state.legal_commands()


def test_an_active_creature_shows_its_moves_with_costs_attacks_and_nothing_else():
    state = duel().new_initial_state()
    # Ragna's Wyrm at rh1; Bjorn skips Wyrms and Trolls and puts a Sprite next to it at rh2.
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    assert (state.phase, state.current_player) == (Phase.ACTIONS, "red")
    marks = targets(state)
    assert list(marks) == ["rh1"] and marks["rh1"].mark is Mark.ACTIVATE
    assert state.tap_command("rh1") == Activate("rh1")
    state.apply(Activate("rh1"))
    marks = targets(state)
    costs = state.reachable(state.active, state.actions_left)
    moves = {loc: t.cost for loc, t in marks.items() if t.mark is Mark.MOVE}
    assert moves == {DUEL.location_ids[i]: cost for i, cost in costs.items()}
    assert moves["nc4"] == 1 and moves["nc3"] == 2
    assert {loc for loc, t in marks.items() if t.mark is Mark.ATTACK} == {"rh2"}
    assert marks["rh2"].command == Attack("rh2") == state.tap_command("rh2")
    assert state.tap_command("nc4") == Move("nc4") == marks["nc4"].command
    # A space beyond reach is still a Move, so the engine can say why it is refused.
    assert state.tap_command("er2") == Move("er2") and "er2" not in marks


def test_a_tap_means_the_legal_command_or_says_why_not():
    """A tap on a space is the engine's command there when it is legal; one that is not is
    told with the reason asked of the session (or a plain 'nothing to do'); the sea is None."""
    state = duel().new_initial_state()
    assert meaning(state, "rh1", lambda _: None) == Summon(K.WYRM, "rh1")
    state.apply(Summon(K.WYRM, "rh1"))
    why = Message("refuse.occupied")
    asked = []
    assert meaning(state, "rh1", lambda command: asked.append(command) or why) == why
    assert asked == [state.tap_command("rh1")]
    assert meaning(state, "rh1", lambda _: None) == Message("game.board.nothing")
    assert meaning(state, "nowhere", lambda _: why) is None


def test_a_wyrm_next_to_its_own_creature_can_swap_for_energy():
    state = duel(bot=None).new_initial_state()
    # Round 1: Ragna's Wyrm at rh1, nothing else; round 2 she is first and has energy again.
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Pass(), Activate("rh1"), Pass()]:
        state.apply(command)
    assert (state.round, state.current_player, state.step_kind) == (2, "blue", K.WYRM)
    for command in [Pass(), Summon(K.TROLL, "rh2"), Pass(), Pass(), Pass()]:
        state.apply(command)
    assert (state.phase, state.current_player, state.step_kind) == (Phase.ACTIONS, "red", K.WYRM)
    state.apply(Activate("rh1"))
    marks = targets(state)
    assert marks["rh2"].mark is Mark.SWAP and marks["rh2"].command == Swap("rh2")
    assert state.tap_command("rh2") == Swap("rh2")


def test_undo_takes_back_a_persons_last_command_and_the_bots_after_it():
    state = duel().new_initial_state()
    commands = []
    # Ragna (a person) summoned; then Bjorn (the bot) made four commands; the log says who.
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        commands.append(state.sign(command))
        state.apply(commands[-1])
    assert [command.by for command in commands] == ["red", "blue", "blue", "blue", "blue"]
    assert undo_depth(commands, {"blue"}) == 5
    assert undo_depth(commands[:1], {"blue"}) == 1
    assert undo_depth([*commands, Activate("rh1", by="red")], {"blue"}) == 1
    assert undo_depth(commands, set()) == 1
    assert undo_depth([], {"blue"}) == 0
    assert undo_depth(commands, {"red", "blue"}) == 0


def test_bot_seats_come_from_the_setup_and_unknown_bots_are_refused():
    assert bot_seats(duel().setup) == {"blue": "greedy"}
    assert PlayerSetup(id="a", bot="mcts:hard").bot == "mcts:hard"
    with pytest.raises(ValidationError, match="unknown mcts level"):
        PlayerSetup(id="a", bot="mcts:brutal")
    with pytest.raises(ValidationError, match="unknown bot"):
        PlayerSetup(id="a", bot="oracle")
    with pytest.raises(ValidationError, match="only on the digital board"):
        GameSetup(players=[{"id": "a", "bot": "greedy"}, {"id": "b"}], board="duel-isle")


def test_a_move_is_drawn_along_the_way_the_engine_charges_for():
    """The way drawn enters as many spaces as the engine charges actions (ruling 6)."""
    state = duel().new_initial_state()
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    state.apply(Activate("rh1"))
    occupied = set(state.creatures())
    joined = {frozenset(path) for path in DUEL.paths}
    costs = state.move_costs()
    assert costs
    for goal, cost in costs.items():
        spaces = state.move_path(goal)
        assert spaces[0] == "rh1" and spaces[-1] == goal
        assert len(spaces) == cost + 1
        assert all(frozenset(step) in joined for step in pairwise(spaces))
        assert not set(spaces[1:]) & occupied


def test_a_gliding_creature_follows_the_line_by_length():
    points = [(0.0, 0.0), (30.0, 0.0), (30.0, 10.0)]
    assert along(points, 0) == (0.0, 0.0)
    assert along(points, 0.5) == (20.0, 0.0)
    assert along(points, 0.875) == (30.0, 5.0)
    assert along(points, 1) == (30.0, 10.0)


def test_a_bots_command_points_out_the_spaces_it_is_about():
    state = duel().new_initial_state()
    assert state.places(Summon(K.WYRM, "rh1")) == ("rh1",)
    assert state.places(Pass()) == ()
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    state.apply(Activate("rh1"))
    assert state.places(Move("nc4")) == ("rh1", "nc4")
    assert state.places(Attack("rh2")) == ("rh1", "rh2")
    assert state.places(EndActivation()) == ("rh1",)
    assert state.places(Dominate("skalds-strand", True)) == ("ss1", "ss2")


def domination_state():
    """A seeded random digital game played until someone has a domination bonus to decide."""
    game = Game(
        GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital"),
        DUEL,
    )
    for seed in range(200):
        rng, dice, state = random.Random(seed), SeededDice(seed), game.new_initial_state()
        while not state.is_terminal:
            if state.phase is Phase.ENERGY_AND_RESET and state.pending:
                return state
            legal = state.legal_commands()
            # Summon often, so territories fill up and someone holds one whole.
            summons = [c for c in legal if isinstance(c, Summon)]
            command = rng.choice(summons) if summons and rng.random() < 0.9 else rng.choice(legal)
            state.apply(with_rolls(state, command, dice))
    raise AssertionError("no seed led to a domination choice")


def test_the_domination_preview_is_the_engines_tally_on_a_copy():
    state = domination_state()
    seat, territory = state.pending[0]
    player = state.game.players[seat]
    bonus = state.game.board.territories[territory].bonus
    before = (state.round, state.phase, list(state.pending), list(state.energy))
    take = state.domination_preview(True)
    decline = state.domination_preview(False)
    assert (state.round, state.phase, list(state.pending), list(state.energy)) == before
    if not take.game_over:
        assert take.player(player).after - decline.player(player).after == bonus
    # The preview is what the engine does when the choices are played.
    trial = state.clone()
    trial.apply(Dominate(state.game.isle.territory_ids[territory], False))
    while trial.pending:
        trial.apply(next(c for c in trial.legal_commands() if c.take))
    assert trial.last_tally.player(player).after == decline.player(player).after
    assert "take its" in step_guide(state)


def test_the_step_guide_says_what_to_do_in_each_step():
    state = duel().new_initial_state()
    assert step_guide(state) == (
        "Summon Wyrms: tap a marked space to summon one for 5 energy, then Done. "
        "You have 1 Wyrm in reserve and 5 energy."
    )
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    assert step_guide(state).startswith("Wyrms act: tap one of your marked Wyrms")
    state.apply(Activate("rh1"))
    guide = step_guide(state)
    assert guide.startswith("Your Wyrm at Rune Hollow 1 has 2 actions left")
    assert "green" in guide and "red one to attack" in guide and "blue" not in guide


def test_the_board_in_words_names_creatures_and_what_a_tap_does():
    state = duel().new_initial_state()
    state.apply(Summon(K.WYRM, "rh1"))
    text = describe_board(
        state.creatures(), state.game.labels, targets(state), state.game.board.location_names
    )
    # Spaces go by what players call them (Board.location_names), not by their ids.
    assert text.startswith("The isle: Ragna's Wyrm at Rune Hollow 1.")
    summon = text.split("Tap to summon:")[1]
    assert "Rune Hollow 2" in summon and "Rune Hollow 1," not in summon


# --- the board editor ------------------------------------------------------------------------


def test_a_shipped_layout_is_edited_as_a_copy_that_saves_as_the_same_isle():
    draft = BoardDraft.from_board(DUEL)
    assert draft.name == "My Duel Isle" and draft.board_id == "my-duel-isle"
    board = draft.board()
    assert board.id.startswith("my-") and board.id not in shipped_board_ids()
    assert board.territories == DUEL.territories
    assert set(board.paths) == {tuple(sorted(path)) for path in DUEL.paths}
    assert {loc.id: (loc.x, loc.y) for loc in board.locations} == {
        loc.id: (loc.x, loc.y) for loc in DUEL.locations
    }


def test_editing_spaces_and_paths_and_what_the_board_check_says():
    draft = BoardDraft.from_board(DUEL)
    new = draft.add_location("skalds-strand", (95.0, 60.0))
    assert (
        new == "skalds-strand-1" and "skalds-strand-1" in draft.territory("skalds-strand").locations
    )
    said = str(draft.problem())
    assert "not connected" in said and "skalds-strand-1" in said
    assert draft.toggle_path("ss2", new) is True
    assert draft.problem() is None
    draft.move_location(new, (97.5, 61.0))
    assert draft.board().locations[-1].x == 97.5
    assert draft.toggle_path(new, "ss2") is False
    draft.remove_location(new)
    assert draft.problem() is None and all(new not in path for path in draft.paths)
    key = draft.add_territory("Mist Isle")
    assert str(draft.problem()) == "Mist Isle has no spaces yet: add some with Add, or remove it"
    draft.remove_territory(key)
    draft.name = " "
    assert str(draft.problem()) == "give the board a name"


def test_a_board_without_paths_is_not_ready_for_the_digital_board():
    draft = BoardDraft.from_board(DUEL)
    draft.paths = set()
    assert str(draft.problem()) == "join the spaces with paths: creatures move along them"


def test_a_board_entered_for_the_table_gets_positions_to_edit():
    table = board_from_counts(
        "Kitchen Table", [("North", 2, 3), ("South Bay", 1, 1), ("East", 3, 2)]
    )
    draft = BoardDraft.from_board(table)
    assert draft.name == "Kitchen Table" and draft.board_id == table.id
    assert set(draft.positions) == set(table.location_ids)
    assert all(0 <= x <= 100 and 0 <= y <= 100 for x, y in draft.positions.values())
    assert len(set(draft.positions.values())) == len(draft.positions)
    assert str(draft.problem()) == "join the spaces with paths: creatures move along them"


def test_the_editors_canvas_maps_taps_back_to_board_points():
    layout = Layout.fit(DUEL, 400, 400, frame=True)
    for location in DUEL.locations:
        x, y = layout.points[location.id]
        assert layout.to_board(x, y) == pytest.approx((location.x, location.y), abs=0.1)
    assert layout.to_board(-500, 5000) == (0.0, 100.0)


@pytest.mark.parametrize("board_id", ["duel-isle", "gathering-isle"])
@pytest.mark.parametrize("width", [336, 700])
def test_territory_labels_never_overlap_and_leave_spaces_clear_where_there_is_room(board_id, width):
    """No label covers a space's middle; on a tablet's canvas none touches what is drawn on a
    space either (a token, a mark's ring), on a phone's one may graze a ring."""
    board = shipped_board(board_id)
    # A phone's and a tablet's canvas, sized as the digital board sizes it.
    layout = Layout.fit(board, width, canvas_height(board, width, 520))
    boxes = list(label_places(board, layout).values())
    assert len(boxes) == len(board.territories)
    # A label may graze a space's ring, never cover the square inside its disc.
    core = layout.radius * INSCRIBED
    spaces = [(x - core, y - core, x + core, y + core) for x, y in layout.points.values()]

    for i, box in enumerate(boxes):
        assert box[0] >= 0 and box[2] <= layout.width and box[1] >= 0 and box[3] <= layout.height
        assert not any(overlap(box, other) for other in boxes[i + 1 :]), box
    covering = [box for box in boxes if any(overlap(box, space) for space in spaces)]
    assert covering == []
    if width >= 400:
        reach = layout.radius + MARK_REACH
        rings = [(x - reach, y - reach, x + reach, y + reach) for x, y in layout.points.values()]
        assert not any(overlap(box, ring) for box in boxes for ring in rings)


def nearest_territory(board, layout: Layout, box) -> str:
    """The territory of the space nearest a label's box (measured to the box's edge)."""

    def distance(point):
        dx = max(box[0] - point[0], 0, point[0] - box[2])
        dy = max(box[1] - point[1], 0, point[1] - box[3])
        return math.hypot(dx, dy)

    nearest = min(layout.points, key=lambda at: distance(layout.points[at]))
    return board.territory_of(nearest).id


# Canvases the screens give the isle: phones upright and sideways, tablets; the editor's.
LABEL_CANVASES = [(336, 518, False), (366, 590, False), (468, 110, False), (700, 520, False)]
LABEL_CANVASES += [(336, 518, True), (760, 273, True)]


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
@pytest.mark.parametrize(("width", "max_height", "frame"), LABEL_CANVASES)
def test_each_territory_label_sits_by_its_own_spaces_and_covers_no_other_territorys(
    board, width, max_height, frame
):
    layout = Layout.fit(
        board, width, canvas_height(board, width, max_height, frame=frame), frame=frame
    )
    core = layout.radius * INSCRIBED
    places = label_places(board, layout)
    for territory in board.territories:
        box = places[territory.id]
        assert nearest_territory(board, layout, box) == territory.id, territory.name
        for location, (x, y) in layout.points.items():
            if location not in territory.locations:
                space = (x - core, y - core, x + core, y + core)
                assert not overlap(box, space), (territory.name, location)


def spaces_apart(layout: Layout) -> bool:
    """Whether no two drawn spaces touch."""
    points = list(layout.points.values())
    return all(
        math.dist(a, b) > 2 * layout.radius for i, a in enumerate(points) for b in points[i + 1 :]
    )


# (canvas width, the most height the screen gives it) for a phone upright and turned sideways,
# and a tablet both ways, as the digital board's screen sizes its canvas.
SCREENS = [(336, 518), (366, 590), (468, 110), (820, 156), (700, 520), (436, 1000)]


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
@pytest.mark.parametrize(("width", "max_height"), SCREENS)
def test_on_any_screen_the_canvas_is_tall_enough_for_spaces_to_stay_apart(board, width, max_height):
    """A short screen (a phone turned sideways) scrolls the board rather than pile it up."""
    height = canvas_height(board, width, max_height)
    layout = Layout.fit(board, width, height)
    assert spaces_apart(layout)
    points = list(layout.points.values())
    closest = min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1 :])
    assert closest >= MIN_SPACING - 0.5
    for x, y in points:
        assert layout.radius <= x <= width - layout.radius
        assert layout.radius <= y <= height - layout.radius
    # Where the screen has room, the canvas keeps to it.
    if max_height >= 500:
        assert height <= max_height


def test_a_canvas_too_small_for_the_board_shrinks_the_spaces_never_overlaps_them():
    assert spaces_apart(Layout.fit(GATHERING, 300, 120))


def test_the_editors_canvas_on_a_phone_turned_sideways_keeps_spaces_apart():
    """The editor shows the whole 0-100 square: its canvas grows to keep spaces apart."""
    height = canvas_height(DUEL, 760, 273, frame=True)
    assert height > 273
    assert spaces_apart(Layout.fit(DUEL, 760, height, frame=True))


def overlap(a, b) -> bool:
    """Whether two boxes (left, top, right, bottom) share any area."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize(
    ("width", "side"), [(360, BAR_MARGIN), (744, BAR_MARGIN), (1280, (1280 - BAR_MOST) / 2)]
)
def test_the_bottom_bar_is_the_screen_wide_on_a_phone_and_at_most_bar_most_on_a_tablet(width, side):
    padding = bar_padding(width)
    assert padding.left == padding.right == side
    assert width - 2 * side <= max(BAR_MOST, width - 2 * BAR_MARGIN)


def test_the_move_hint_gives_a_cost_the_engine_charges_for_a_marked_space():
    """A Sprite with one action left is never told '→2: the move takes 2 actions'."""
    state = duel().new_initial_state()
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    state.apply(Activate("rh1"))
    costs = {target.cost for target in targets(state).values() if target.mark is Mark.MOVE}
    most = max(costs)
    assert f"(→{most}: the move takes {most} actions)" in step_guide(state)
    while state.step_kind is not K.SPRITE or state.decision().active is None:
        command = next(
            (c for c in state.legal_commands() if isinstance(c, Activate)),
            next(c for c in state.legal_commands() if isinstance(c, EndActivation | Pass)),
        )
        state.apply(command)
    costs = {target.cost for target in targets(state).values() if target.mark is Mark.MOVE}
    assert costs == {1}
    guide = step_guide(state)
    assert "(→1: the move takes 1 action)" in guide and "→2" not in guide
    assert "(→1\u202f: le déplacement coûte 1 action)" in step_guide(state, language("fr"))
