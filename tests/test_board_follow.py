"""The digital board without a browser: a phone on its side, computers a person can
follow, nothing unexplained.

- the isle of a sideways phone (844x390, 740x360, 915x412) fits its height with spaces of
  36 px and more (`board_frame`, `Layout.fit(..., tight=True)`), labels by their own land;
- every space a sentence names shows its number, on every kind of space;
- the story since a person's last decision (`board_summary.story_since`) tells every record
  since then, once and in order, grouped by player, with the players the engine passed over
  and why (`passed_over.passed_over_by`); Replay plays them in order and stops when skipped;
- Redo brings back what Undo took back and says so in the same words, an Energy and Reset
  among them shown again; Home says the round and step the game's screen shows;
- the computers' pace (quick, normal, slow) per device.
"""

from __future__ import annotations

import asyncio
import math
import subprocess
import sys
from pathlib import Path
from unittest.mock import MagicMock

import flet as ft
import flet.canvas as cv
import pytest
from test_board_editor import data, dialogs  # noqa: F401 - the user boards' folder fixture
from test_turns import (
    Clock,
    Stage,
    Summoner,
    against_a_bot,
    play_to_the_energy_and_reset,
    think_here,
)

from companion.app.board_view import IsleCanvas
from companion.app.screens.board_editor import BoardEditor
from companion.app.sizes import TAP
from companion.app.theme import colour_of
from companion.boards import shipped_board
from companion.boards.user import FolderShelf
from companion.bots import make_bot
from companion.engine import Game
from companion.engine.passed_over import passed_over_by
from companion.engine.queries import Creature
from companion.language import Message
from companion.language.render import language
from companion.play.board_device import TIMINGS, Pace, pace_of, went_on_key
from companion.play.board_frame import Arrangement, arrangement, isle_height, sideways_isle
from companion.play.board_labels import label_places
from companion.play.board_layout import MARK_REACH, Layout
from companion.play.board_summary import (
    CARD_LINES,
    Group,
    Line,
    Replay,
    Story,
    Told,
    latest,
    story_since,
)
from companion.play.game_words import territory_names
from companion.play.home import Standings
from companion.play.leases import Leases
from companion.play.session import GameSession
from companion.play.turns import SHOW_EACH, SHOW_PER_TURN, Turns, pause_for
from companion.store.store import open_store
from models.commands import Activate, EndActivation, Move, Pass, Summon
from models.rules import CreatureKind as K
from models.setup import GameSetup

ROOT = Path(__file__).resolve().parent.parent
DUEL = shipped_board("duel-isle")
GATHERING = shipped_board("gathering-isle")
SIDEWAYS = [(844, 390), (740, 360), (915, 412)]
EN, FR = language("en"), language("fr")


@pytest.fixture
def store(tmp_path):
    store = open_store(str(tmp_path / "games.sqlite3"))
    yield store
    store.close()


# --- a phone on its side ---------------------------------------------------------------


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
@pytest.mark.parametrize(("width", "height"), SIDEWAYS)
def test_on_a_phone_on_its_side_the_isle_takes_the_height_with_spaces_of_36_px(
    board, width, height
):
    assert arrangement(width, height) is Arrangement.SIDEWAYS
    canvas_width, canvas_height = sideways_isle(board, width, height)
    assert isle_height(board, canvas_width, width, height) == canvas_height >= height - 8
    # The turn card beside it keeps room to be read.
    assert width - canvas_width >= 0.4 * width - 1
    layout = Layout.fit(board, canvas_width, canvas_height, tight=True)
    assert 2 * layout.radius >= 36 and 2 * layout.reach >= TAP
    points = list(layout.points.values())
    assert all(
        math.dist(a, b) > 2 * layout.radius for i, a in enumerate(points) for b in points[i + 1 :]
    )
    edge = layout.radius + MARK_REACH
    for x, y in points:
        assert edge - 0.5 <= x <= canvas_width - edge + 0.5
        assert edge - 0.5 <= y <= canvas_height - edge + 0.5


def test_upright_phones_and_tablets_keep_their_arrangements():
    assert arrangement(390, 844) is Arrangement.PHONE
    assert arrangement(360, 740) is Arrangement.PHONE
    assert arrangement(1280, 800) is Arrangement.TABLET
    assert arrangement(800, 1280) is Arrangement.TABLET


