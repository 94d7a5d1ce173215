"""Shared tables in the database: codes, devices, seats, wrong tries and computers' leases.

Every server process on one database reads and writes these rows, so a code, a
seat, a wrong try or a lease taken on one process holds on every other. The play layer
(companion/play/sharing/, companion/play/turns.py) decides what they mean; these modules only
keep them. Writes that must not race (a seat, new codes) lock the table's row first.
"""

from __future__ import annotations

from companion.store.table_codes import TableCodes
from companion.store.table_devices import TableDevices
from companion.store.table_leases import TableLeases
from companion.store.table_seats import TableSeats
from companion.store.table_tries import TableTries


class TableRecords(TableCodes, TableDevices, TableSeats, TableTries, TableLeases):
    """The shared tables of one database; safe to share between threads and processes.

    Its parts, each in its own module: the tables and their codes (table_codes.py), their
    devices (table_devices.py), seats (table_seats.py), tries from an address
    (table_tries.py) and computers' leases (table_leases.py).
    """
