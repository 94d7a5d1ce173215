"""The host's Share panel as a view-model (screens draw, the play layer decides).

What the panel shows of a shared table: the Join and Watch codes with their links, every
device let in since the last new code (how it came in, whether it is connected, its seats),
and the host's action on each seat a player holds: free it, for a phone that was lost. The
screen (companion/app/screens/share.py) draws it; the host's actions go through its Visit.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.language import Message
from companion.play.sharing.access import Device, Role
from companion.play.sharing.codes import grouped
from companion.play.sharing.links import TableLinks
from companion.play.sharing.seats import WATCHER, seat_naming
from companion.store.errors import StoreError
from companion.store.store import Store

# How a device came in, as its line on the panel says it.
ROLE_WORDS = {
    Role.HOST: "app.share.role.host",
    Role.JOIN: "app.share.role.join",
    Role.WATCH: "app.share.role.watch",
}


@dataclass(frozen=True, slots=True)
class Code:
    """A code and the link that carries it, each with what a screen reader says of it."""

    code: str
    code_said: Message
    link: str
    link_said: Message


@dataclass(frozen=True, slots=True)
class FreeSeat:
    """The host's button that frees a device's seat in a game."""

    game_id: str
    device: str
    label: Message


@dataclass(frozen=True, slots=True)
class DeviceLine:
    """A device let in: its name, how it came in, whether it is connected, and its seats
    (a sentence saying it has none when it has none)."""

    device: str
    name: Message
    role: Message
    state: Message
    seats: tuple[Message, ...]
    frees: tuple[FreeSeat, ...]


@dataclass(frozen=True, slots=True)
class SharePanel:
    """Everything the Share panel shows; no devices: none came in yet."""

    join: Code
    watch: Code
    # The Join link's QR code, as a screen reader says it.
    qr_said: Message
    devices: tuple[DeviceLine, ...]


def share_panel(links: TableLinks, store: Store, this_device: str | None) -> SharePanel:
    """The panel of a shared table, seen from `this_device` (the host's)."""
    access = links.access
    join, watch = grouped(access.join_code), grouped(access.watch_code)
    return SharePanel(
        join=Code(
            join,
            Message("app.share.join_code", code=join),
            links.join,
            Message("app.share.join_link", link=links.join),
        ),
        watch=Code(
            watch,
            Message("app.share.watch_code", code=watch),
            links.watch,
            Message("app.share.watch_link", link=links.watch),
        ),
        qr_said=Message("app.share.qr", link=links.join),
        devices=tuple(
            device_line(links, store, device, this_device) for device in access.devices()
        ),
    )


def device_line(
    links: TableLinks, store: Store, device: Device, this_device: str | None
) -> DeviceLine:
    """One device's line: its seats in every game still there, and a Free for each player's."""
    seats: list[Message] = []
    frees: list[FreeSeat] = []
    for game_id, seat in links.access.seats.of_device(device.id).items():
        try:
            saved = store.load(game_id)
        except StoreError:
            # A game deleted meanwhile: its seats go with it.
            continue
        game = tuple(p.label for p in saved.setup.players)
        who = seat_naming(seat, saved.game.labels)
        seats.append(Message("app.share.seat_in", seat=who, players=game))
        if seat != WATCHER:
            label = Message("app.share.free", seat=who, players=game)
            frees.append(FreeSeat(game_id, device.id, label))
    name = Message("app.share.device", number=device.number)
    if device.id == this_device:
        name = Message("app.share.this_device", device=name)
    return DeviceLine(
        device=device.id,
        name=name,
        role=Message(ROLE_WORDS[device.role]),
        state=(
            Message("app.share.connected")
            if device.connections
            else Message("app.share.not_connected")
        ),
        seats=tuple(seats) or (Message("app.share.no_seat"),),
        frees=tuple(frees),
    )
