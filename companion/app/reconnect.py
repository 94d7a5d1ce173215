"""A one-line notice while a shared table's page has lost the server and tries again, and
one once it is back if a tap it sent got no answer.

Flet's web client reconnects by itself (with the same session, so the same screen comes
back), but shows nothing meanwhile, and nothing the server sends can arrive then. So the
page gets a few lines of script: when its websocket closes, a banner says it is
reconnecting; the first message on a new one takes the banner away.

A tap sent just before the server's process died may have been recorded or not: the phone
is the only one that knows it sent it and got no answer. The script notes each tap it sends
(a control's click, tap or long press) until the server next sends anything; if the
connection closes meanwhile, the page says so once it is back, and that the screen shows
what was recorded, so the tap is made again if it is not there. It goes at the next touch.
"""

from __future__ import annotations

import json

from companion.app.guard import ASGIApp
from companion.app.web_page import HeadScript
from companion.language import Message as Words
from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, render
from companion.play.language_setting import STORED_LANGUAGE

# The notice in each language: the page picks the one its device shows the app in.
NOTICES = {code: render(Words("app.reconnecting"), code) for code in LANGUAGES}
NOTICE = NOTICES[DEFAULT_LANGUAGE]
BANNER_ID = "reconnecting"
# Said once the page is back, when a tap it sent got no answer before the connection went.
UNANSWERED = {code: render(Words("app.tap_unanswered"), code) for code in LANGUAGES}
UNANSWERED_ID = "tap-unanswered"

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
  const unanswered = __UNANSWERED__;
  const made = {};
  const banner = (id, words) => {
    if (!(id in made)) {
      const element = document.createElement("div");
      element.id = id;
      element.setAttribute("role", "status");
      element.setAttribute("aria-live", "polite");
      element.textContent = words[language()];
      element.style.cssText = "position:fixed;left:0;right:0;top:0;z-index:2147483647;" +
        "padding:14px 12px;font:16px sans-serif;text-align:center;" +
        "background:#FFE082;color:#111;border-bottom:2px solid #111;";
      made[id] = element;
    }
    return made[id];
  };
  const toggle = (element, on) => {
    if (on && !element.isConnected && document.body) document.body.appendChild(element);
    if (!on && element.isConnected) element.remove();
  };
  const show = (on) => toggle(banner("__ID__", notices), on);
  // A tap sent and not yet answered by anything from the server, and one the connection
  // went with.
  let waiting = false;
  let lost = false;
  const TAPS = new Set(["click", "tap", "long_press"]);
  const isTap = (data) => {
    let bytes = null;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) {
      bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    }
    // Flet's frame: 0, then MessagePack [3, {...}], a control's event, of a few hundred bytes.
    if (bytes === null || bytes.length > 512 || bytes[0] !== 0 || bytes[1] !== 0x92 ||
        bytes[2] !== 0x03) return false;
    let text = "";
    for (const byte of bytes) text += String.fromCharCode(byte);
    const at = text.indexOf("\xa4name");
    if (at < 0) return false;
    const size = text.charCodeAt(at + 5) - 0xa0;
    return size > 0 && size < 32 && TAPS.has(text.substr(at + 6, size));
  };
  const tapped = () => {
    toggle(banner("__UNANSWERED_ID__", unanswered), false);
  };
  document.addEventListener("pointerdown", tapped, true);
  function Tracked(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (isTap(data)) waiting = true;
      return send(data);
    };
    socket.addEventListener("message", () => {
      waiting = false;
    });
    socket.addEventListener("message", () => {
      show(false);
      if (lost) {
        lost = false;
        toggle(banner("__UNANSWERED_ID__", unanswered), true);
      }
    }, { once: true });
    socket.addEventListener("close", () => {
      if (waiting) lost = true;
      waiting = false;
      show(true);
    });
    return socket;
  }
  Tracked.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Tracked[name] = Native[name];
  window.WebSocket = Tracked;
  window.addEventListener("offline", () => show(true));
})();
</script>
""".replace("__ID__", BANNER_ID)
    .replace("__UNANSWERED_ID__", UNANSWERED_ID)
    .replace("__UNANSWERED__", json.dumps(UNANSWERED, ensure_ascii=False))
    .replace("__NOTICES__", json.dumps(NOTICES, ensure_ascii=False))
    .replace("__STORED__", STORED_LANGUAGE)
    .replace("__DEFAULT__", DEFAULT_LANGUAGE)
    .encode()
)


class ReconnectNotice(HeadScript):
    """ASGI middleware: put the reconnecting notice's script into every HTML page served."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, SCRIPT)
