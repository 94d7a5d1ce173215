"""The hosted server processes a load runs against: started, watched (memory, CPU), and the
load's own garbage collector held off while it times them."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager


class LoadError(RuntimeError):
    """Why the load could not be run, in one sentence."""


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(db: str, port: int, data: str, proxy: int | None) -> subprocess.Popen[bytes]:
    """A `--hosted` server process on `port`; behind the proxy on port `proxy`, if one."""
    public = f"http://127.0.0.1:{proxy or port}"
    trusted = ("--trusted-proxy", "127.0.0.1") if proxy else ()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--hosted"),
            *("--public-url", public, *trusted),
            *("--host", "127.0.0.1", "--port", str(port), "--db", db),
        ],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=data),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise LoadError(f"a server process on port {port} did not start") from None
            time.sleep(0.2)


def rss_kib(pid: int) -> int:
    """A process's resident memory in KiB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_s(pid: int) -> float:
    """The CPU seconds a process has used, user and system (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


@contextmanager
def collector_held() -> Iterator[None]:
    """The load's own cycle collector held off while it times the servers: a pause of the
    load's event loop (400 pages' screens are about two million objects) would be counted
    as the servers' latency. What the load allocated before is frozen, after."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