@pytest.mark.parametrize("board", [DUEL, GATHERING], ids=lambda b: b.id)
@pytest.mark.parametrize("code", ["en", "fr"])
@pytest.mark.parametrize(("width", "height"), SIDEWAYS)
def test_on_a_tight_isle_labels_never_overlap_and_each_is_nearest_its_own_territory(
    board, code, width, height
):
    layout = Layout.fit(board, *sideways_isle(board, width, height), tight=True)
    places = label_places(board, layout, territory_names(board, language(code)))
    boxes = list(places.values())
    for i, box in enumerate(boxes):
        assert box[0] >= 0 and box[2] <= layout.width and box[1] >= 0 and box[3] <= layout.height
        assert not any(overlap(box, other) for other in boxes[i + 1 :])
    for territory in board.territories:
        box = places[territory.id]
        nearest = min(layout.points, key=lambda at: distance(box, layout.points[at]))
        assert board.territory_of(nearest).id == territory.id, territory.name


def overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def distance(box, point) -> float:
    dx = max(box[0] - point[0], 0, point[0] - box[2])
    dy = max(box[1] - point[1], 0, point[1] - box[3])
    return math.hypot(dx, dy)


# --- names a player can find on the isle ---------------------------------------------------


@pytest.mark.parametrize(("width", "tight"), [(336, False), (700, False), (364, True)])
def test_every_space_a_sentence_names_shows_its_number_empty_occupied_or_marked(width, tight):
    """Phone and tablet draw every space's number, with no '+' over it in Summoning."""
    colours = {"red": colour_of("red"), "blue": colour_of("blue")}
    isle = IsleCanvas(DUEL, colours, lambda _: None, width, lambda w: w, tight=tight)
    state = Game(
        GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital"),
        DUEL,
    ).new_initial_state()
    from companion.play.board_taps import targets

    on_board = {
        "nc1": Creature("red", K.WYRM, False, False),
        "rh2": Creature("blue", K.TROLL, True, False),
    }
    isle.show(on_board, targets(state), state.game.labels)
    drawn = [shape.value for shape in isle.canvas.shapes if isinstance(shape, cv.Text)]
    assert "+" not in drawn
    numbers = DUEL.location_numbers
    named = [loc for t in DUEL.territories if len(t.locations) > 1 for loc in t.locations]
    # Each number is drawn once per space of a territory that has that many.
    for number in set(numbers[loc] for loc in named):
        assert drawn.count(str(number)) >= sum(1 for loc in named if numbers[loc] == number)


# --- whom the engine passes over --------------------------------------------------------


def test_the_engine_says_whom_a_command_passes_over_and_why():
    game = Game(
        GameSetup(
            players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
            board="duel-isle",
            mode="digital",
        ),
        DUEL,
    )
    state = game.new_initial_state()
    assert passed_over_by(state, Summon(K.WYRM, "rh1")) == ()
    state.apply(Summon(K.WYRM, "rh1"))
    # Bjorn's Wyrm leaves both with no energy: the Trolls and Sprites steps close unasked.
    passed = passed_over_by(state, Summon(K.WYRM, "rh2"))
    assert [(player, str(reason)) for player, reason in passed] == [
        ("red", "Ragna cannot summon Trolls: 0 energy"),
        ("blue", "Bjorn cannot summon Trolls: 0 energy"),
        ("red", "Ragna cannot summon Sprites: 0 energy"),
        ("blue", "Bjorn cannot summon Sprites: 0 energy"),
    ]
    before = state.clone()
    state.apply(Summon(K.WYRM, "rh2"))
    assert state.step_kind is K.WYRM and state.current_player == "red"
    # Only a copy was played on.
    assert (
        before.position() == game.new_initial_state().position() or before.current_player == "blue"
    )


# --- the story since a person's last decision ---------------------------------------------


def against_greedy(store):
    """Ragna (a person) against Bjorn, a real greedy computer, on Duel Isle."""
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn", "bot": "greedy"}],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    stage = Stage()
    bots = {"blue": make_bot("greedy", seed=3)}
    turns = Turns(session, stage.announce, bots, think=think_here, leases=Leases(Clock()))

    def person(command) -> None:
        assert turns.record([command], "red").ok, command
        asyncio.run(turns.play_bots(stage))

    return turns, person


