"""A one-line notice while a shared table's page has lost the server and tries again.

Flet's web client reconnects by itself (with the same session, so the same screen comes
back), but shows nothing meanwhile, and nothing the server sends can arrive then. So the
page gets a few lines of script: when its websocket closes, a banner says it is
reconnecting; the first message on a new one takes the banner away.
"""

from __future__ import annotations

import json

from companion.app.guard import ASGIApp
from companion.app.language_setting import STORED_LANGUAGE
from companion.app.web_page import HeadScript
from companion.language import Message as Words
from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, render

# The notice in each language: the page picks the one its device shows the app in.
NOTICES = {code: render(Words("app.reconnecting"), code) for code in LANGUAGES}
NOTICE = NOTICES[DEFAULT_LANGUAGE]
BANNER_ID = "reconnecting"

SCRIPT = (
    """<script>
(() => {
  const Native = window.WebSocket;
  const notices = __NOTICES__;
  // The language chosen on Home (kept by the app in localStorage, under a prefix of
  // Flutter's), else the browser's, else English.
  const language = () => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.endsWith("__STORED__")) {
        try {
          const kept = JSON.parse(localStorage.getItem(key));
          if (kept in notices) return kept;
        } catch (e) {}
      }
    }
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const code = tag.slice(0, 2).toLowerCase();
      if (code in notices) return code;
    }
    return "__DEFAULT__";
  };
  let banner = null;
  const show = (on) => {
    if (banner === null) {
      banner = document.createElement("div");
      banner.id = "__ID__";
      banner.setAttribute("role", "status");
      banner.setAttribute("aria-live", "polite");
      banner.textContent = notices[language()];
      banner.style.cssText = "position:fixed;left:0;right:0;top:0;z-index:2147483647;" +
        "padding:14px 12px;font:16px sans-serif;text-align:center;" +
        "background:#FFE082;color:#111;border-bottom:2px solid #111;";
    }
    if (on && !banner.isConnected && document.body) document.body.appendChild(banner);
    if (!on && banner.isConnected) banner.remove();
  };
  function Tracked(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("message", () => show(false), { once: true });
    socket.addEventListener("close", () => show(true));
    return socket;
  }
  Tracked.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Tracked[name] = Native[name];
  window.WebSocket = Tracked;
  window.addEventListener("offline", () => show(true));
})();
</script>
""".replace("__ID__", BANNER_ID)
    .replace("__NOTICES__", json.dumps(NOTICES, ensure_ascii=False))
    .replace("__STORED__", STORED_LANGUAGE)
    .replace("__DEFAULT__", DEFAULT_LANGUAGE)
    .encode()
)


class ReconnectNotice(HeadScript):
    """ASGI middleware: put the reconnecting notice's script into every HTML page served."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, SCRIPT)
