"""The page's largest files compressed at brotli's strongest, once per machine, kept on disk.

Brotli at quality 11 makes Flutter's engine and the app's code about a fifth smaller than
gzip (4.35 MB gzipped, 3.34 MB in brotli for the two WebAssembly files a first visit
loads), but takes about a minute of one core for them all: far too slow for a request. So
a server starts one background thread, at the lowest priority, that packs the web client's
files into the user's cache directory, each under its content's SHA-256, and the requests
find them there once they are made (gzip, made quickly, serves until then). One process
packs at a time (a lock file), and what is packed is never packed again, whichever server
process or version of the app asks.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import platformdirs

from companion.store.database import APP_NAME

# Files worth packing: what compresses well; smaller ones gain too little for the work.
PACKED_SUFFIXES = (".js", ".mjs", ".wasm", ".json", ".html", ".css", ".otf", ".ttf", ".svg")
LEAST_BYTES = 1024
# Codings by preference; gzip at its strongest on disk (the request's own is quicker).
CODINGS = ("br", "gzip")
BROTLI_QUALITY = 11
GZIP_LEVEL = 9


def cache_dir() -> Path:
    """Where the packed files are kept: the user's cache directory for the app."""
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)) / "web"


def digest_of(body: bytes) -> str:
    """A body's name in the store: its SHA-256, in hex."""
    return hashlib.sha256(body).hexdigest()


def compressed(body: bytes, coding: str) -> bytes:
    """`body` in `coding` ('br' or 'gzip') at its strongest."""
    if coding == "br":
        return bytes(brotli.compress(body, quality=BROTLI_QUALITY))
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


class PackStore:
    """Packed bodies on disk by content and coding, written whole or not at all."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or cache_dir()

    def path(self, digest: str, coding: str) -> Path:
        """The file holding a body's packed form."""
        return self.directory / f"{digest}.{coding}"

    def get(self, digest: str, coding: str) -> bytes | None:
        """The packed body, or None while it is not packed."""
        try:
            return self.path(digest, coding).read_bytes()
        except OSError:
            return None

    def put(self, digest: str, coding: str, packed: bytes) -> None:
        """Keep a packed body: written aside, then renamed into place."""
        self.directory.mkdir(parents=True, exist_ok=True)
        final = self.path(digest, coding)
        aside = final.with_name(f"{final.name}.{os.getpid()}.part")
        aside.write_bytes(packed)
        os.replace(aside, final)

    def pack(self, files: Iterable[Path], wait: bool = False) -> int:
        """Pack every file not yet packed; how many made. While another process is packing,
        leave the work to it, or with `wait`, wait for it and then pack what is left."""
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / "lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except OSError:
                return 0  # another process is packing: its files will be found here
            for unfinished in self.directory.glob("*.part"):
                unfinished.unlink()  # a process stopped while writing it
            made = 0
            for file in files:
                body = file.read_bytes()
                digest = digest_of(body)
                for coding in CODINGS:
                    if not self.path(digest, coding).exists():
                        self.put(digest, coding, compressed(body, coding))
                        made += 1
            return made


def web_client_files(web_dir: Path) -> list[Path]:
    """The web client's files worth packing, largest first (the first visit's longest wait)."""
    files = [
        path
        for path in web_dir.rglob("*")
        if path.is_file() and path.suffix in PACKED_SUFFIXES and path.stat().st_size >= LEAST_BYTES
    ]
    return sorted(files, key=lambda path: path.stat().st_size, reverse=True)


def flet_web_dir() -> Path:
    """The directory of Flet's web client, as installed."""
    import flet_web  # type: ignore[import-untyped]

    return Path(flet_web.__file__).parent / "web"


def pack_in_background(store: PackStore, web_dir: Path | None = None) -> threading.Thread:
    """Start packing the web client in a thread at the lowest priority; the thread."""

    def run() -> None:
        # On Linux a thread's niceness is its own: the server's requests keep their share.
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
        try:
            store.pack(web_client_files(web_dir or flet_web_dir()))
        except OSError:
            return  # a cache that cannot be written: gzip made on request serves instead

    thread = threading.Thread(target=run, name="web-packs", daemon=True)
    thread.start()
    return thread