def test_the_story_tells_every_record_since_the_persons_last_decision_once_and_in_order(store):
    turns, person = against_greedy(store)
    person(Summon(K.WYRM, "rh1"))
    person(Activate("rh1"))
    person(EndActivation())
    session = turns.session
    log = session.saved.log
    last = max(i for i, entry in enumerate(log) if entry.command.by == "red")
    since = [entry.seq for entry in log[last + 1 :]]
    story = story_since(session, "red")
    assert since and story.seqs == tuple(since)
    told = [seq for line in story.lines for seq in line.seqs]
    assert sorted(told) == since and len(set(told)) == len(told)
    # Grouped by player: Bjorn's records, the Energy and Reset, and who was passed over.
    # (The store rolls the dice from a secret of its own: how many attacks succeed varies.)
    blue = story.groups[0]
    assert blue.player == "blue" and blue.lines[0].told is Told.ACTIVATE
    attacks = [EN.render(line.said) for line in blue.lines if line.told is Told.ATTACK]
    assert attacks and all(": " in said and "+4=" in said for said in attacks)  # their dice
    removed = sum(
        1 for said in attacks if "the attacker moves into its space; Bjorn gains 3" in said
    )
    count = len(attacks)
    counts = f"{count} attack{'s' if count > 1 else ''} ({removed} removed)"
    assert EN.value(blue.counts) == counts + (" · +3 energy in bounties" if removed else "")
    comptes = f"{count} attaque{'s' if count > 1 else ''} ({removed} retiré)"
    assert FR.value(blue.counts) == comptes + (
        " · +3 points d'énergie en primes" if removed else ""
    )
    passed = [EN.render(line.said) for line in story.lines if line.told is Told.PASSED]
    assert "Passed over: Ragna has no Trolls on the board" in passed
    reset = [line for line in story.lines if line.told is Told.RESET]
    assert len(reset) == 1 and EN.render(reset[0].said).startswith("Energy and Reset, round 1: ")
    # The turn card's "Last:" tells the newest record and whom it passed over.
    said, passes = latest(session)
    assert said == session.sentences()[-1]
    assert "Passed over: Bjorn has no Sprites on the board" in [EN.render(p) for p in passes]


def test_an_activation_that_does_nothing_is_one_line_of_two_records(store):
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
        board="duel-isle",
        mode="digital",
    )
    session = GameSession(store, store.new_game(setup).id)
    for command, by in [
        (Summon(K.WYRM, "rh1"), "red"),
        (Summon(K.WYRM, "rh2"), "blue"),
        (Activate("rh1"), "red"),
        (EndActivation(), "red"),
    ]:
        assert session.do(command, by).ok
    story = story_since(session, "blue")
    idle = [line for line in story.lines if line.told is Told.IDLE]
    assert len(idle) == 1 and idle[0].seqs == (3, 4)
    assert EN.render(idle[0].said) == "Ragna's Wyrm at Rune Hollow 1 does nothing"
    assert FR.render(idle[0].said) == "Le Wyrm de Ragna au Creux des Runes 1 ne fait rien"
    # Replay still plays both records.
    assert story.seqs == (3, 4)
    assert EN.render(latest(session)[0]) == "Ragna's Wyrm at Rune Hollow 1 does nothing"


def test_the_card_shows_the_first_lines_and_and_n_more_opens_the_rest():
    said = Message("game.summary.skip")
    lines = tuple(Line(said, Told.MOVE, (seq,)) for seq in range(1, 10))
    story = Story("red", (Group("blue", lines[:4]), Group("green", lines[4:])), ())
    shown = story.shown()
    assert sum(len(kept) for _, kept in shown) == CARD_LINES
    assert [group.player for group, _ in shown] == ["blue", "green"]
    assert story.hidden() == 9 - CARD_LINES
    assert EN.render(Message("game.summary.more", count=3)) == "and 3 more"


def test_the_card_keeps_what_changed_the_isle_when_it_cannot_show_every_line():
    """An attack that removed the person's Wyrm is never hidden in "and 8 more"
    behind activations and passes."""
    said = Message("game.summary.skip")
    quiet = [Line(said, Told.ACTIVATE, (seq,)) for seq in range(1, 8)]
    attack = Line(said, Told.ATTACK, (8,))
    summon = Line(said, Told.SUMMON, (0,))
    story = Story(
        "red", (Group("blue", (summon, *quiet[:4])), Group("green", (*quiet[4:], attack))), ()
    )
    shown = story.shown(most=3)
    assert [(group.player, [line.seqs for line in lines]) for group, lines in shown] == [
        ("blue", [(0,), (1,)]),
        ("green", [(8,)]),
    ]
    assert story.hidden(most=3) == 6


