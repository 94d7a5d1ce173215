"""The table's turn card as data: what each control says, records, and whether it is this
device's to tap (screens draw, the play layer decides).

Summoning is a grid (players by creature kinds): a square records a player's summon after
a skip over everyone before them who did not summon (the engine's `reach`), or, on a
player's own phone, said ahead of their turn (play/table_seat.py). The Actions phase lists
what the acting player's creatures can remove, a Wyrm swap, the player's "done", and a jump
to each later player. A player's own phone lists their own removals and swap instead,
whoever's turn it is, and their "nothing more", and leaves out what it may not record for
others. Every control names the player it acts for; on a shared table, one that this device
may not record carries the reason, and the card says the first such reason once.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import GameState, Phase
from companion.engine.names import kind_term, kinds_term
from companion.language import Message
from companion.play.session import GameSession
from companion.play.table_seat import Records, own_removals, own_swap, records_for, said_ahead
from models.commands import Command, Done, Pass, Removal, Skip, Summon, Swap
from models.rules import CREATURES, KIND_ORDER, WYRM_SWAP_COST, CreatureKind


@dataclass(frozen=True, slots=True)
class Tap:
    """A control that records: its words, the commands it sends, the player it is sent
    for, and why this device may not send it (None: it may)."""

    label: Message
    commands: tuple[Command, ...]
    by: str | None
    refused: Message | None = None
    # What the tap says at any moment of the game, if it says one thing (a summon square:
    # that player's summon of that kind), to record it from a drawing the game moved on from.
    again: Command | None = None


@dataclass(frozen=True, slots=True)
class SummonSquare:
    """One square of the summon grid: how many are left, and its tap (None when no tap
    can summon that creature for that player now)."""

    # The player's name, as the square is read out.
    name: str
    kind: CreatureKind
    left: int
    tap: Tap | None
    # The square of the player and kind whose decision it is now.
    current: bool

    @property
    def open(self) -> bool:
        """Whether this device can tap it now."""
        return self.tap is not None and self.tap.refused is None

    @property
    def label(self) -> Message:
        """What a screen reader says of it."""
        kind = kind_term(self.kind)
        if self.tap is not None and self.tap.refused is not None:
            return Message(
                "game.table.summon_cell_locked",
                player=self.name,
                kind=kind,
                count=self.left,
                reason=self.tap.refused,
            )
        return Message("game.table.summon_cell", player=self.name, kind=kind, count=self.left)


@dataclass(frozen=True, slots=True)
class GridRow:
    """A player's row of the summon grid, in turn order."""

    player: str
    name: str
    colour: str
    # Whose decision it is now.
    now: bool
    squares: tuple[SummonSquare, ...]


@dataclass(frozen=True, slots=True)
class GridHead:
    """A column's head: the kind, and whether it is the step's."""

    kind: CreatureKind
    now: bool

    @property
    def label(self) -> Message:
        """'Troll 3': the kind and its cost, marked as the step's for its column."""
        said = "game.table.head_now" if self.now else "game.table.head"
        return Message(said, kind=kind_term(self.kind), cost=CREATURES[self.kind].cost)


@dataclass(frozen=True, slots=True)
class RemovalChip:
    """A rival creature the acting player's creatures may have removed, with its bounty."""

    tap: Tap
    victim: str
    victim_name: str
    victim_colour: str
    kind: CreatureKind
    # The kind of the acting player's creatures that removed it, and the words heading the
    # chips of that kind on a player's own phone ("Ann's Trolls removed:").
    attacker: CreatureKind
    heading: Message

    @property
    def text(self) -> Message:
        """What the chip says: the victim's creature and its bounty."""
        return Message(
            "game.table.removal",
            victim=self.victim_name,
            kind=kind_term(self.kind),
            bounty=CREATURES[self.kind].bounty,
        )


@dataclass(frozen=True, slots=True)
class TurnView:
    """Everything the turn card shows for one revision of a table game."""

    revision: int
    phase: Phase
    title: Message
    # What the player to decide is asked (the screen may leave it out when short of room).
    guide: Message | None = None
    heads: tuple[GridHead, ...] = ()
    grid: tuple[GridRow, ...] = ()
    removals: tuple[RemovalChip, ...] = ()
    swap: Tap | None = None
    done: Tap | None = None
    jumps: tuple[Tap, ...] = ()
    # Why the step passes each of these players over, in turn order.
    blockers: tuple[Message, ...] = ()
    # One tap for the whole table: nobody (else) summons, or the Actions are over.
    whole_table: Tap | None = None
    # Energy and Reset to work out, or the result to see: where the one button leads.
    next_step: str | None = None
    # Why this card's controls are not this device's (a shared table): the first reason met,
    # or one sentence for several other players' (`_card_note`).
    not_mine: Message | None = None
    # On a player's own phone: their "no more summons" and "nothing more this round".
    own_done: tuple[Tap, ...] = ()


