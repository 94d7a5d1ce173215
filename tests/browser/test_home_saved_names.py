"""Home in Chromium with a game an older version saved with a bad player name.

A lone surrogate in a name made Home stay blank on every device, even after a restart: the
name could not be sent to the browser. Now it is listed and opens, the bad character shown
as U+FFFD, and the rest of Home is there.
"""

from __future__ import annotations

import json

from browser_ui import PHONE, Screen
from sqlalchemy import create_engine, text

from companion.store.store import open_store
from models.setup import GameSetup

SAFE = "Bo\ufffdb"


def saved_as_an_older_version_did(db: str, names: list[str]) -> str:
    """A game whose setup holds `names` as older versions accepted them; its id."""
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle")
    with open_store(db) as store:
        game_id = store.new_game(setup).id
    data = setup.model_dump(mode="json")
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE games SET setup = :setup WHERE id = :id"),
            {"setup": json.dumps(data), "id": game_id},
        )
    engine.dispose()
    return game_id


def test_home_lists_and_opens_a_game_saved_with_a_bad_name(server, browser, artifacts):
    game_id = saved_as_an_older_version_did(server.db, ["Bo\ud800b", "Ann\u202e"])
    page = browser.new_page(viewport=PHONE)
    ui = Screen(page, artifacts)
    ui.open(server.url, "Import a game")
    ui.wait_for(f"{SAFE} and Ann\ufffd")
    ui.wait_for(f"Round 1/6 · {SAFE}'s turn")
    ui.shot("home-saved-bad-name")
    page.get_by_role("button", name=f"Resume {SAFE} and Ann\ufffd's game").first.click()
    page.wait_for_url(f"**/game/{game_id}", timeout=20000)
    ui.wait_for(f"{SAFE}: done with Wyrms")
    ui.shot("table-saved-bad-name")