def test_replay_shows_each_record_in_order_and_stops_when_skipped():
    steps = [object()] * 5
    replay = Replay(steps)  # type: ignore[arg-type]
    shown: list[int] = []
    waited: list[float] = []

    async def show(index, step):
        shown.append(index)
        if index == 2 and skip_at_two:
            replay.skip()

    async def sleep(seconds):
        waited.append(seconds)

    skip_at_two = False
    asyncio.run(replay.run(show, 1.2, sleep))
    assert shown == [0, 1, 2, 3, 4] and waited == [1.2] * 5 and not replay.running
    replay, shown, waited, skip_at_two = Replay(steps), [], [], True  # type: ignore[arg-type]
    asyncio.run(replay.run(show, 1.2, sleep))
    assert shown == [0, 1, 2] and waited == [1.2, 1.2] and not replay.running


# --- undo and redo say the same; Home agrees with the game's screen --------------------


def test_redo_brings_back_what_undo_took_back_and_says_it_the_same_way(store):
    turns, stage = against_a_bot(store)
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    taken = [entry.seq for entry in turns.session.saved.log]
    undo = {code: turns.undo_text(language(code)) for code in ("en", "fr")}
    assert "computer command" in undo["en"]
    assert turns.undo().ok
    # Redo names every record it brings back, not the first one only.
    assert {code: turns.redo_text(language(code)) for code in ("en", "fr")} == undo
    assert [entry.seq for entry in turns.redo_entries()] == taken
    assert turns.redo().ok
    assert [entry.seq for entry in turns.session.saved.log] == taken
    assert turns.redo_text(EN) is None


def test_redo_across_a_round_end_shows_its_energy_and_reset_again(store):
    turns, stage = against_a_bot(store)
    play_to_the_energy_and_reset(turns, stage)
    ended = turns.session.saved.log[-1]
    turns.go_on()
    asyncio.run(turns.play_bots(stage))
    assert turns.human_to_move() and turns.reset_waiting() is None
    # Undo takes back Ragna's last command and everything the computer did after it, the
    # round's end included; Redo brings it all back, and the card shows again.
    assert any(entry.seq == ended.seq for entry in turns.redo_entries()) is False
    depth = turns.undo_depth()
    log = turns.session.saved.log
    assert any(entry.seq == ended.seq for entry in log[len(log) - depth :])
    assert turns.undo().ok
    assert turns.redo().ok
    waiting = turns.reset_waiting()
    assert waiting is not None and waiting.seq == ended.seq
    assert not turns.should_play()
    turns.go_on()
    assert turns.reset_waiting() is None


def test_home_says_the_round_and_step_the_game_screen_shows(store):
    turns, stage = against_a_bot(store)
    play_to_the_energy_and_reset(turns, stage)
    saved = turns.session.saved
    summary = next(s for s in store.games() if s.id == saved.id)
    where = Standings().of(store, summary)
    # The game is in round 2 already, but a device that has not gone on shows round 1's card.
    assert where.round == "Round 2/6"
    assert where.on_device(None) == ("Round 1/6", "Energy and Reset to read")
    assert where.on_device(saved.log[-1].seq) == (where.round, where.turn)
    assert Standings().of(store, summary, FR).on_device(None, FR) == (
        "Manche 1/6",
        "Énergie et Réinitialisation à lire",
    )
    assert went_on_key(saved.id) == f"went-on/{saved.id}"


# --- the computers' pace ------------------------------------------------------------------


def test_the_pace_is_the_devices_and_normal_keeps_the_waits_of_issue_11():
    assert pace_of(None) is pace_of("fast") is pace_of("") is Pace.NORMAL
    assert pace_of("slow") is Pace.SLOW
    normal = TIMINGS[Pace.NORMAL]
    assert (normal.each, normal.per_turn) == (SHOW_EACH, SHOW_PER_TURN) == (0.4, 0.4)
    slow, quick = TIMINGS[Pace.SLOW], TIMINGS[Pace.QUICK]
    assert (
        pause_for(Move("rh1"), 0.0, slow)
        > pause_for(Move("rh1"))
        > pause_for(Move("rh1"), 0.0, quick)
    )
    # Slow shows a whole computer turn of several commands, each for most of a second.
    assert pause_for(Move("rh1"), 3 * slow.each, slow) == slow.each
    assert pause_for(Pass(), 0.0, slow) == 0
    assert slow.replay > normal.replay > quick.replay


