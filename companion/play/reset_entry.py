"""The table's Energy and Reset entry as a view-model (screens draw, the play layer
decides).

It holds the table's draft (kept in the store, shared by every device at the
table), its version, and the creature this device is asked about; it makes each change a tap
asks for, applies the record, and says what another device's change means here. Each tap
returns a `Step`: what to say, whether the draft changed (to announce on the bus), where to
go. The screen (companion/app/screens/reset.py) only draws, notifies, announces and
navigates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.engine import Phase, Tally
from companion.engine.names import territory_term
from companion.engine.table_reset import Creature, ResetDraft
from companion.language import Message, by_commas
from companion.play.session import GameSession
from companion.play.sharing.policy import bonus_refusal
from companion.play.sharing.seats import seat_naming
from companion.play.tap_guard import TapGuard, Verdict
from companion.play.turns import Turns

Change = Callable[[ResetDraft], Message | None]


@dataclass(frozen=True, slots=True)
class Step:
    """What a tap or another device's change came to, for the screen to carry out."""

    # A sentence to show (an error when `error`), None for nothing.
    said: Message | None = None
    error: bool = False
    # The draft was stored anew: other devices are told its version.
    announce: bool = False
    # Show the draft as it is now.
    redraw: bool = False
    # The screen to open instead (this one's business is over), with `said` on it.
    go: str | None = None


NOTHING = Step()


@dataclass(frozen=True, slots=True)
class Bonus:
    """A territory one player holds whole, as its card shows it."""

    player: str
    bonus: int
    taken: bool
    # Who declined it on a shared table ('declined by Chloé'); None when taken or unknown.
    declined_by: Message | None
    # Why this device may not take or decline it; None if it may.
    locked: Message | None


