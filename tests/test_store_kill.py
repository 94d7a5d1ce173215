"""The kill test: a process writing games is SIGKILLed at random moments, again and again.

After every kill the database opens without complaint, holds every command whose
append had returned (the child reports each one through a pipe right after it
returns), and every game in it replays through the rules. The writer is a forked
child of the test process, so twenty kills take seconds, not a minute of imports.
"""

import os
import random
import select as selectors
import signal
import time

from sqlalchemy import create_engine, func, select

from companion.store.store import open_store
from models.records import CommandRecord, GameRecord
from models.setup import GameSetup

KILLS = 20
SETUP = GameSetup(
    players=[{"id": p} for p in ("red", "blue", "green", "yellow")],
    board="gathering-isle",
    mode="digital",
)


def write_until_killed(url: str, seed: int, report: int) -> None:
    """The child: resume the latest unfinished game (or start one) and write forever.

    Mostly appends, some undos and redos; each write is reported once it has returned.
    """
    rng = random.Random(seed)
    store = open_store(url)
    unfinished = store.unfinished()
    saved = store.load(unfinished[0].id) if unfinished else store.new_game(SETUP)
    os.write(report, b"ready\n")
    while True:
        if saved.state.is_terminal:
            saved = store.new_game(SETUP)
        draw = rng.random()
        if draw < 0.08 and saved.log:
            saved = store.undo(saved.id, saved.revision)
            line = f"mark {saved.id} {saved.revision}"
        elif draw < 0.12 and saved.undone:
            saved = store.redo(saved.id, saved.revision)
            line = f"mark {saved.id} {saved.revision}"
        else:
            command = rng.choice(saved.state.legal_commands())
            saved = store.append(saved.id, command, saved.revision)
            line = f"append {saved.id} {saved.log[-1].seq} {saved.revision}"
        os.write(report, line.encode() + b"\n")


def run_and_kill(url: str, seed: int, rng: random.Random) -> list[str]:
    """Fork the writer, SIGKILL it at a random moment, and return every line it reported."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            write_until_killed(url, seed, write_end)
        except BaseException as error:
            os.write(write_end, f"error {error!r}\n".encode())
        finally:
            os._exit(1)
    os.close(write_end)
    received = b""
    # Now and then kill it while it is still opening the database (maybe migrating it).
    deadline = time.monotonic() + (rng.uniform(0.0, 0.03) if rng.random() < 0.2 else 60.0)
    while b"ready" not in received and time.monotonic() < deadline:
        ready, _, _ = selectors.select([read_end], [], [], max(0.0, deadline - time.monotonic()))
        if ready:
            chunk = os.read(read_end, 65536)
            if not chunk:
                break
            received += chunk
    if b"ready" in received:
        time.sleep(rng.uniform(0.0, 0.3))
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    while chunk := os.read(read_end, 65536):
        received += chunk
    os.close(read_end)
    lines = received.decode().splitlines()
    assert not [line for line in lines if line.startswith("error")], lines[-1]
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return lines


def test_every_returned_append_survives_sigkill(tmp_path):
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    rng = random.Random(2024)
    returned: dict[tuple[str, int], int] = {}
    revisions: dict[str, int] = {}
    for kill in range(KILLS):
        for line in run_and_kill(url, kill, rng):
            kind, game_id, *numbers = line.split() if line != "ready" else ("ready", "")
            if kind == "append":
                seq, revision = int(numbers[0]), int(numbers[1])
                returned[game_id, seq] = revision
                revisions[game_id] = max(revisions.get(game_id, 0), revision)
            elif kind == "mark":
                revisions[game_id] = max(revisions.get(game_id, 0), int(numbers[0]))
        check(url, returned, revisions)
    assert len(returned) > KILLS, "the writer hardly wrote anything before being killed"


def check(url: str, returned: dict[tuple[str, int], int], revisions: dict[str, int]) -> None:
    with open_store(url) as store:
        assert store.notices == []
        for summary in store.games():
            saved = store.load(summary.id)  # replays the whole active line through the rules
            assert saved.revision >= revisions.get(summary.id, 0)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            stored = set(connection.execute(select(CommandRecord.game_id, CommandRecord.seq)))
            counts = connection.execute(
                select(GameRecord.id, func.count(), func.max(CommandRecord.seq))
                .join(CommandRecord, CommandRecord.game_id == GameRecord.id)
                .group_by(GameRecord.id)
            ).all()
    finally:
        engine.dispose()
    missing = set(returned) - {tuple(row) for row in stored}
    assert not missing, f"appends that had returned are gone: {sorted(missing)[:5]}"
    for game_id, count, highest in counts:
        assert count == highest, f"game {game_id} has a gap in its sequence numbers"
