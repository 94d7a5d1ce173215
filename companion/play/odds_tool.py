"""The table's attack odds tool as data (the screens draw, the play layer decides):
any attacker against any defender, and a defending Sprite's support, with the engine's
chance (ruling 7). The table screen (companion/app/screens/table.py) draws its pickers."""

from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import format_percent

from companion.engine.constants import KIND_INDEX
from companion.engine.dice import attack_odds, rolls_defence
from companion.engine.names import kind_term
from companion.language import Message
from companion.language.render import Language
from models.rules import CREATURES, KIND_ORDER, CreatureKind


@dataclass(frozen=True, slots=True)
class Odds:
    """What the tool shows for one choice: the chance in words, and whether the defender
    can be supported (only a Sprite defends with a roll, and its owner's other Sprites)."""

    said: str
    support: bool


class OddsTool:
    """The pickers' choices and the chance of the attack they pick, in `words`' language."""

    # What the tool starts on.
    ATTACKER = CreatureKind.TROLL
    DEFENDER = CreatureKind.SPRITE

    def __init__(self, words: Language) -> None:
        self.words = words

    def kinds(self) -> tuple[tuple[str, str], ...]:
        """Each creature kind as (key, name), Wyrm first."""
        return tuple((kind.value, self.words.value(kind_term(kind), "nu")) for kind in KIND_ORDER)

    def supports(self) -> tuple[tuple[str, str], ...]:
        """How many other Sprites of its owner share the defender's territory: at most every
        other Sprite its owner has."""
        most = CREATURES[CreatureKind.SPRITE].owned - 1
        return tuple((str(n), self.words.number(n)) for n in range(most + 1))

    def odds(self, attacker: CreatureKind, defender: CreatureKind, support: int = 0) -> Odds:
        """The chance the attack succeeds, '7 in 12 · 58%'; support counts only for a Sprite."""
        supported = rolls_defence(KIND_INDEX[defender])
        odds = attack_odds(attacker, defender, support if supported else 0)
        said = Message(
            "game.tools.odds",
            chances=odds.numerator,
            outof=odds.denominator,
            percent=format_percent(float(odds), locale=self.words.locale),
        )
        return Odds(self.words.render(said), supported)