class ResetEntry:
    """One device's Energy and Reset: the draft, the creature asked about, and the changes."""

    def __init__(
        self,
        session: GameSession,
        turns: Turns,
        guard: TapGuard | None = None,
        asked_anew: TapGuard | None = None,
    ) -> None:
        self.session = session
        self.turns = turns
        # One tap, one record (companion/play/tap_guard.py); a web page's guard is made with
        # `doubles=False`.
        self.guard = guard or TapGuard()
        # Says when another device's change moved this device's question to another
        # creature: a territory tapped in that moment was meant for the one asked before.
        self.asked_anew = asked_anew or TapGuard()
        # Read by `load`, once the game is known to be at Energy and Reset (`open`).
        self.draft: ResetDraft
        self.version = 0
        self.selected: Creature | None = None
        # The creature asked about before another device's change moved the question on.
        self.asked_before: Creature | None = None
        if self.open:
            self.load()

    @property
    def open(self) -> bool:
        """Whether there is a draft to enter: a table game at Energy and Reset."""
        state = self.session.state
        return state.phase is Phase.ENERGY_AND_RESET and not state.game.digital

    def load(self) -> None:
        """Read the draft as the table has it, and ask about the first creature to place:
        this phone's own player's, where it has any left (the player knows where they
        stand), else the first in turn order."""
        self.draft, self.version = self.session.draft()
        seat = self.session.seat
        own = (creature for creature, _ in self.draft.groups() if creature.player == seat)
        self.selected = next(own, None) or self.draft.next_to_place(None)

    @property
    def back(self) -> str:
        """The game's table screen."""
        return f"/game/{self.session.id}"

    # --- taps: each a change of the table's draft, stored before it shows -----------------

    def edit(self, change: Change, then: Creature | None, *, moves: bool = True) -> Step:
        """Make a change to the draft for a tap; `then` is the creature to ask about next
        (None: whichever comes next).

        `moves` is False for a target another device's change cannot move or re-aim (a
        territory: what it puts there is this device's own question), so two phones placing
        at the same moment both place.
        """
        verdict = self.guard.tap(current=moves)
        if verdict is Verdict.DOUBLE:
            return NOTHING
        if verdict is Verdict.CHANGED:
            return Step(Message("game.tap.changed"), error=True)
        outcome, self.draft, self.version = self.session.change_draft(change)
        if not outcome.ok:
            return Step(outcome.said, error=True, redraw=True)
        self.selected = then if then is not None else self.draft.next_to_place(self.selected)
        return Step(announce=True, redraw=True)

    def place(self, territory_id: str) -> Step:
        """Put the creature asked about in a territory, and ask about the next one."""
        creature = self.selected
        if creature is None:
            return Step(Message("game.reset.all_placed_tap"))
        if self.asked_anew.tap() is Verdict.CHANGED:
            # Another device placed the creature this one was asked about a moment ago: the
            # tap was meant for that one, and is not put on the next.
            meant = self.asked_before or creature
            said = self.instead(meant) or Message(
                "draft.changed_elsewhere", creature=self.draft.naming(meant)
            )
            return Step(Message("game.reset.asked_anew", happened=said), error=True)
        step = self.edit(lambda draft: draft.put(creature, territory_id), None, moves=False)
        instead = self.instead(creature) if step.error else None
        if instead is None:
            return step
        # Another device placed it first (its change was stored first): this one is told
        # what stands now, and asked about the next creature.
        self.selected = self.draft.next_to_place(creature)
        territory = territory_term(self.draft.isle.board, self.draft.territory(territory_id))
        lost = Message("game.reset.lost_place", happened=instead, territory=territory)
        return Step(lost, error=True, redraw=True)

    def instead(self, creature: Creature) -> Message | None:
        """What another device entered for a group this device was asked about, once none
        of it is left to place: where they stand, or that they are off the board."""
        draft = self.draft
        if draft.to_place.get(creature):
            return None
        naming = draft.naming(creature)
        places = [
            territory_term(draft.isle.board, territory)
            for territory in draft.territories
            if creature in draft.placed[territory.id]
        ]
        if places:
            return Message("draft.placed_elsewhere", creature=naming, places=by_commas(places))
        if draft.gone.get(creature):
            return Message("draft.gone_elsewhere", creature=naming)
        return None

    def take_back(self, creature: Creature, territory_id: str) -> Step:
        """Take a creature off a territory: it is the one asked about now (a move's first tap)."""

        def change(draft: ResetDraft) -> Message | None:
            if creature not in draft.placed[territory_id]:
                return Message("draft.not_there", creature=draft.naming(creature))
            draft.take_back(creature, territory_id)
            return None

        return self.edit(change, creature)

    def select(self, creature: Creature) -> None:
        """Ask about another group of creatures still to place (this device only)."""
        self.selected = creature

    def mark_gone(self) -> Step:
        """The creature asked about is not on the board: it went without a recorded removal."""
        creature = self.selected
        if creature is None:
            return NOTHING

        def change(draft: ResetDraft) -> Message | None:
            if not draft.to_place.get(creature):
                return Message("draft.not_waiting", creature=draft.naming(creature))
            draft.mark_gone(creature)
            return None

        step = self.edit(change, None)
        instead = self.instead(creature) if step.error else None
        if instead is None:
            return step
        self.selected = self.draft.next_to_place(creature)
        return Step(Message("game.reset.lost_gone", happened=instead), error=True, redraw=True)

    def restore(self, creature: Creature) -> Step:
        """A creature marked gone is on the board after all: ask where."""

        def change(draft: ResetDraft) -> Message | None:
            if not draft.gone.get(creature):
                return Message("draft.not_gone", creature=draft.naming(creature))
            draft.restore(creature)
            return None

        return self.edit(change, creature)

    def decline(self, player: str, territory_id: str, take: bool) -> Step:
        """Take or decline a domination bonus (ruling 10: each is optional): on the holder's
        own device, the scorekeeper's, or any phone for a holder with no device."""
        seat = self.session.seat
        refused = bonus_refusal(seat, player, self.session.seated(), self.session.saved.game.labels)
        if refused is not None:
            return Step(refused, error=True)

        def change(draft: ResetDraft) -> Message | None:
            draft.decline(player, territory_id, not take, seat or "")
            return None

        return self.edit(change, self.selected)

    def start_over(self) -> Step:
        """Throw away what the table entered: the draft starts again from the record."""
        outcome = self.session.start_draft_over()
        if not outcome.ok:
            return Step(outcome.said, error=True)
        self.load()
        return Step(announce=True, redraw=True)

    def apply(self) -> Step:
        """Record the Energy and Reset: on to the next round (or the result)."""
        if self.guard.tap() is not Verdict.SEND:
            return NOTHING
        self.draft, self.version = self.session.draft()
        outcome = self.turns.record([self.draft.command()], None)
        if not outcome.ok:
            # The engine names what is not accounted for: the fix is on this screen.
            return Step(outcome.said, error=True, redraw=True)
        return Step(go=self.back + ("/end" if self.session.state.is_terminal else ""))

    def shown(self) -> None:
        """The screen has shown a tap's step: the guard time runs from now."""
        self.guard.settled()

    # --- what other devices did -------------------------------------------------------------

    def entered_elsewhere(self, version: int) -> Step:
        """Another device changed the draft: show it as it is now."""
        if version <= self.version:
            return NOTHING
        self.draft, self.version = self.session.draft()
        return self.redrawn()

    def recorded_elsewhere(self, revision: int) -> Step:
        """Another device recorded in this game: a late record changes the draft; the
        record applied (or undone past this phase) ends this screen's business."""
        if not self.turns.changed_elsewhere(revision):
            return NOTHING
        return self.changed_record(elsewhere=True)

    def changed_record(self, *, elsewhere: bool = False) -> Step:
        """The record changed (here or elsewhere): show the draft against it, or leave."""
        state = self.session.state
        if state.phase is not Phase.ENERGY_AND_RESET:
            said = Message("game.reset.elsewhere") if elsewhere else None
            return Step(said, go=self.back + ("/end" if state.is_terminal else ""))
        self.draft, self.version = self.session.draft()
        return self.redrawn(elsewhere=elsewhere)

    def redrawn(self, *, elsewhere: bool = True) -> Step:
        """The draft changed: after another device's change, a tap in the next moments was
        aimed at what was there before (the tap guards)."""
        if self.selected not in dict(self.draft.groups()):
            if elsewhere:
                self.asked_before = self.selected
                self.asked_anew.changed_elsewhere()
            self.selected = self.draft.next_to_place(self.selected)
        if elsewhere:
            self.guard.changed_elsewhere()
        return Step(redraw=True)

    # --- what the screen shows ---------------------------------------------------------------

    def tally(self) -> Tally | Message:
        """The engine's tally for the draft; while creatures are still to place, a preview
        with them counted as gone; why not if the engine refuses it."""
        return self.session.reset_preview(self.draft.trial())

    def bonuses(self, tally: Tally | Message) -> dict[str, Bonus]:
        """Territory -> its bonus as the card shows it, for each territory one player holds
        whole: taken or declined and by whom, and whether this device may switch it."""
        seat, seated = self.session.seat, self.session.seated()
        labels = self.session.saved.game.labels
        shown = {}
        for territory, (player, bonus, taken) in self.held(tally).items():
            by = self.draft.declined_by.get((player, territory), "")
            who = Message("game.reset.declined_by", who=seat_naming(by, labels))
            shown[territory] = Bonus(
                player,
                bonus,
                taken,
                None if taken or not by else who,
                bonus_refusal(seat, player, seated, labels),
            )
        return shown

    @staticmethod
    def held(tally: Tally | Message) -> dict[str, tuple[str, int, bool]]:
        """Territory -> (player, bonus, taken) for each territory one player holds whole."""
        if not isinstance(tally, Tally):
            return {}
        return {
            territory.territory: (line.player, territory.bonus, territory.taken)
            for line in tally.players
            for territory in line.dominated
        }
