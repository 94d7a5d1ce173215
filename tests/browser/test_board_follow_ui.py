"""Computers a person can follow (issue 24), on a phone on its side (844x390).

- When Ragna's turn comes back, the turn card tells everything since her last decision,
  in the order it happened, each line the store's own record (checked against the game's log): the
  first lines in the card, the rest behind "and N more". Replay plays those records on the
  isle in order.
- A tap on the isle while a computer plays says whose turn it is.
- The computers' pace is kept in the browser, like its language.
"""

from __future__ import annotations

import time

from browser_ui import HAS_TEXT, Screen, seats

from companion.language.render import language
from companion.play.board_summary import CARD_LINES, story_since
from companion.play.session import GameSession
from companion.store.store import open_store
from models.setup import GameSetup

SIDEWAYS = {"width": 844, "height": 390}
EN = language("en")

_SPACE = """id => {
  const e = document.querySelector(`[flt-semantics-identifier="space-${id}"]`);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return [r.x + r.width / 2, r.y + r.height / 2];
}"""
_REPLAY = """() => {
  const e = document.querySelector('[flt-semantics-identifier=replay]');
  return e ? (e.getAttribute('aria-label') || e.innerText) : null;
}"""


def duel(server, bot: str) -> str:
    """A new digital duel: Ragna a person, Bjorn a computer; its id."""
    setup = GameSetup(players=seats("red", "blue", blue=bot), board="duel-isle", mode="digital")
    return server.new_game(setup)


def tap_space(ui: Screen, location: str) -> None:
    """Tap a space where the semantics tree says it is drawn (the tap reaches the canvas)."""
    centre = ui.page.evaluate(_SPACE, location)
    assert centre is not None, location
    time.sleep(0.6)  # a person's pace: the app drops a second tap on one spot at once
    ui.page.mouse.click(*centre)


def shows(ui: Screen, text: str) -> bool:
    return ui.page.evaluate(f"({HAS_TEXT})", text)


def story_lines(server, game_id: str) -> tuple[list[str], tuple[int, ...], list[int]]:
    """The story since Ragna's last decision as the app tells it (English lines), the log
    entries it tells, and the log's entries since her last decision."""
    with open_store(server.db) as store:
        session = GameSession(store, game_id)
        story = story_since(session, "red")
        log = session.saved.log
        last = max(i for i, entry in enumerate(log) if entry.command.by == "red")
        return (
            [EN.render(line.said) for line in story.lines],
            story.seqs,
            [entry.seq for entry in log[last + 1 :]],
        )


