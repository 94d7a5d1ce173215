"""nginx in front of the load's server processes (`bench tables N --behind-nginx`), set as
docs/hosting.md's example is, without TLS: the devices reach every process through it, and a
killed process's devices come back through it to a live one, as phones do behind a proxy."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

NGINX_CONFIG = """\
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    upstream isle {{
        least_conn;
{servers}
    }}
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://isle;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


def nginx_path() -> str | None:
    """Where nginx is installed (Debian puts it in /usr/sbin, off a user's PATH), or None."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")


class ProxyError(RuntimeError):
    """nginx is not installed, or would not start: said in one line."""


@contextmanager
def nginx_in_front(port: int, upstreams: Sequence[int]) -> Iterator[None]:
    """nginx listening on 127.0.0.1:`port`, spreading websockets over `upstreams` (ports)."""
    nginx = nginx_path()
    if nginx is None:
        raise ProxyError("--behind-nginx needs nginx (Debian: apt-get install nginx-light)")
    with tempfile.TemporaryDirectory(prefix="summoners-nginx-") as folder:
        servers = "\n".join(
            f"        server 127.0.0.1:{upstream} max_fails=1 fail_timeout=10s;"
            for upstream in upstreams
        )
        config = Path(folder) / "nginx.conf"
        config.write_text(NGINX_CONFIG.format(folder=folder, servers=servers, port=port))
        started = subprocess.run(
            [nginx, "-c", str(config), "-p", folder, "-e", f"{folder}/error.log"],
            capture_output=True,
            text=True,
        )
        if started.returncode != 0:
            said = (started.stderr.strip().splitlines() or ["no output"])[-1]
            raise ProxyError(f"nginx would not start: {said}")
        try:
            yield
        finally:
            subprocess.run(
                [nginx, "-c", str(config), "-p", folder, "-e", f"{folder}/error.log", "-s", "stop"],
                capture_output=True,
            )
