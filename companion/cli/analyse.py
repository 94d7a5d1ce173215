"""`python -m companion analyse GAME_ID|FILE`: a game's chances round by round and its story.

The game is a saved game's id or a game log file (`-` for standard input), read with the
strict JSON reader. Bad input exits with status 2 and one line naming what is wrong.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any

import typer

from companion.cli.game_store import Db, opened
from companion.cli.io import echo, fail, print_json
from companion.cli.language import Lang
from companion.cli.logs import replayed_log
from companion.coach import CoachError, Review, review
from companion.coach.chances import DEFAULT_BUDGET
from companion.coach.review import (
    DIGITAL_BUDGET,
    Mark,
    Moment,
    chances_message,
    decisions_message,
    percent,
)
from companion.engine import Game
from companion.language import Message
from companion.language.render import DEFAULT_LANGUAGE, language, render
from models.commands import Command

# A saved game's id: what `game new` prints (docs/store.md).
GAME_ID = re.compile(r"^[0-9a-f]{12}$")
MAX_BUDGET = 10_000
MARK_WORDS = {
    Mark.INACCURACY: Message("coach.mark.inaccuracy"),
    Mark.MISTAKE: Message("coach.mark.mistake"),
    Mark.BLUNDER: Message("coach.mark.blunder"),
}


def analyse(
    source: Annotated[
        str,
        typer.Argument(
            metavar="GAME_ID|FILE", help="A saved game's id, or a game log file (- for stdin)."
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    budget: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=MAX_BUDGET,
            help=f"The most playouts per position (default {DEFAULT_BUDGET} for a table game's "
            f"rounds, {DIGITAL_BUDGET} for a digital game's records).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="The playouts' seed.")] = 0,
    db: Db = None,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Each player's chance to win, round by round, and the game's turning points."""
    game, records, numbers = _load(source, db, lang)
    try:
        told = review(game, records, budget, seed, numbers)
    except CoachError as error:
        fail(render(error.message, lang))
    if as_json:
        print_json(review_json(told, lang))
    else:
        for line in review_lines(told, lang):
            echo(line)


def _load(source: str, db: str | None, lang: str) -> tuple[Game, list[Command], list[int]]:
    """The game, its records and their numbers as `game show` prints them, from a log file
    or the store; fails in one line."""
    if source == "-" or os.path.exists(source) or not GAME_ID.match(source):
        game, records, _ = replayed_log(source, lang)
        return game, records, list(range(1, len(records) + 1))
    with opened(db, lang) as store:
        saved = store.load(source)
    return saved.game, [entry.command for entry in saved.log], [entry.seq for entry in saved.log]


def _moment_heading(told: Review, moment: Moment, starts: set[int]) -> Message:
    """'Round 3' (its start), 'Now' or 'End' for a line of the chances round by round."""
    if moment is told.moments[-1] and moment.chances.over:
        return Message("coach.at_end")
    if moment.index not in starts:
        return Message("coach.now", round=moment.round)
    return Message("coach.at_round", round=moment.round)


def review_lines(told: Review, lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """The review as readable lines, in a language."""
    say = language(lang).render
    labels = told.labels
    lines = [say(Message("coach.heading_rounds"))]
    rounds = told.by_round()
    starts = {moment.index for moment in told.round_starts()}
    for moment in rounds:
        lines.append(
            say(
                Message(
                    "coach.round_line",
                    when=_moment_heading(told, moment, starts),
                    chances=chances_message(moment.chances, labels),
                )
            )
        )
    if told.result is not None:
        lines.append(say(Message("coach.result_line", result=told.result)))
    lines.append("")
    lines.append(say(Message("coach.heading_turning")))
    if not told.turning_points:
        lines.append(say(Message("coach.no_turning_point")))
    for point in told.turning_points:
        lines.append(say(Message("coach.item", text=point.message(labels))))
    marked = told.marked()
    if told.digital:
        lines.append("")
        lines.append(say(Message("coach.heading_marks")))
        if not marked:
            lines.append(say(Message("coach.no_marks")))
        for moment in marked:
            lines.append(say(Message("coach.item", text=mark_message(moment, labels))))
        for player in told.people:
            lines.append(say(Message("coach.item", text=decisions_message(told, player))))
    return lines


def mark_message(moment: Moment, labels: dict[str, str]) -> Message:
    """'Round 2, record 37: Bob summons a Troll onto ...: a mistake (Bob -12%)'."""
    assert moment.mark is not None and moment.cost is not None and moment.player is not None
    assert moment.sentence is not None, "a marked moment has its record's sentence"
    return Message(
        "coach.mark_line",
        round=moment.played_in,
        index=moment.number,
        sentence=moment.sentence,
        mark=MARK_WORDS[moment.mark],
        player=labels[moment.player],
        cost=percent(moment.cost),
    )


def review_json(told: Review, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The review as JSON data, its sentences in a language."""
    say = language(lang).render
    labels = told.labels
    return {
        "mode": "digital" if told.digital else "table",
        "players": labels,
        "result": None if told.result is None else say(told.result),
        "rounds": [
            {"round": moment.round, "index": moment.index, **moment.chances.to_json()}
            for moment in told.by_round()
        ],
        "moments": [
            {
                "index": moment.index,
                "round": moment.round,
                **moment.chances.to_json(),
                "record": None if moment.sentence is None else say(moment.sentence),
                "number": moment.number or None,
                "played_in": moment.played_in or None,
                "player": moment.player,
                "decision": moment.choice,
                "cost": None if moment.cost is None else round(moment.cost * 100, 1),
                "mark": None if moment.mark is None else moment.mark.value,
            }
            for moment in told.moments
        ],
        "turning_points": [
            {
                "index": told.moments[point.moment].index,
                "number": told.moments[point.moment].number,
                "round": point.round,
                "player": point.player,
                "before": round(point.before * 100, 1),
                "after": round(point.after * 100, 1),
                "text": say(point.message(labels)),
            }
            for point in told.turning_points
        ],
    }
