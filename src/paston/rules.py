"""Rule sets: the Spanish text's defaults and every variant switch of RULES.md.

>>> Rules().target, Rules().lone_defender
(121, 'graded')
>>> Rules.preset("flat").lone_defender
'flat'
>>> Rules.from_dict({"target": 61}).to_dict()["target"]
61
>>> Rules.parse("target=61,surrender_bonus=0").surrender_bonus
0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from types import MappingProxyType
from typing import Any, Literal

from paston.errors import RulesError, json_kind, json_text

LoneDefender = Literal["graded", "flat"]
AllPassDeclarer = Literal["spade-jack", "first-bidder"]
SecondDealer = Literal["first-bidder", "rotate"]

_CHOICES: dict[str, tuple[object, ...]] = {
    "lone_defender": ("graded", "flat"),
    "surrender_bonus": (2, 0),
    "all_pass_declarer": ("spade-jack", "first-bidder"),
    "second_dealer": ("first-bidder", "rotate"),
}

RULE_CHOICES: Mapping[str, tuple[object, ...]] = MappingProxyType(_CHOICES)
"""The allowed values of each variant switch (all but ``target``), the default first.

>>> RULE_CHOICES["surrender_bonus"]
(2, 0)
"""

TARGET_RANGE: tuple[int, int] = (1, 100_000)
"""The smallest and largest ``target`` a rule set may have (R8.3)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """The variant switches of RULES.md; the defaults are the Spanish text's.

    - ``lone_defender`` (R7.3): ``"graded"`` or ``"flat"``.
    - ``surrender_bonus`` (R7.7): 2 or 0.
    - ``all_pass_declarer`` (R3.4): ``"spade-jack"`` or ``"first-bidder"``.
    - ``second_dealer`` (R2.2): ``"first-bidder"`` or ``"rotate"``.
    - ``target`` (R8.3): the winning total, a positive integer (121); the reset
      of R8.2 is at exactly ``-target``.
    """

    lone_defender: LoneDefender = "graded"
    surrender_bonus: int = 2
    all_pass_declarer: AllPassDeclarer = "spade-jack"
    second_dealer: SecondDealer = "first-bidder"
    target: int = 121

    def __post_init__(self) -> None:
        for key, allowed in _CHOICES.items():
            value = getattr(self, key)
            if value not in allowed or type(value) is not type(allowed[0]):
                shown = ", ".join(json_text(a) for a in allowed)
                raise RulesError(f"rule {key} must be one of {shown}, not {json_text(value)}")
        low, high = TARGET_RANGE
        if type(self.target) is not int or not low <= self.target <= high:
            raise RulesError(
                f"rule target must be an integer from {low} to {high}, not {json_text(self.target)}"
            )

    def to_dict(self) -> dict[str, Any]:
        """The ``rules`` object of a record (all five keys)."""
        return {name: getattr(self, name) for name in _FIELDS}

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Read a record's ``rules`` object; absent keys take the defaults."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object, not {json_kind(data)}")
        unknown = sorted(set(data) - set(_FIELDS))
        if unknown:
            raise RulesError(f"unknown rule switch {unknown[0]!r}; known: {', '.join(_FIELDS)}")
        return cls(**data)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named rule set; see :data:`PRESETS`."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}") from None

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``preset`` or ``preset,key=value,…`` or ``key=value,…``.

        Values of ``target`` and ``surrender_bonus`` are integers.
        """
        base = cls()
        changes: dict[str, object] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if "=" not in part:
                base = cls.preset(part)
                continue
            key, _, raw = part.partition("=")
            key = key.strip().replace("-", "_")
            raw = raw.strip()
            if key not in _FIELDS:
                raise RulesError(f"unknown rule switch {key!r}; known: {', '.join(_FIELDS)}")
            if key in ("target", "surrender_bonus"):
                try:
                    changes[key] = int(raw)
                except ValueError:
                    raise RulesError(f"rule {key} must be an integer, not {raw!r}") from None
            else:
                changes[key] = raw
        return replace(base, **changes)  # type: ignore[arg-type]

    def describe(self) -> str:
        """One line for people: ``lone_defender=graded, surrender_bonus=2, …``."""
        return ", ".join(f"{k}={v}" for k, v in self.to_dict().items())


_FIELDS = tuple(f.name for f in fields(Rules))

PRESETS: dict[str, Rules] = {
    "spanish": Rules(),
    "flat": Rules(lone_defender="flat"),
    "no-surrender-bonus": Rules(surrender_bonus=0),
    "preference": Rules(second_dealer="rotate", all_pass_declarer="first-bidder"),
    "short": Rules(target=61),
}
"""Named rule sets: ``spanish`` (the defaults), ``flat`` (the other lone-defender
table), ``no-surrender-bonus``, ``preference`` (rotation and all-pass declarer as in
plain Preference), ``short`` (a game to 61)."""
