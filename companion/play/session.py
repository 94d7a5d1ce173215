"""One open game as the app sees it: every action goes through the store, every rule to the engine.

Nothing here is Flet: screens call these methods and show what comes back, so the
logic under the screens is tested without a browser.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import partial

from companion.engine import GameState, IllegalCommand, Tally
from companion.engine.queries import tally_after
from companion.engine.replay import replay
from companion.engine.table_reset import ResetDraft, draft_from
from companion.language import Message
from companion.language.render import Language
from companion.play.session_words import LogWords
from companion.play.sharing import policy
from companion.play.table_seat import records_for
from companion.play.told import Told
from companion.store.errors import DraftMovedOn, GameMovedOn, GameNotFound, StoreError
from companion.store.store import LogEntry, SavedGame, Store, joined, tap_size
from models.commands import PLAYER_COMMANDS, Command, EnergyAndReset, Skip

# How many times a change to the draft (or a tap whose moment has not passed) is made again
# after other devices' changes.
DRAFT_TRIES = 8
# Where the round stands for a tap (GameSession.moment).
Moment = tuple[object, ...]


@dataclass(frozen=True)
class Outcome:
    """What became of an action: done (with its log sentence) or refused (with the reason);
    `said` is None when there is nothing to say (a draft change shows itself)."""

    ok: bool
    said: Message | None = None

    def text(self, words: Language) -> str:
        """What to show, in `words`' language ('' for nothing)."""
        return "" if self.said is None else words.render(self.said)


