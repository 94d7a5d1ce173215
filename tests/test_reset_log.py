"""Each Energy and Reset is an entry of the game's log, in words with its numbers.

The entry is derived: the command that finishes a round leaves the engine's tally, and the
store words it (`LogEntry.reset`) when it records or replays the log; nothing new is stored.
"""

from typer.testing import CliRunner

from companion.boards import shipped_board
from companion.cli.game import game_app
from companion.engine import reset_phase
from companion.engine.isle import compile_isle
from companion.store.store import open_store
from models.commands import Dominate, EnergyAndReset, Pass, Summon
from models.game_log import GameLog
from models.setup import GameSetup

LABELS = {"red": "Ragna", "blue": "Bjorn"}
ISLE = compile_isle(shipped_board("duel-isle"))
PLAYERS = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}]


def tally(energy, creatures=(), **options):
    occupants = [None] * ISLE.size
    for location, owner, kind in creatures:
        occupants[ISLE.index[location]] = (owner, kind)
    return reset_phase(ISLE, ["red", "blue"], energy, occupants, labels=LABELS, **options)


def test_a_log_line_gives_each_players_numbers_and_the_next_order():
    line = str(
        tally({"red": 12, "blue": 20}, [("nc1", "red", "sprite")], round_=3).log_message(LABELS)
    )
    assert line == (
        "Energy and Reset, round 3: Ragna 12 → 16 (band 10-18 +3, 1 Sprite in North Cliffs), "
        "Bjorn 20 → 20 (band 19-23 no change); next order: Ragna → Bjorn."
    )


def test_a_tie_in_the_next_order_is_explained():
    line = str(tally({"red": 3, "blue": 3}, round_=1).log_message(LABELS))
    assert line.startswith("Energy and Reset, round 1: Ragna 3 → 8 (band 0-9 +5), Bjorn 3 → 8")
    assert line.endswith(
        "next order: Bjorn → Ragna. Bjorn and Ragna are tied on 8: whoever was later in this "
        "round's order goes earlier, so the order is Bjorn, Ragna."
    )


def test_the_game_ending_says_who_won_instead_of_an_order():
    sprites = [("nc1", "red", "sprite"), ("nc2", "red", "sprite")]
    line = str(tally({"red": 33, "blue": 10}, sprites, round_=4).log_message(LABELS))
    # 33 loses 5 in band 30-35, then 2 Sprites: 30, no win; a Summoner needs 36.
    assert "Ragna 33 → 30 (band 30-35 -5, 2 Sprites in North Cliffs)" in line
    final = str(tally({"red": 9, "blue": 4}, round_=6, final_round=True).log_message(LABELS))
    assert final == (
        "Energy and Reset, round 6: Ragna 9 → 14 (band 0-9 +5), Bjorn 4 → 9 (band 0-9 +5). "
        "Ragna has the most energy (14) and wins."
    )


def test_a_tally_asked_on_its_own_names_no_round():
    assert str(tally({"red": 12, "blue": 20}).log_message(LABELS)).startswith(
        "Energy and Reset: Ragna"
    )


def digital_round(store, take):
    """Round 1 on Duel Isle: Ragna's Troll and Sprite fill Skald's Strand; she decides."""
    setup = GameSetup(players=PLAYERS, board="duel-isle", mode="digital")
    summons = [Pass(), Pass(), Summon("troll", "ss1"), Pass(), Summon("sprite", "ss2")]
    saved = store.import_log(GameLog.of(setup, [*summons, Pass(), Pass(), Pass(), Pass()]))
    (choice,) = [c for c in saved.state.legal_commands() if c.take is take]
    return store.append(saved.id, choice._replace(by="red"), saved.revision)


def test_the_command_that_ends_a_round_carries_its_energy_and_reset(tmp_path):
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        for take in (True, False):
            saved = digital_round(store, take)
            last = saved.log[-1]
            assert last.command == Dominate("skalds-strand", take, by="red")
            # Ragna 1 after her Troll and Sprite: +5 (band 0-9); her Sprite is alone in
            # Skald's Strand: +1; the bonus of 1, taken or not.
            won = "Skald's Strand +1" if take else "Skald's Strand declined"
            after = 8 if take else 7
            assert str(last.reset) == (
                f"Energy and Reset, round 1: Ragna 1 → {after} (band 0-9 +5, 1 Sprite in "
                f"Skald's Strand, {won}), Bjorn 5 → 10 (band 0-9 +5); next order: "
                + ("Ragna → Bjorn." if after < 10 else "Bjorn → Ragna.")
            )
            assert all(entry.reset is None for entry in saved.log[:-1])
            # Replayed from the database, undone and redone: the same entry.
            store._cache.games.clear()
            assert store.load(saved.id).log[-1].reset == last.reset
            undone = store.undo(saved.id, saved.revision)
            assert undone.undone[0].seq == last.seq
            assert store.redo(saved.id, undone.revision).log[-1].reset == last.reset


def test_a_table_energy_and_reset_is_worded_too(tmp_path):
    setup = GameSetup(players=PLAYERS, board="duel-isle")
    with open_store(str(tmp_path / "games.sqlite3")) as store:
        saved = store.new_game(setup)
        for command in (Pass(by="red"), Pass(by="blue")) * 3:
            saved = store.append(saved.id, command, saved.revision)
        saved = store.append(saved.id, EnergyAndReset((), (), ()), saved.revision)
    assert str(saved.log[-1].reset) == (
        "Energy and Reset, round 1: Ragna 5 → 10 (band 0-9 +5), Bjorn 5 → 10 (band 0-9 +5); "
        "next order: Bjorn → Ragna. Bjorn and Ragna are tied on 10: whoever was later in "
        "this round's order goes earlier, so the order is Bjorn, Ragna."
    )


def test_game_show_lists_the_energy_and_reset_under_its_command(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    with open_store(db) as store:
        saved = digital_round(store, False)
    runner = CliRunner()
    shown = runner.invoke(game_app, ["show", saved.id, "--db", db], terminal_width=400).stdout
    lines = shown.splitlines()
    at = lines.index(f"  {saved.log[-1].seq:4}  {saved.log[-1].sentence!s}")
    assert lines[at + 1] == f"        {saved.log[-1].reset}"
    data = runner.invoke(game_app, ["show", saved.id, "--db", db, "--json"]).stdout
    assert '"energy_and_reset": "Energy and Reset, round 1: Ragna 1 → 7' in data
