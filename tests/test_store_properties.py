"""Undo and redo, as properties: any number of steps, any game, the database agrees."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from store_support import BACKENDS, DUEL, GATHERING, choose, database_url, play

from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from companion.store.errors import NothingToRedo
from companion.store.store import open_store

SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", params=BACKENDS)
def url(request, tmp_path_factory):
    yield from database_url(request.param, tmp_path_factory.mktemp("properties"))


@pytest.fixture(scope="module")
def store(url):
    with open_store(url) as opened:
        yield opened


def view(saved):
    """What a player sees, and the log behind it."""
    return state_to_json(saved.state), [(e.seq, e.command, str(e.sentence)) for e in saved.log]


@SETTINGS
@given(
    setup=st.sampled_from([DUEL, GATHERING]),
    length=st.integers(1, 30),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_undo_k_then_redo_k_gives_the_same_state(store, url, setup, length, seed, data):
    saved = play(store, store.new_game(setup), length, random.Random(seed))
    before = view(saved)
    k = data.draw(st.integers(0, len(saved.log)), label="k")
    for _ in range(k):
        saved = store.undo(saved.id, saved.revision)
    assert len(saved.log) == len(before[1]) - k
    assert state_to_json(saved.state) == state_to_json(
        replay(saved.game, [entry.command for entry in saved.log])
    )
    for _ in range(k):
        saved = store.redo(saved.id, saved.revision)
    assert view(saved) == before
    with open_store(url) as reopened:
        assert view(reopened.load(saved.id)) == before


@SETTINGS
@given(length=st.integers(1, 30), seed=st.integers(0, 10_000), data=st.data())
def test_undo_then_a_new_command_drops_the_redo_branch(store, url, length, seed, data):
    rng = random.Random(seed)
    saved = play(store, store.new_game(DUEL), length, rng)
    kept = list(saved.log)
    k = data.draw(st.integers(1, len(saved.log)), label="k")
    for _ in range(k):
        saved = store.undo(saved.id, saved.revision)
    saved = store.append(saved.id, choose(saved, rng), saved.revision)
    assert saved.undone == ()
    assert saved.log[:-1] == tuple(kept[: len(kept) - k])
    assert saved.log[-1].seq == len(kept) + 1
    with pytest.raises(NothingToRedo):
        store.redo(saved.id, saved.revision)
    with open_store(url) as reopened:
        again = reopened.load(saved.id)
        assert again.undone == ()
        assert view(again) == view(saved)


class UndoRedoMachine(RuleBasedStateMachine):
    """Random appends, undos, redos and restarts, checked against a plain list model."""

    url = ""

    def __init__(self) -> None:
        super().__init__()
        self.store = open_store(self.url)
        self.saved = self.store.new_game(DUEL)
        self.rng = random.Random(0)
        self.active: list = []
        self.redoable: list = []

    @precondition(lambda self: not self.saved.state.is_terminal)
    @rule(seed=st.integers(0, 1000))
    def append(self, seed):
        self.rng.seed(seed)
        self.saved = self.store.append(
            self.saved.id, choose(self.saved, self.rng), self.saved.revision
        )
        self.active.append(self.saved.log[-1].command)
        self.redoable = []

    @precondition(lambda self: self.active)
    @rule()
    def undo(self):
        self.saved = self.store.undo(self.saved.id, self.saved.revision)
        self.redoable.insert(0, self.active.pop())

    @precondition(lambda self: self.redoable)
    @rule()
    def redo(self):
        self.saved = self.store.redo(self.saved.id, self.saved.revision)
        self.active.append(self.redoable.pop(0))

    @rule()
    def restart(self):
        self.store.close()
        self.store = open_store(self.url)
        self.saved = self.store.load(self.saved.id)

    @invariant()
    def matches_the_model(self):
        assert [entry.command for entry in self.saved.log] == self.active
        assert [entry.command for entry in self.saved.undone] == self.redoable
        assert state_to_json(self.saved.state) == state_to_json(
            replay(self.saved.game, self.active)
        )

    def teardown(self):
        self.store.close()


def test_undo_redo_and_restarts_follow_the_model(url):
    UndoRedoMachine.url = url
    UndoRedoMachine.TestCase.settings = settings(
        max_examples=6, stateful_step_count=20, deadline=None
    )
    UndoRedoMachine.TestCase().runTest()
