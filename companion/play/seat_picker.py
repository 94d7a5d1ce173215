"""Who a device is in a shared game, as data (the screens draw, the play layer
decides): the seats it may pick (each person's, the scorekeeper, a watcher), those another
device holds shown as taken and by which, and the line a game screen shows of its seat.
The screen (companion/app/screens/seat.py) draws it and sends the seat picked back."""

from __future__ import annotations

from dataclasses import dataclass

from companion.language import Message
from companion.language.message import Value
from companion.language.render import Language
from companion.play.language_setting import ENGLISH
from companion.play.sharing.access import TableAccess
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from companion.store.store import SavedGame


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """A seat to pick: its button's title (naming the device holding it, if another does),
    what it records, a player's colour, and whether another device holds it."""

    seat: str
    title: str
    detail: str
    colour: str | None = None
    taken: bool = False


@dataclass(frozen=True, slots=True)
class SeatPicker:
    """Everything the seat screen shows: whose game, each person's seat, then the others."""

    game: str
    players: tuple[SeatChoice, ...]
    scorekeeper: SeatChoice
    watcher: SeatChoice


def seat_picker(
    access: TableAccess, saved: SavedGame, device: str, words: Language = ENGLISH
) -> SeatPicker:
    """The seats of `saved`'s game as `device` may pick them; a computer's seat is none."""
    names = {d.id: Message("app.share.device", number=d.number) for d in access.devices()}
    taken = access.seats.taken(saved.id)

    def say(message_id: str, /, **values: Value) -> str:
        return words.render(Message(message_id, **values))

    def choice(seat: str, title: str, detail: str, colour: str | None = None) -> SeatChoice:
        holder = taken.get(seat)
        if holder is None or holder == device:
            return SeatChoice(seat, title, detail, colour)
        holder_name = names.get(holder) or Message("app.seat.another_device")
        return SeatChoice(
            seat, say("app.seat.taken_by", seat=title, device=holder_name), detail, colour, True
        )

    players = saved.setup.players
    return SeatPicker(
        game=say("app.seat.game", players=tuple(p.label for p in players)),
        players=tuple(
            choice(p.id, p.label, say("app.seat.records_player", player=p.label), p.colour)
            for p in players
            if not p.bot
        ),
        scorekeeper=choice(
            SCOREKEEPER, say("app.seat.scorekeeper"), say("app.seat.scorekeeper_note")
        ),
        watcher=choice(WATCHER, say("app.seat.watch"), say("app.seat.watch_note")),
    )


def take_seat(
    access: TableAccess, saved: SavedGame, device: str, seat: str, words: Language = ENGLISH
) -> str | None:
    """Seat `device` in the game as `seat`: None if done, else why not, in a sentence."""
    players = tuple(player.id for player in saved.setup.players)
    return access.seats.take(saved.id, device, seat, players, words)


def seat_said(
    access: TableAccess, saved: SavedGame, device: str, words: Language = ENGLISH
) -> str | None:
    """Who this device is in the game, as its game screen says it; None without a seat."""
    seat = access.seats.seat_of(saved.id, device)
    if seat is None:
        return None
    if seat == SCOREKEEPER:
        return words.render(Message("app.seat.records_everyone"))
    return words.render(Message("app.seat.records_for", player=saved.game.labels.get(seat, seat)))
