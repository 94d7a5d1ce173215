"""Commands: everything a player can do, as small immutable values.

A game is its setup plus its list of commands. Commands are named tuples so the
engine can make and compare thousands of them a second; they become JSON (and
come back, validated) through `command_to_json` and `command_from_json`.

Each command is declared once: its class here, registered by `@command` under its JSON
type name (and as a player's command or the table's), and its rules in one module of
`companion/engine/commands/`, found there by name. Nothing else lists commands
(docs/engine.md, "Adding a command").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple, Protocol, Self, TypeVar

from pydantic import AfterValidator, Field, StrictBool, StrictInt, TypeAdapter, ValidationError

from companion.language.message import Message
from models.problems import as_message, problem
from models.rules import DIE_SIDES, CreatureKind
from models.text import typed_text

DieRoll = Annotated[StrictInt, Field(ge=1, le=DIE_SIDES)]
PlayerId = Annotated[str, Field(min_length=1)]
LocationId = Annotated[str, Field(min_length=1)]
# Who acts: every player's command names them, so a tap from a screen that has moved on
# is refused instead of being applied to whoever's turn it is now. None only in version 1 logs.
By = PlayerId | None


class Command(Protocol):
    """What every command is: an immutable record of named fields (a NamedTuple class
    registered with `@command`)."""

    def _asdict(self) -> dict[str, Any]: ...


class PlayerCommand(Command, Protocol):
    """A command a player makes: it says who (`by`)."""

    @property
    def by(self) -> str | None:
        """The player who makes it; None only in version 1 logs."""
        ...

    def _replace(self, *, by: str | None = ...) -> Self: ...


_C = TypeVar("_C")
# JSON type name -> class, and which of them players make: filled by `@command` below.
_TYPES: dict[str, type[Any]] = {}
_PLAYERS: list[type[Any]] = []


def command(name: str, *, player: bool) -> Callable[[type[_C]], type[_C]]:
    """Register a command class under its JSON type name; `player`: a player makes it (it
    has `by`), else it is a record for the whole table."""

    def register(cls: type[_C]) -> type[_C]:
        if name in _TYPES:
            raise ValueError(f"two command types are called {name!r}")
        _TYPES[name] = cls
        if player:
            _PLAYERS.append(cls)
        return cls

    return register


@command("summon", player=True)
class Summon(NamedTuple):
    """Pay a creature's cost and put it on a vacant location (no location at the table)."""

    kind: CreatureKind
    location: LocationId | None = None
    by: By = None


@command("pass", player=True)
class Pass(NamedTuple):
    """The player whose turn it is is done with the current step."""

    by: By = None


@command("done", player=True)
class Done(NamedTuple):
    """At the table: a player says, whatever the turn, that they record nothing more in the
    rest of the Summoning phase ("summoning") or of the round ("round")."""

    until: Literal["summoning", "round"]
    by: By = None


@command("activate", player=True)
class Activate(NamedTuple):
    """Start activating one of the player's face-up creatures of the step's kind."""

    location: LocationId
    by: By = None


@command("move", player=True)
class Move(NamedTuple):
    """Move the active creature to an empty location, one action per location entered."""

    to: LocationId
    by: By = None


@command("attack", player=True)
class Attack(NamedTuple):
    """The active creature attacks an adjacent enemy; the dice travel with the command."""

    target: LocationId
    attack_roll: DieRoll | None = None
    # Only attacks on a Sprite need the defender's roll.
    defence_roll: DieRoll | None = None
    by: By = None


@command("swap", player=True)
class Swap(NamedTuple):
    """Pay 1 energy to trade the active Wyrm's place with an adjacent creature of its owner."""

    with_location: LocationId | None = None
    by: By = None


@command("end_activation", player=True)
class EndActivation(NamedTuple):
    """Flip the active creature face-down; its remaining actions are given up."""

    by: By = None


@command("dominate", player=True)
class Dominate(NamedTuple):
    """Take or decline the bonus of a territory the player holds entirely."""

    territory: str
    take: StrictBool
    by: By = None


@command("removal", player=True)
class Removal(NamedTuple):
    """At the table: a player's creatures removed an opponent's creature.

    `attacker` is the kind of the player's creatures that did it: the step's kind when None
    (the player whose turn it is), or a later step's, said ahead of that turn.
    """

    victim: PlayerId
    kind: CreatureKind
    by: By = None
    attacker: CreatureKind | None = None


REASON_LIMIT = 200


