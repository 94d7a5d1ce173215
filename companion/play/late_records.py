"""What the table forgot to enter, as data (the screens draw, the play layer decides): a
summon, a removal or a Wyrm swap made this round that nobody recorded, told at Energy and Reset.

The records are the engine's (`late_summon`, `late_removal`, `late_swap`): a late summon pays
its cost and its creature is then placed like any other; a late removal pays its bounty, which
can win the game at 36; a late swap pays its 1 energy. A form starts on this device's own
player, and says what its record will do, or why it is refused, as its fields change, before
anything is recorded. The dialogs (companion/app/screens/reset_late.py) draw a form's fields
and preview, and send its values back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.engine.names import kind_term
from companion.language import Message
from companion.language.render import Language
from companion.play.session import Outcome
from companion.play.turns import Turns
from models.commands import Command, LateRemoval, LateSummon, LateSwap
from models.rules import CREATURES, KIND_ORDER, CreatureKind


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a form: its label, its choices as (key, text), and the key it starts on."""

    label: str
    choices: tuple[tuple[str, str], ...]
    value: str
    # The field's name for a screen reader and the browser tests.
    name: str


@dataclass(frozen=True, slots=True)
class Preview:
    """What the record will do, or why it cannot be recorded (`refused`)."""

    said: str
    refused: bool


@dataclass(frozen=True, slots=True)
class LateForm:
    """A late record's form: its title, what it does, its fields, and the command their
    values make (one value per field, in order)."""

    title: str
    help: str
    fields: tuple[Field, ...]
    make: Callable[[Sequence[str]], Command]


class LateRecords:
    """The late records one device may enter at a table game's Energy and Reset."""

    def __init__(self, turns: Turns, words: Language) -> None:
        self.turns = turns
        self.session = turns.session
        self.words = words

    def say(self, message_id: str) -> str:
        """A message with no values, in this device's language."""
        return self.words.render(Message(message_id))

    def players(self, label: str, name: str, *, own: bool) -> Field:
        """A player, by name, in turn order: with `own`, starting on this device's own
        player (the first in turn order on a device seated as nobody), else on the last in
        turn order who is not this device's player (whose creature it removed)."""
        order = self.session.state.order()
        seat = self.session.seat
        if own:
            value = seat if seat in order else order[0]
        else:
            value = next(player for player in reversed(order) if player != seat)
        return Field(
            label, tuple((player, self.session.label(player)) for player in order), value, name
        )

    def kinds(self, *, costs: bool) -> Field:
        """A creature kind, starting on the Sprite; with its cost when the record pays one."""

        def text(kind: CreatureKind) -> str:
            name = self.words.value(kind_term(kind), "nu")
            if not costs:
                return name
            energy = self.words.render(Message("count.energy", count=CREATURES[kind].cost))
            return f"{name} ({energy})"

        return Field(
            self.say("game.late.what"),
            tuple((kind.value, text(kind)) for kind in KIND_ORDER),
            CreatureKind.SPRITE.value,
            "late-kind",
        )

    def summon(self) -> LateForm:
        """Who summoned, and what: it pays now, then is placed like any creature."""
        return LateForm(
            self.say("game.late.summon_title"),
            self.say("game.late.summon_help"),
            (
                self.players(self.say("game.late.who_summoned"), "late-who", own=True),
                self.kinds(costs=True),
            ),
            lambda values: LateSummon(values[0], CreatureKind(values[1])),
        )

    def removal(self) -> LateForm:
        """Who removed whose creature: the bounty is paid now, and can win the game."""
        return LateForm(
            self.say("game.late.removal_title"),
            self.say("game.late.removal_help"),
            (
                self.players(self.say("game.late.who_removed"), "late-who", own=True),
                self.players(self.say("game.late.whose"), "late-whose", own=False),
                self.kinds(costs=False),
            ),
            lambda values: LateRemoval(values[0], values[1], CreatureKind(values[2])),
        )

    def swap(self) -> LateForm:
        """Whose Wyrm swapped: the swap's energy is paid now."""
        return LateForm(
            self.say("game.late.swap_title"),
            self.say("game.late.swap_help"),
            (self.players(self.say("game.late.who_swapped"), "late-who", own=True),),
            lambda values: LateSwap(values[0]),
        )

    def preview(self, form: LateForm, values: Sequence[str]) -> Preview:
        """What the form's record would do now: its sentence, and the game won if it wins
        it (a bounty reaching 36, ruling 11); else the reason it is refused: this device's
        seat's (another seated player's record) or the engine's."""
        wanted = form.make(values)
        refusal = self.session.tap_refusal([wanted]) or self.session.refusal(wanted)
        if refusal is not None:
            return Preview(self.words.render(refusal), refused=True)
        state = self.session.state
        said = self.words.render(Message("game.sentence", said=state.sentence(wanted)))
        after = state.clone()
        after.apply(wanted)
        if after.winner_id is not None:
            won = Message(
                "game.late.wins",
                player=self.session.label(after.winner_id),
                energy=after.energy_of(after.winner_id),
            )
            said += " " + self.words.render(won)
        return Preview(said, refused=False)

    def record(self, form: LateForm, values: Sequence[str]) -> Outcome:
        """Record the form's command for this device (the record then changes the draft)."""
        return self.turns.record([form.make(values)], None)
