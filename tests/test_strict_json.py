"""The JSON every reader of user input goes through: strict, bounded, one sentence per problem."""

import io
import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.strict_json import (
    MAX_DEPTH,
    MAX_INPUT_BYTES,
    JSONInputError,
    loads,
    nesting_depth,
    read_bounded,
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"type": "summon", "type": "pass"}', "the key 'type' appears twice in one object"),
        ("[" * 1000 + "]" * 1000, "nested 1000 levels deep; at most 32 are read"),
        ("1" * 4301, "a number of 4301 characters"),
        ('{"version": 1' + "0" * 40 + "}", "a number of 41 characters"),
        ("1e400", "the number 1e400 is too large"),
        ("-1e400", "the number -1e400 is too large"),
        ("NaN", "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ('{"a": 1', "malformed JSON in x: Expecting ',' delimiter at line 1 column 8"),
    ],
)
def test_what_is_refused_is_named_in_one_line(text, message):
    with pytest.raises(JSONInputError) as refused:
        loads(text, "x")
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = '{"reason": "[[[[' + "[" * 100 + '\\"{{{{"}'
    assert nesting_depth(text) == 1
    assert loads(text, "x")["reason"].startswith("[[[[")


def test_the_deepest_allowed_nesting_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert nesting_depth(text) == MAX_DEPTH
    loads(text, "x")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=20))
def test_depth_is_counted_as_the_parser_nests(value):
    def depth(item: object) -> int:
        return 1 + max(map(depth, item), default=0) if isinstance(item, list) else 0

    assert nesting_depth(json.dumps(value)) == depth(value)


def test_reading_stops_at_the_limit():
    endless = io.BytesIO(b" " * (MAX_INPUT_BYTES + 10))
    with pytest.raises(JSONInputError, match="stdin is larger than 4 MiB"):
        read_bounded(endless, "stdin")
    assert endless.tell() == MAX_INPUT_BYTES + 1


def test_bytes_that_are_not_utf8_are_named():
    with pytest.raises(JSONInputError, match=r"f\.json is not UTF-8 text \(byte 2\)"):
        read_bounded(io.BytesIO(b'{"\xff'), "f.json")


# --- linear in its input ------------------------------------------------------------------------

# Runs of escapes that made the reader quadratic (80 kB of `\"` took 23 s): each about 2 MB,
# valid or cut short, behind an opening quote or none. A quadratic reader takes hours on them.
SIZE = 2 * 1024 * 1024


def runs(unit: str, before: str = "", after: str = "") -> str:
    """`unit` repeated to about 2 MB, between `before` and `after`."""
    return before + unit * (SIZE // len(unit)) + after


ADVERSARIAL = {
    "an unclosed string of escaped quotes": runs('\\"', '{"a": "'),
    "a closed string of escaped quotes": runs('\\"', '{"a": "', '"}'),
    "escaped quotes without an opening quote": runs('\\"'),
    "quotes and backslashes": runs('"\\\\"\\"'),
    "a backslash before every quote, unclosed": runs('\\\\\\"', '["'),
    "many unclosed strings in a list": runs('"\\", ', "["),
    "unicode escapes cut short": runs('"\\u00'),
    "brackets inside escaped quotes": runs('"\\"[{'),
}
# What the test measures, in a process of its own so a quadratic reader is stopped, not waited
# for: a plain json.loads over a valid document of the same size, then the strict reader.
MEASURE = """
import json, sys, time
from models.strict_json import JSONInputError, loads

text = sys.stdin.read()
plain = json.dumps(["\\\\" * (len(text) // 2)])
started = time.perf_counter()
json.loads(plain)
baseline = time.perf_counter() - started
started = time.perf_counter()
try:
    loads(text, "x")
except JSONInputError:
    pass
print(baseline, time.perf_counter() - started)
"""


@pytest.mark.parametrize("case", list(ADVERSARIAL))
def test_the_reader_is_linear_on_runs_of_escapes(case):
    text = ADVERSARIAL[case]
    assert len(text) >= SIZE - 8
    try:
        measured = subprocess.run(
            [sys.executable, "-c", MEASURE],
            input=text,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{case}: still reading after 60 s")
    baseline, strict = map(float, measured.stdout.split())
    # Generous: a few passes over the text, each as quick as json's own; quadratic is hours.
    assert strict < 50 * baseline + 1.0, (case, baseline, strict)