def test_a_slow_device_points_out_each_computer_command_longer(store):
    turns, stage = against_a_bot(store, Summoner())
    turns.timing = TIMINGS[Pace.SLOW]
    turns.record([Summon(K.WYRM, "rh1")], "red")
    asyncio.run(turns.play_bots(stage))
    assert stage.presented and all(
        seconds == TIMINGS[Pace.SLOW].each for _, _, seconds in stage.presented
    )


def test_the_new_plain_modules_load_without_flet():
    modules = [
        "companion.play.board_device",
        "companion.play.board_frame",
        "companion.play.board_summary",
    ]
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys\nfor name in {modules!r}: __import__(name)\n"
            "print(sorted(m for m in sys.modules if m == 'flet' or m.startswith('flet.')))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert loaded.stdout.strip() == "[]"


def test_saving_over_another_board_makes_keep_both_the_filled_button_not_replace(data):  # noqa: F811
    """The editor's Replace dialog never makes 'Replace', which loses a board, the default."""
    app = MagicMock()
    app.page.width, app.page.height = 400, 800
    app.words = EN
    app.visit.boards = FolderShelf()
    BoardEditor(app, ft.View(route="/board-editor")).save(None)
    second = BoardEditor(app, ft.View(route="/board-editor"))
    second.draft.move_location("ss1", (20.0, 50.0))
    second.save(None)
    (asked,) = dialogs(app.page)
    filled = [b.content for b in asked.actions if isinstance(b, ft.FilledButton)]
    assert filled == ["Keep both"]
    (replace,) = [b for b in asked.actions if b.content == "Replace"]
    assert not isinstance(replace, ft.FilledButton)


def test_the_ring_on_the_next_rounds_first_player_is_explained_when_others_were_passed_over():
    """While an Energy and Reset is read, the players' card rings the next round's
    first to decide; when those first in the new order can do nothing yet, it says the turn
    passed over them (the trial read "Next: Bjorn → Sigrid" and a ring on Sigrid)."""
    import random
    from functools import partial

    from companion.engine.dice import with_rolls
    from companion.play.board_guide import ringed

    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
        board="duel-isle",
        mode="digital",
    )
    game = Game(setup, DUEL)
    labels = game.labels
    seen = {"game.board.ringed_next": 0, "game.board.ringed_passed": 0}
    for seed in range(40):
        chooser = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal:
            round_before = state.round
            command = chooser.choice(state.legal_commands())
            state.apply(with_rolls(state, command, partial(chooser.randint, 1, 6)))
            if state.round == round_before or state.is_terminal:
                continue
            said = ringed(state, labels.__getitem__)
            assert said is not None and said.fields["player"] == labels[state.current_player]
            order = state.order()
            ahead = order[: order.index(state.current_player)]
            assert (said.id == "game.board.ringed_passed") == bool(ahead)
            seen[said.id] += 1
            if ahead:
                assert EN.render(said) == (
                    f"Ringed: {labels[state.current_player]}, first to play in round "
                    f"{state.round}; the turn passed over {labels[ahead[0]]} (nothing to do yet)."
                )
    assert all(seen.values()), seen
    assert ringed(state, labels.__getitem__) is None  # the game is over


def test_turning_a_phone_back_and_forth_places_the_labels_once_per_size(monkeypatch):
    """Turning back to sideways during a computer's turn is quick: the labels' places
    (the dearest part of drawing the isle) are worked out once per size, not at every fit."""
    import companion.app.board_view as board_view

    placed = []
    real = board_view.label_places
    monkeypatch.setattr(
        board_view, "label_places", lambda *args: placed.append(args[1].width) or real(*args)
    )
    colours = {p: colour_of(p) for p in ("red", "blue", "green", "yellow")}
    sizes = {"upright": (366.0, 500.0), "sideways": (420.0, 382.0)}
    isle = IsleCanvas(GATHERING, colours, lambda _: None, 366, lambda w: sizes["upright"][1])
    for turn in ("sideways", "upright", "sideways", "upright"):
        width, height = sizes[turn]
        isle.height_for = lambda _, height=height: height
        isle.tight = turn == "sideways"
        isle.refit(width, send=False)
        assert (isle.layout.width, isle.layout.height) == (width, height)
    assert placed == [366.0, 420.0]
