"""History, a watcher's screens and Home's cards as view-models: what each
says of the games in a store, in the device's language, driven without a browser."""

from __future__ import annotations

import pytest
from store_support import DUEL, finished_game

from companion.language.render import language
from companion.play.history import finished_game as finished_line
from companion.play.history import history_view, ordinal
from companion.play.home import Standings, resume_card
from companion.play.session import GameSession
from companion.play.watch import watch_list, watched
from companion.store.store import open_store
from models.commands import Pass, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

EN, FR = language("en"), language("fr")
TABLE = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


def test_history_counts_wins_and_lists_each_finished_game(store):
    won = [finished_game(store, DUEL, seed) for seed in (1, 2, 3)]
    store.new_game(TABLE)  # unfinished: not in History
    shown = history_view(store, EN)
    assert shown.finished == "Finished games: 3"
    by_name, by_seat, by_place = shown.wins
    assert (by_name.title, by_seat.title) == ("Wins by player", "Wins by seat")
    history = store.history()
    # Seeds 1-3 of the random duel are Ragna's three wins.
    assert history.wins_by_name == {"Ragna": 3, "Bjorn": 0}
    assert by_name.lines == ("Ragna: 3 wins", "Bjorn: 0 wins")
    assert by_seat.lines[:2] == ("Player 1: 3 wins", "Player 2: 0 wins")
    assert by_place.lines == ("1st: 3 wins", "2nd: 0 wins", "3rd: 0 wins", "4th: 0 wins")
    assert shown.how_won == (
        f"Summoner (36) wins: {history.summoner_wins} · final-round wins: "
        f"{history.final_round_wins}"
    )
    # Each finished game once, most recently played first, leading to its result.
    assert [game.game_id for game in shown.games] == [saved.id for saved in reversed(won)]
    assert all(game.route == f"/game/{game.game_id}/end" for game in shown.games)


def test_a_finished_games_line_names_the_winner_and_how_they_won(store):
    saved = finished_game(store, DUEL, 1)
    summary = next(s for s in store.games() if s.id == saved.id)
    line = finished_line(summary, EN)
    winner = saved.game.labels[saved.state.winner_id]
    how = "Summoner (36)" if saved.state.summoner else "final round"
    assert line.won == f"{winner} won"
    assert line.detail == f"Ragna and Bjorn · {how} · just now"


def test_places_are_ordinals_in_the_devices_language():
    assert [ordinal(p) for p in ("1", "2", "3", "4")] == ["1st", "2nd", "3rd", "4th"]
    assert ordinal("1", FR) == "1er"


def test_history_with_no_game_finished(store):
    shown = history_view(store, FR)
    assert shown.games == ()
    assert shown.finished.endswith("0")


def test_a_watcher_is_listed_the_games_being_played_and_watches_them_live(store):
    saved = store.new_game(TABLE)
    finished_game(store, DUEL, 1)  # over: nothing to watch
    (card,) = watch_list(Standings(), store, EN)
    assert (card.players, card.where, card.route) == (
        "Ann, Bob and Cy",
        "Round 1/6 · Ann's turn",
        f"/game/{saved.id}",
    )
    assert card.label == "Watch Ann, Bob and Cy's game"
    session = GameSession(store, saved.id)
    now = watched(session, EN)
    assert (now.title, now.turn, now.last) == (
        "◈ Round 1/6",
        "Ann's turn · summoning",
        "Nothing recorded yet.",
    )
    assert [(m.label, m.energy) for m in now.track] == [("Ann", 5), ("Bob", 5), ("Cy", 5)]
    store.append(saved.id, Summon(CreatureKind.WYRM, by="a"), saved.revision)
    session.refresh()
    now = watched(session, EN)
    assert now.last == "Last recorded: Ann summons a Wyrm for 5 energy (5 → 0)"
    assert now.turn == "Bob's turn · summoning"
    assert now.track[0] == ("Ann", session.colour("a"), 0)


def test_a_watcher_sees_energy_and_reset_and_the_end(store):
    saved = store.new_game(TABLE)
    while saved.state.current_player is not None:
        saved = store.append(saved.id, Pass(), saved.revision)
    assert watched(GameSession(store, saved.id), FR).turn == "Énergie et Réinitialisation"
    over = finished_game(store, DUEL, 2)
    assert watched(GameSession(store, over.id), EN).turn == "The game is over."


def test_homes_card_resumes_a_game_or_deletes_it_with_its_words(store):
    saved = store.new_game(TABLE)
    summary = next(iter(store.unfinished()))
    card = resume_card(Standings(), store, summary, None, EN)
    assert (card.players, card.where, card.place, card.route) == (
        "Ann, Bob and Cy",
        "Round 1/6 · Ann's turn",
        "Gathering Isle · just now",
        f"/game/{saved.id}",
    )
    assert card.label == "Resume Ann, Bob and Cy's game"
    deletion = card.deletion
    assert deletion is not None
    assert deletion.title == "Delete Ann, Bob and Cy's game?"
    assert deletion.note.startswith("Gathering Isle, round 1/6, just now.")
    assert deletion.done == "Deleted Ann, Bob and Cy's game."
    digital = store.new_game(DUEL)
    summary = next(s for s in store.unfinished() if s.id == digital.id)
    assert resume_card(Standings(), store, summary, None, EN).place == (
        "Duel Isle · digital board · just now"
    )