def test_the_turn_card_tells_everything_since_a_persons_last_turn_and_replays_it(
    server, browser, artifacts
):
    game_id = duel(server, "greedy")
    ui = Screen(browser.new_page(viewport=SIDEWAYS), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Ragna's turn")
    tap_space(ui, "rh1")  # her Wyrm: no energy left, the engine passes her over after
    ui.wait_for("Since Ragna's last turn:", timeout=30)
    lines, told, since = story_lines(server, game_id)
    # Every record since her last decision, once and in order (the log's entries).
    assert told == tuple(since) and since
    for line in lines:
        assert shows(ui, line), line
    # Her own pass-overs are said too: she could summon nothing more.
    assert shows(ui, "Passed over: Ragna cannot summon Trolls: 0 energy")
    ui.page.screenshot(path=str(artifacts / "board-follow-story-844x390.png"))

    # Replay plays those records on the isle, in order.
    ui.tap("Replay", "Replay 1/")
    seen: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        label = ui.page.evaluate(_REPLAY)
        if label is None and seen:
            break
        if label and (not seen or seen[-1] != label):
            seen.append(label)
        time.sleep(0.05)
    counted = [label.split(":")[0].split()[-1] for label in seen]
    assert counted == [f"{n}/{len(told)}" for n in range(1, len(told) + 1)], seen
    with open_store(server.db) as store:
        sentences = GameSession(store, game_id).sentences()
        log = store.load(game_id).log
    replayed = [EN.render(sentences[[e.seq for e in log].index(seq)]) for seq in told]
    for label, sentence in zip(seen, replayed, strict=True):
        assert sentence.replace("\u00a0", " ") in label.replace("\u00a0", " "), (label, sentence)

    # Her Wyrm does nothing this round; Bjorn's answers; more than the card holds is told
    # behind "and N more", every line of it.
    tap_space(ui, "rh1")
    ui.tap("End activation", "Energy and Reset of round 1", exact=True)
    # The Energy and Reset's card may tell what Bjorn played before it: the turn card's
    # story is awaited once her turn has come.
    ui.tap("Continue to round 2", "Ragna's turn")
    ui.wait_for("Since Ragna's last turn:")
    lines, told, since = story_lines(server, game_id)
    assert told == tuple(since)
    if len(lines) > CARD_LINES:
        ui.tap_matching(f"^and {len(lines) - CARD_LINES} more", "Close")
    for line in lines:
        assert shows(ui, line), line
    ui.page.screenshot(path=str(artifacts / "board-follow-story-all-844x390.png"))


def test_a_tap_on_the_isle_while_a_computer_plays_says_whose_turn_it_is(server, browser, artifacts):
    # Two computers play after Ragna, so a person's tap lands on a computer's turn however
    # slowly a busy machine delivers it: one computer's turn alone can end first.
    setup = GameSetup(
        players=seats("red", "blue", "green", blue="mcts:hard", green="mcts:hard"),
        board="gathering-isle",
        mode="digital",
    )
    game_id = server.new_game(setup)
    ui = Screen(browser.new_page(viewport=SIDEWAYS), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Ragna's turn")
    tap_space(ui, "rh1")
    ui.wait_for("Bjorn is thinking", timeout=15)
    tap_space(ui, "ff1")
    ui.wait_for("s turn (Computer: hard): the isle takes your taps again", timeout=15)
    assert shows(ui, "It is Bjorn's turn") or shows(ui, "It is Sigrid's turn")
    ui.page.screenshot(path=str(artifacts / "board-follow-tap-computer-844x390.png"))


def open_pace(ui: Screen) -> None:
    """Open the panels' drawer (a phone on its side) and scroll it to the computers' pace."""
    ui.page.get_by_label("Players, energy and the last Energy and Reset").first.click()
    time.sleep(1)
    for _ in range(20):
        if ui.page.get_by_role("button", name="Slow").count():
            # On to the drawer's end, so the screenshot shows the whole control.
            ui.page.mouse.wheel(0, 400)
            time.sleep(0.8)
            return
        ui.page.mouse.move(SIDEWAYS["width"] - 100, SIDEWAYS["height"] / 2)
        ui.page.mouse.wheel(0, 200)
        time.sleep(0.4)
    raise AssertionError("the computers' pace is not in the drawer")


def test_the_computers_pace_is_kept_in_the_browser(server, browser, artifacts):
    game_id = duel(server, "greedy")
    context = browser.new_context(viewport=SIDEWAYS)
    ui = Screen(context.new_page(), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Ragna's turn")
    # Sideways, the panels are in a drawer beside the isle.
    open_pace(ui)
    ui.page.get_by_role("button", name="Slow").first.click()
    deadline = time.monotonic() + 10
    while "slow" not in str(ui.page.evaluate("() => Object.values(localStorage)")):
        assert time.monotonic() < deadline, "the pace was not kept in the browser"
        time.sleep(0.2)
    ui.page.screenshot(path=str(artifacts / "board-follow-pace-844x390.png"))
    # A new page of the same browser reads it back.
    again = Screen(context.new_page(), artifacts)
    again.open(f"{server.url}/game/{game_id}", "Ragna's turn")
    open_pace(again)
    # The segment picked is the one the screen reader is told is current.
    for name, current in (("Slow", "true"), ("Normal", "false")):
        segment = again.page.get_by_role("button", name=name).first
        assert segment.get_attribute("aria-current") == current, name
    context.close()