@command("correction", player=False)
class Correction(NamedTuple):
    """At the table: fix a player's energy by hand, with the reason on record.

    `made_by` is the player whose phone made it (a player's own, or one recording for a
    player with no device); None when the scorekeeper's device or a table's only phone made
    it. It is no player's decision, so it is not called `by` (the engine checks a `by`
    against whose decision it is).
    """

    player: PlayerId
    delta: StrictInt
    reason: Annotated[
        str,
        Field(min_length=1, max_length=REASON_LIMIT),
        AfterValidator(typed_text(Message("problem.what.reason"))),
    ]
    made_by: By = None


class Placement(NamedTuple):
    """One creature seen on the board."""

    location: LocationId
    player: PlayerId
    kind: CreatureKind


class Declined(NamedTuple):
    """A domination bonus a player chose not to take."""

    player: PlayerId
    territory: str


class Removed(NamedTuple):
    """A creature that was on the board by the record but left it without a recorded removal."""

    player: PlayerId
    kind: CreatureKind


@command("energy_and_reset", player=False)
class EnergyAndReset(NamedTuple):
    """At the table: run Energy and Reset from the creatures seen on the board.

    From version 2 on, every creature on the board by the record is either placed or
    listed in `removed`. None (version 1 logs only) took every creature left out as removed.
    """

    placements: tuple[Placement, ...] = ()
    declined: tuple[Declined, ...] = ()
    removed: tuple[Removed, ...] | None = None


@command("late_summon", player=False)
class LateSummon(NamedTuple):
    """At the table's Energy and Reset: a summon made this round that nobody entered then.

    It pays its cost now and is placed like any other creature.
    """

    player: PlayerId
    kind: CreatureKind


@command("late_removal", player=False)
class LateRemoval(NamedTuple):
    """At the table's Energy and Reset: a removal made this round that nobody entered then.

    `player` removed `victim`'s creature of `kind`; the bounty is paid now and can win the game.
    """

    player: PlayerId
    victim: PlayerId
    kind: CreatureKind


@command("late_swap", player=False)
class LateSwap(NamedTuple):
    """At the table's Energy and Reset: a Wyrm swap of this round nobody entered then.

    `player`'s Wyrm traded places with another of their creatures; the 1 energy is paid now.
    """

    player: PlayerId


@command("skip", player=False)
class Skip(NamedTuple):
    """At the table: everyone is done up to a point of the round, in one record.

    The point is a phase's step (`kind`; None for the end of the phase) and, within that
    step, the first player still to decide (`player`; None for the step's start).
    """

    phase: Literal["summoning", "actions"]
    kind: CreatureKind | None = None
    player: PlayerId | None = None


# Derived from the registrations above, never listed by hand.
COMMAND_TYPES: dict[str, type[Any]] = dict(_TYPES)
PLAYER_COMMANDS: tuple[type[PlayerCommand], ...] = tuple(_PLAYERS)
_TYPE_NAMES = {cls: name for name, cls in COMMAND_TYPES.items()}
_ADAPTERS: dict[str, TypeAdapter[Command]] = {
    name: TypeAdapter(cls) for name, cls in COMMAND_TYPES.items()
}


class CommandFormatError(ValueError):
    """A command's JSON form is not one the game knows; `message` says why in any language.

    str() of it is the English sentence.
    """

    def __init__(self, message: Message | str) -> None:
        super().__init__(message)
        self.message = as_message(message)

    def __str__(self) -> str:
        return str(self.message)


def command_type(command: Command) -> str:
    """The command's type name as written in JSON, e.g. 'summon'."""
    return _TYPE_NAMES[type(command)]


def command_to_json(command: Command) -> dict[str, Any]:
    """The command as a JSON-ready dict with a 'type' key; unset optional fields are left out."""
    data: dict[str, Any] = {"type": command_type(command)}
    for field, value in command._asdict().items():
        if value is None:
            continue
        data[field] = _plain(value)
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        if hasattr(value, "_asdict"):
            return {key: _plain(item) for key, item in value._asdict().items()}
        return [_plain(item) for item in value]
    if isinstance(value, CreatureKind):
        return value.value
    return value


def command_from_json(data: Any, context: dict[str, Any] | None = None) -> Command:
    """Validate a JSON-ready dict into a command; CommandFormatError says what is wrong.

    `context` models.text.STORED reads a saved command: its text is shown safely, not refused.
    """
    if not isinstance(data, dict):
        raise CommandFormatError(Message("problem.command.not_object", given=type(data).__name__))
    fields = dict(data)
    name = fields.pop("type", None)
    if name not in _ADAPTERS:
        known = ", ".join(COMMAND_TYPES)
        raise CommandFormatError(
            Message("problem.command.unknown_type", name=repr(name), known=known)
        )
    try:
        return _ADAPTERS[name].validate_python(fields, context=context)
    except ValidationError as error:
        said = problem(error, fields)
        raise CommandFormatError(
            Message("problem.command.invalid", name=name, problem=said)
        ) from None
