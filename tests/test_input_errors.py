"""Bad input that no other test file's subject covers: board ids, and the app's host and port.

The `app` command runs in-process with the server replaced, so no test starts one.
"""

import socket

import pytest
from typer.testing import CliRunner

import companion.app.server
from companion.boards import BOARDS_DIR, BoardError, resolve_board, shipped_board, shipped_board_ids
from companion.cli import app
from companion.store.store import Store


@pytest.mark.parametrize(
    "board_id",
    [
        "../boards/duel-isle",
        "./duel-isle",
        "duel-isle.json",
        "DUEL-ISLE",
        f"{BOARDS_DIR}/duel-isle",
        "../../../pyproject",
        "",
    ],
)
def test_only_a_shipped_board_id_names_a_board(board_id):
    with pytest.raises(BoardError, match=r"unknown board .*\(shipped boards: duel-isle, "):
        shipped_board(board_id)
    with pytest.raises(BoardError, match="unknown board"):
        resolve_board(board_id)


def test_only_shipped_boards_are_cached():
    shipped_board.cache_clear()
    for board_id in ("../boards/duel-isle", "./duel-isle", "../boards/./duel-isle"):
        with pytest.raises(BoardError):
            shipped_board(board_id)
    assert shipped_board.cache_info().currsize == 0
    for board_id in shipped_board_ids():
        assert shipped_board(board_id).id == board_id
    assert shipped_board.cache_info().currsize == len(shipped_board_ids())


@pytest.fixture
def served(monkeypatch):
    """What `serve` was called with; it only records, so no server ever starts."""
    calls = []
    monkeypatch.setattr(companion.app.server, "serve", lambda **options: calls.append(options))
    return calls


def invoke_app(*args: str):
    return CliRunner().invoke(app, ["app", "--web", *args], terminal_width=200)


@pytest.mark.parametrize(
    ("port", "says"),
    [
        ("0", "at least 1, not 0"),
        ("-1", "at least 1, not -1"),
        ("65536", "at most 65535, not 65536"),
        ("70000", "at most 65535, not 70000"),
    ],
)
def test_a_port_out_of_range_is_refused(served, port, says):
    result = invoke_app("--port", port)
    assert result.exit_code == 2
    assert result.stderr == f"error: '--port' must be {says}\n"
    assert "Traceback" not in result.stderr
    assert served == []


@pytest.fixture
def held_port():
    """A port some other program is listening on, for as long as the test runs."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


def test_a_port_in_use_is_one_line_and_no_server(served, held_port):
    result = invoke_app("--port", str(held_port))
    assert result.exit_code == 2
    assert result.stderr == f"error: port {held_port} on 127.0.0.1 is already in use\n"
    assert served == []


def test_an_address_of_another_machine_cannot_be_served_on(served):
    # 192.0.2.1 is reserved for documentation: no machine has it, so it cannot be bound.
    result = invoke_app("--host", "192.0.2.1", "--port", "8550")
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: cannot serve on 192.0.2.1:8550: ")
    assert served == []


def test_a_free_port_starts_the_server(served):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = invoke_app("--port", str(port), "--db", "sqlite://")
    assert result.exit_code == 0, result.stderr
    (call,) = served
    # The games are opened before serving (a shared table's codes go in them too).
    assert isinstance(call.pop("store"), Store)
    assert call == {
        "host": "127.0.0.1",
        "port": port,
        "db": "sqlite://",
        "web": True,
        "table": None,
        "hosting": None,
        "trusted_proxies": [],
        "session_timeout_s": 300,
    }


def test_share_prints_the_join_and_watch_links_and_serves_the_table(served):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = invoke_app("--share", "--host", "127.0.0.1", "--port", str(port), "--db", "sqlite://")
    assert result.exit_code == 0, result.stderr
    (call,) = served
    table = call["table"]
    lines = result.stdout.splitlines()
    assert lines[0] == f"Join: http://127.0.0.1:{port}/?code={table.access.join_code}"
    assert f"Watch: http://127.0.0.1:{port}/?code={table.access.watch_code}" in lines
    assert any("█" in line for line in lines[1:-2])  # the Join link's QR code between them
    assert "plain HTTP" in result.stderr