class GameSession(LogWords):
    """The app's handle on one saved game.

    `seat` says, at each write, who this device is in a shared game (a player's id, the
    scorekeeper or a watcher; see companion/play/sharing/seats.py); None when the table is
    not shared, and the device records for everyone.
    """

    def __init__(
        self,
        store: Store,
        game_id: str,
        seat: Callable[[], str | None] | None = None,
        seated: Callable[[], Collection[str]] | None = None,
    ) -> None:
        self.store = store
        self.saved: SavedGame = store.load(game_id)
        self._seat = seat or (lambda: None)
        # The players who have a device of their own in this game (a shared table).
        self._seated = seated or (lambda: ())
        self._told = None
        self._telling = Told()
        # This device's seat as read for this screen (a change of it, or of the table's codes,
        # builds the screen anew), and the seated players as read for one revision: a screen
        # asks for every control it draws, and on a shared table each answer is a database
        # read. A write reads both again.
        self._seat_read: tuple[str | None] | None = None
        self._seats_read: tuple[int, frozenset[str]] | None = None

    @property
    def seat(self) -> str | None:
        """Who this device is in the game now (None: not shared, it records for everyone)."""
        return self._seat()

    @property
    def state(self) -> GameState:
        """The game's state at its latest revision."""
        return self.saved.state

    @property
    def id(self) -> str:
        """The saved game's id."""
        return self.saved.id

    def label(self, player: str) -> str:
        """A player's display name."""
        return self.saved.game.labels[player]

    def colour(self, player: str) -> str:
        """A player's colour id as chosen at setup."""
        for seat in self.saved.setup.players:
            if seat.id == player:
                return seat.colour
        return ""

    def refresh(self, revision: int | None = None) -> None:
        """Reload the game, e.g. after another device changed it (to `revision`, a notice
        said: the game kept in memory at that revision needs no read)."""
        self.saved = self.store.load(self.id, revision)

    def do(self, command: Command, by: str | None = None) -> Outcome:
        """Record a command; refused ones are not stored and say why.

        `by` is the player the screen showed the command for: a player's command is made
        by them, so a tap from a screen another device has since moved on is refused.
        """
        return self.do_all([command], by)

    def moment(self) -> Moment:
        """Where the round stands for a tap at the table: its round, phase, step and whose
        decision it is. A tap means the same at two revisions of one moment."""
        state = self.state
        return (state.round, state.phase, state.step_kind, state.current_player)

    def do_all(
        self,
        commands: Sequence[Command],
        by: str | None = None,
        revision: int | None = None,
        moment: Moment | None = None,
        again: Command | None = None,
    ) -> Outcome:
        """Record what one tap says, in order, all of it or none; the sentences joined.

        `revision` is the one the tapped screen showed (default: the latest this session
        has seen). If the game has moved on since, nothing is recorded and the refusal says
        so, unless the tap means what it meant: the tapped screen's `moment` is still the
        game's (a second Sprite tapped while the phone was still drawing the first), or the
        tap was on a square that says one thing at any moment (`again`: that player's summon
        of that kind, as a tap records it from where the game is now: play/table_seat.py). It
        is then recorded on the game as it is now.
        """
        base = self.saved.revision if revision is None else revision
        for _ in range(DRAFT_TRIES):
            before = len(self.saved.log)
            signed = self._signed(commands, by)
            if isinstance(signed, Outcome):
                return signed
            try:
                failed = self._write(partial(self.store.append_all, self.id, signed, base), True)
            except GameMovedOn:
                base = self.saved.revision
                if moment is not None and moment == self.moment():
                    continue
                if again is None:
                    return self._moved_on()
                records = records_for(self, again)
                commands = list(records.commands)
                if not commands:
                    # What it would say is not possible now: say why (the isle is full), or
                    # what the game moved on to.
                    return Outcome(False, records.refused) if records.refused else self._moved_on()
                continue
            if failed:
                return failed
            return Outcome(True, joined([entry.sentence for entry in self.saved.log[before:]]))
        return self._moved_on()

    def _signed(self, commands: Sequence[Command], by: str | None) -> list[Command] | Outcome:
        """What a tap says, as this device's seat makes it; the refusal if it may not."""
        # A write checks the seats as they are now, not as the screen was drawn.
        self._forget_seats()
        seat, seated = self._seats()
        refused = self.tap_refusal(commands, by)
        if refused:
            return Outcome(False, refused)
        others = set(self.saved.game.players) - seated
        made = [made_by(command, by) for command in commands]
        return [policy.signed(seat, command, others) for command in made]

    def bots(self) -> set[str]:
        """The players the computer plays."""
        return {player.id for player in self.saved.setup.players if player.bot}

    def seated(self) -> set[str]:
        """The players with a device of their own in this game (a shared table)."""
        return set(self._seated()) - self.bots()

    def unseated(self) -> set[str]:
        """The people with no device of their own: any phone at the table records for them."""
        return set(self.saved.game.players) - self.bots() - self.seated()

    def own_player(self) -> str | None:
        """The player whose own phone this is (a shared table), as read for this screen."""
        seat = self._seats()[0]
        return seat if seat in self.saved.game.labels else None

    def _seats(self) -> tuple[str | None, frozenset[str]]:
        """This device's seat (read once for the screen) and the players seated with a
        device of their own (once for the revision shown); a write reads both again."""
        if self._seat_read is None:
            self._seat_read = (self.seat,)
        seated = self._seats_read
        revision = self.saved.revision
        if seated is None or seated[0] != revision:
            seated = (revision, frozenset(self.seated()))
            self._seats_read = seated
        return self._seat_read[0], seated[1]

    def _forget_seats(self) -> None:
        """A write is coming: it checks the seats as they are now, not as drawn."""
        self._seat_read = None
        self._seats_read = None

    def tap_refusal(self, commands: Sequence[Command], by: str | None = None) -> Message | None:
        """Why this device may not record what a tap says, before the engine is asked: its
        seat records nothing, or the tap is another player's, or it passes over a player who
        has a device of their own. None if it may."""
        seat, seated = self._seats()
        refused = policy.refusal(seat, commands)
        if refused:
            return refused
        labels = self.saved.game.labels
        made = [made_by(command, by) for command in commands]
        refused = policy.others_refusal(seat, made, self.bots(), labels, seated)
        if refused or not any(isinstance(command, Skip) for command in made):
            return refused
        trial = self.state.clone()
        for command in made:
            if isinstance(command, Skip):
                try:
                    passed = trial.skipped(command)
                except IllegalCommand:
                    return None  # the engine says why when the tap is recorded
                refused = policy.skip_refusal(seat, passed, seated, labels)
                if refused:
                    return refused
            try:
                trial.apply(command)
            except IllegalCommand:
                return None
        return None

    def undo_refusal(self) -> Message | None:
        """Why this device may not take back the newest tap's records, if so (a screen
        shows Undo disabled, saying why)."""
        log = self.saved.log
        return self._undo_refusal(log[len(log) - tap_size(log[::-1]) :])

    def redo_refusal(self) -> Message | None:
        """Why this device may not bring back the newest undone tap's records, if so."""
        undone = self.saved.undone
        return self._undo_refusal(undone[: tap_size(undone)])

    def undo(self, revision: int | None = None) -> Outcome:
        """Take back the newest command, as of `revision` (default: the latest seen here)."""
        self._forget_seats()
        refused = self.undo_refusal()
        if refused:
            return Outcome(False, refused)
        label = self.saved.undo_label
        base = self.saved.revision if revision is None else revision
        failed = self._write(lambda: self.store.undo(self.id, base))
        return failed or Outcome(True, Message("game.undone", what=label or ""))

    def redo(self) -> Outcome:
        """Bring back the newest undone command."""
        self._forget_seats()
        refused = self.redo_refusal()
        if refused:
            return Outcome(False, refused)
        label = self.saved.redo_label
        failed = self._write(lambda: self.store.redo(self.id, self.saved.revision))
        return failed or Outcome(True, Message("game.redone", what=label or ""))

    def _undo_refusal(self, entries: Sequence[LogEntry]) -> Message | None:
        """Why this device's seat may not take back or bring back these records, if so."""
        commands = [entry.command for entry in entries]
        seat, seated = self._seats()
        labels = self.saved.game.labels
        unseated = set(self.saved.game.players) - self.bots() - seated
        if seat is None or not any(isinstance(command, Skip) for command in commands):
            return policy.undo_refusal(seat, commands, labels, unseated=unseated)
        log = self.saved.log
        undoing = bool(log) and entries[-1] is log[-1]
        if undoing:
            before = replay(self.saved.game, [entry.command for entry in log[: -len(entries)]])
        else:
            before = self.state.clone()
        skipped: set[str] = set()
        for command in commands:
            skipped.update(player for player, _, _ in before.skipped(command))
            before.apply(command)
        return policy.undo_refusal(seat, commands, labels, skipped, unseated)

    # --- the Energy and Reset draft, the table's -------------------------------------------

    def draft(self) -> tuple[ResetDraft, int]:
        """The Energy and Reset draft as the table has entered it so far (on any device), held
        against the record as it is now, and the version a change must be made from."""
        stored = self.store.draft(self.id)
        state = self.state
        entries = stored.entries if stored.round == state.round else None
        return draft_from(state, entries), stored.version

    def change_draft(
        self, change: Callable[[ResetDraft], Message | None]
    ) -> tuple[Outcome, ResetDraft, int]:
        """Make a change to the draft and store it: (what became of it, the draft, its
        version). Another device's change made meanwhile is kept: this one is made again
        from it (and refused if it no longer can be, e.g. that creature was placed there)."""
        refused = policy.refusal(self.seat, [])
        if refused:
            draft, version = self.draft()
            return Outcome(False, refused), draft, version
        for _ in range(DRAFT_TRIES):
            draft, version = self.draft()
            refused = change(draft)
            if refused is not None:
                return Outcome(False, refused), draft, version
            try:
                stored = self.store.save_draft(self.id, self.state.round, draft.entries(), version)
            except DraftMovedOn:
                continue
            except StoreError as error:
                return Outcome(False, error.message), draft, version
            return Outcome(True), draft, stored.version
        draft, version = self.draft()
        return Outcome(False, Message("game.reset.busy")), draft, version

    def start_draft_over(self) -> Outcome:
        """Throw away what the table entered at this Energy and Reset: it starts over."""
        refused = policy.refusal(self.seat, [])
        if refused:
            return Outcome(False, refused)
        try:
            self.store.clear_draft(self.id)
        except StoreError as error:
            return Outcome(False, error.message)
        return Outcome(True)

    def _write(
        self, write: Callable[[], SavedGame], raise_moved_on: bool = False
    ) -> Outcome | None:
        """Run one store write; an Outcome saying why if it failed, None if it was saved.

        A game moved on since the revision written from is refreshed, and said (or, with
        `raise_moved_on`, raised for the caller to decide)."""
        try:
            self.saved = write()
        except IllegalCommand as error:
            return Outcome(False, refusal_of(error))
        except GameMovedOn:
            self.refresh()
            if raise_moved_on:
                raise
            return self._moved_on()
        except GameNotFound:
            return Outcome(False, policy.GAME_DELETED)
        except StoreError as error:
            return Outcome(False, Message("game.store_problem", problem=error.message))
        return None

    def _moved_on(self) -> Outcome:
        """The refusal of a tap made on a drawing the game has moved on from."""
        latest = self.saved.undo_label
        if latest is None:
            return Outcome(False, Message("game.moved_on"))
        return Outcome(False, Message("game.moved_on_after", latest=latest))

    def refusal(self, command: Command) -> Message | None:
        """Why the engine would refuse a command now, or None if it is allowed."""
        try:
            self.state.clone().apply(command)
        except IllegalCommand as error:
            return refusal_of(error)
        return None

    def reset_preview(self, command: EnergyAndReset) -> Tally | Message:
        """The engine's tally for a reset record, without recording it; why not if refused."""
        try:
            return tally_after(self.state, command)
        except IllegalCommand as error:
            return refusal_of(error)

    def energy_by_round(self) -> dict[str, list[int]]:
        """Every player's energy at the end of each round, for the chart."""
        return self.store.energy_by_round(self.id)


def made_by(command: Command, by: str | None) -> Command:
    """A player's command as made by `by` (when it names nobody yet); others as they are."""
    if by is not None and isinstance(command, PLAYER_COMMANDS) and command.by is None:
        return command._replace(by=by)
    return command


def refusal_of(error: IllegalCommand) -> Message:
    """The engine's refusal as a sentence: a capital first and a full stop."""
    return Message("game.refused", reason=error.message)
