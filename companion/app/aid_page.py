"""GET /aid: the player aid as a printable page, the one `python -m companion aid` prints.

`?lang=fr` picks its language (else the browser's Accept-Language, else English) and
`?board=ID` a shipped board whose territories it lists. The page asks nothing of any host:
its policy lets it load nothing at all but its own inline style.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from companion.aid.page import aid_page
from companion.app.guard import Scope, Send
from companion.boards import BoardError, shipped_board
from companion.language.render import language, language_for
from companion.play.language_setting import accepted_languages, device_language

PATH = "/aid"
POLICY = b"default-src 'none'; style-src 'unsafe-inline'"


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return ""


def page_language(scope: Scope, query: dict[str, list[str]]) -> str:
    """The language asked for in the query, else the browser's, else English."""
    asked = language_for(query.get("lang", [""])[0])
    return asked or device_language("", accepted_languages(_header(scope, b"accept-language")))


async def answer_aid(scope: Scope, send: Send) -> None:
    """Answer GET /aid: the page (200), or one line saying the board is unknown (404)."""
    query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
    words = language(page_language(scope, query))
    board_id = query.get("board", [""])[0]
    try:
        board = shipped_board(board_id) if board_id else None
    except BoardError as error:
        await _send(send, 404, (words.render(error.message) + "\n").encode(), b"text/plain")
        return
    await _send(send, 200, aid_page(words, board).encode(), b"text/html")


async def _send(send: Send, status: int, body: bytes, kind: bytes) -> None:
    headers = [
        (b"content-type", kind + b"; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-cache"),
        (b"content-security-policy", POLICY),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