def turn_view(session: GameSession) -> TurnView:
    """The turn card for the game as the session has it now."""
    return _Build(session).view()


def _card_note(kept: Message | None, refused: Message) -> Message:
    """The card's one note of why controls are not this device's: the first reason met, or,
    when several other players' controls are locked, one sentence for them all."""
    if kept is None:
        return refused
    others = "app.policy.others"
    if kept.id == refused.id == others and kept.fields["theirs"] != refused.fields["theirs"]:
        return Message("app.policy.others_all", mine=kept.fields["mine"])
    return kept


class _Build:
    """One card's worth of asking the session, keeping the first refusal met."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.state: GameState = session.state
        self.not_mine: Message | None = None
        # The player whose own phone this is: their card leaves out what it may not record.
        self.me = session.own_player()

    def tap(self, label: Message, commands: list[Command], by: str | None) -> Tap:
        """A tap, with why this device may not send it (the first reason is kept)."""
        refused = self.session.tap_refusal(commands, by)
        return self.kept(label, Records(tuple(commands), refused), by)

    def kept(
        self, label: Message, records: Records, by: str | None, again: Command | None = None
    ) -> Tap:
        """A tap for `records`, keeping the first reason this device may not send one."""
        if records.refused is not None:
            self.not_mine = _card_note(self.not_mine, records.refused)
        return Tap(label, records.commands, by, records.refused, again)

    def offered(self, tap: Tap) -> Tap | None:
        """A tap for the table, or someone else's: left out of a player's own phone when it
        may not send it (the player records only their own)."""
        return None if self.me is not None and tap.refused is not None else tap

    def own_done(self, summoning: bool) -> tuple[Tap, ...]:
        """The own phone's player's "nothing more" taps that the engine takes now."""
        me = self.me
        if me is None:
            return ()
        name = self.session.label(me)
        said = {"summoning": "game.table.no_more_summons", "round": "game.table.nothing_more"}
        done = [Done("summoning", by=me)] if summoning else []
        done.append(Done("round", by=me))
        return tuple(
            Tap(Message(said[command.until], player=name), (command,), me)
            for command in done
            if said_ahead(self.session, command)
        )

    def waiting(self, player: str, kind: CreatureKind, own: Message) -> Message:
        """What the card asks: the own phone's player, or whom the table waits for."""
        if self.me is None or self.me == player:
            return own
        return Message(
            "game.table.waiting_for", player=self.session.label(player), kinds=kinds_term(kind)
        )

    def view(self) -> TurnView:
        state = self.state
        revision = self.session.saved.revision
        game = f"/game/{self.session.id}"
        kind = state.step_kind
        if state.phase is Phase.SUMMONING:
            assert kind is not None, "every Summoning step is of a kind"
            return self.summoning(revision, kind)
        if state.phase is Phase.ACTIONS:
            assert kind is not None, "every Actions step is of a kind"
            return self.actions(revision, kind)
        if state.phase is Phase.ENERGY_AND_RESET:
            title = Message("game.phase.energy_and_reset")
            return TurnView(revision, state.phase, title, next_step=f"{game}/reset")
        return TurnView(revision, state.phase, Message("game.table.over"), next_step=f"{game}/end")

    def summoning(self, revision: int, kind: CreatureKind) -> TurnView:
        state = self.state
        player = state.current_player
        assert player is not None, "a Summoning step is someone's"
        name = self.session.label(player)
        grid = tuple(self.row(p) for p in state.order())
        done = self.tap(
            Message("game.table.done_with", player=name, kinds=kinds_term(kind)), [Pass()], player
        )
        whole = self.tap(Message("game.table.nobody_summons"), [Skip("summoning")], None)
        removals, swap = self.own_actions()
        if self.me == player:
            # The player's own phone: the other squares are not this phone's to tap.
            guide = Message("game.table.own_summon_guide", player=name, kinds=kinds_term(kind))
        else:
            guide = Message("game.table.summon_guide", player=name)
        return TurnView(
            revision,
            state.phase,
            Message("game.table.summoning_step", kinds=kinds_term(kind)),
            guide=self.waiting(player, kind, guide),
            heads=tuple(GridHead(k, k is kind) for k in KIND_ORDER),
            grid=grid,
            removals=removals,
            swap=swap,
            done=self.offered(done),
            blockers=self.blockers(),
            whole_table=self.offered(whole),
            not_mine=self.not_mine,
            own_done=self.own_done(summoning=True),
        )

    def row(self, player: str) -> GridRow:
        state = self.state
        now = player == state.current_player
        squares = tuple(
            self.square(player, kind, current=now and kind is state.step_kind)
            for kind in KIND_ORDER
        )
        name = self.session.label(player)
        return GridRow(player, name, self.session.colour(player), now, squares)

    def square(self, player: str, kind: CreatureKind, *, current: bool) -> SummonSquare:
        state = self.state
        left = state.reserve_of(player, kind)
        summon = Summon(kind, by=player)
        records = records_for(self.session, summon)
        name = self.session.label(player)
        label = Message("game.table.summon_cell", player=name, kind=kind_term(kind), count=left)
        tap = self.kept(label, records, player, summon) if records.commands else None
        return SummonSquare(name, kind, left, tap, current)

    def actions(self, revision: int, kind: CreatureKind) -> TurnView:
        state = self.state
        player = state.current_player
        assert player is not None, "an Actions step is someone's"
        name = self.session.label(player)
        if self.me is None:
            legal = state.legal_commands()
            removals = tuple(self.removal(player, kind, c) for c in legal if isinstance(c, Removal))
            swap = None
            if Swap() in legal:
                swap = self.swap(player, [Swap()])
        else:
            removals, swap = self.own_actions()
        done = self.tap(
            Message("game.table.done_with", player=name, kinds=kinds_term(kind)), [Pass()], player
        )
        jumps = tuple(tap for tap in self.jumps(kind) if self.offered(tap))
        whole = self.tap(Message("game.table.actions_over"), [Skip("actions")], None)
        acting = "game.table.act_remove" if removals else "game.table.act_none"
        return TurnView(
            revision,
            state.phase,
            Message("game.table.actions_step", kinds=kinds_term(kind)),
            guide=self.waiting(player, kind, Message(acting, player=name, kinds=kinds_term(kind))),
            removals=removals,
            swap=swap,
            done=self.offered(done),
            jumps=jumps,
            blockers=self.blockers(),
            whole_table=self.offered(whole),
            not_mine=self.not_mine,
            own_done=self.own_done(summoning=False),
        )

    def own_actions(self) -> tuple[tuple[RemovalChip, ...], Tap | None]:
        """The own phone's player's removals (by each kind of their creatures) and swap,
        on their turn or said ahead of it."""
        me = self.me
        if me is None:
            return (), None
        removals = tuple(
            self.removal(me, attacker, removal)
            for attacker, found in own_removals(self.session, me).items()
            for removal in found
        )
        swap = own_swap(self.session, me)
        return removals, None if swap is None else self.swap(me, [swap])

    def swap(self, player: str, commands: list[Command]) -> Tap:
        """A player's Wyrm swap, with its cost."""
        cost = Message("count.energy", count=WYRM_SWAP_COST)
        name = self.session.label(player)
        return self.tap(Message("game.table.swap", player=name, cost=cost), commands, player)

    def removal(self, player: str, attacker: CreatureKind, removal: Removal) -> RemovalChip:
        name = self.session.label(player)
        victim = self.session.label(removal.victim)
        kind = CreatureKind(removal.kind)
        if self.me is None:
            label = Message("game.table.removed", player=name, victim=victim, kind=kind_term(kind))
        else:
            label = Message(
                "game.table.removed_with",
                player=name,
                kinds=kinds_term(attacker),
                victim=victim,
                kind=kind_term(kind),
            )
        tap = self.tap(label, [removal], player)
        colour = self.session.colour(removal.victim)
        heading = Message("game.table.removed_by", player=name, kinds=kinds_term(attacker))
        return RemovalChip(tap, removal.victim, victim, colour, kind, attacker, heading)

    def jumps(self, kind: CreatureKind) -> tuple[Tap, ...]:
        """A tap per later player in this step: everyone before them is done."""
        state = self.state
        acting = [p for p in state.order() if state.blocker(p) is None]
        assert state.current_player is not None, "an Actions step is someone's"
        later = acting[acting.index(state.current_player) + 1 :]
        return tuple(
            self.tap(
                Message("game.table.jump", player=self.session.label(p), kinds=kinds_term(kind)),
                [Skip("actions", kind, p)],
                None,
            )
            for p in later
        )

    def blockers(self) -> tuple[Message, ...]:
        """Why the step passes each player over, for those it does."""
        state = self.state
        return tuple(
            Message("game.table.blocker", reason=reason)
            for reason in (state.blocker(player) for player in state.order())
            if reason is not None
        )
