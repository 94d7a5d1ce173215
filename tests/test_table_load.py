"""The hosted server's load generator (`bench tables N --processes P [--kill-one]`, issue
22) runs a small load end to end: devices tapping over Flet's websocket protocol, two
processes on one PostgreSQL database, one of them killed mid-run, every tap answered found
once in the stored log."""

from __future__ import annotations

import subprocess
import sys

import pytest
from store_support import PG_SKIP, PG_URL, postgresql_url

from companion.load.db_growth import run_db_hour
from companion.load.hostile import run_hostile_load
from companion.load.proxy import nginx_path
from companion.load.servers import LoadError
from companion.load.tables import run_table_load

NGINX = nginx_path()


@pytest.mark.skipif(not PG_URL, reason=PG_SKIP)
def test_a_small_load_reaches_every_device_and_a_killed_process_devices_come_back():
    for url in postgresql_url():
        report = run_table_load(url, tables=1, processes=2, seconds=14, kill_one=True)
        assert report["devices"] == 4 and report["taps"] >= 1
        assert report["taps_answered"] >= 1
        assert (report["updates_missed"], report["errors"]) == (0, 0)
        assert (report["lost"], report["doubled"]) == (0, 0)
        assert report["update_p50_ms"] is not None
        # Two of the table's four devices were on the killed process.
        assert report["killed_devices_back"] == 2
        assert report["killed_devices_back_s_max"] < 5


@pytest.mark.skipif(not PG_URL, reason=PG_SKIP)
@pytest.mark.skipif(not NGINX, reason="nginx is not installed (`make test` installs it as root)")
def test_behind_nginx_a_killed_process_devices_come_back_through_the_proxy():
    for url in postgresql_url():
        report = run_table_load(url, tables=2, processes=2, seconds=14, kill_one=True, proxy=True)
        assert report["behind_nginx"] and report["devices"] == 8
        assert report["taps_answered"] >= 1
        assert (report["updates_missed"], report["errors"]) == (0, 0)
        assert (report["lost"], report["doubled"]) == (0, 0)
        # nginx spread the devices over both processes (least_conn); those of the killed
        # one reconnected to the proxy's address, which sent them to the live one.
        assert 1 <= report["killed_devices_back"] < 8
        assert report["killed_devices_back_s_max"] < 5


def test_the_load_needs_postgresql_and_says_so_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "bench", "tables", "1", "--db", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr.strip().splitlines()) == (
        2,
        ["error: bench tables needs --db with a PostgreSQL URL (postgresql+psycopg://...)"],
    )


def test_the_hostile_load_and_the_hour_of_writes_need_postgresql_too(tmp_path):
    # The command line says a LoadError as the line above says it.
    with pytest.raises(LoadError, match=r"^bench hostile needs --db with a PostgreSQL URL"):
        run_hostile_load(str(tmp_path), tables=1, seconds=1)
    with pytest.raises(LoadError, match=r"^bench db-hour needs --db with a PostgreSQL URL"):
        run_db_hour(str(tmp_path))
