"""The terminal game's words in one language, from the web client's translations
(:mod:`paston.translations`): the same keys, the same card ranks (Т К Д В in Russian),
the game's words in the language's script.

>>> ru = Words("ru")
>>> ru.card(Card.parse("AH")), ru.contract(Contract.HEARTS)
('Т♥', 'гупа (♥)')
>>> ru("term_dealsTo", n=3, target=121)
'3 раздачи · до 121'
>>> Words("en").action(Action.parse("bid clubs"), Phase.AUCTION)
'Bid glitch (♣)'
>>> Words.for_locale("hy_AM.UTF-8").lang, Words.for_locale(None).lang, Words.for_locale("de_DE").lang
('hy', 'en', 'en')
"""

from __future__ import annotations

from collections.abc import Iterable

from paston.actions import Action, Kind
from paston.cards import RANK_LETTERS, Card
from paston.contracts import Contract
from paston.phases import Phase
from paston.translations import LANGUAGES, format, game_words, words

__all__ = ["Words"]


class Words:
    """``words(key, **params)`` is the string ``key`` filled in; English fills any gap."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no translation for {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.strings = words(lang)
        self.english = words("en")
        self.game = game_words(lang)

    @classmethod
    def for_locale(cls, locale: str | None) -> Words:
        """The language of a locale name (``LANG``: ``ru_RU.UTF-8``), English if not one of ours."""
        code = (locale or "").split(".")[0].split("_")[0].lower()
        return cls(code if code in LANGUAGES else "en")

    def __call__(self, key: str, **params: object) -> str:
        template = self.strings.get(key, self.english.get(key))
        if template is None:
            raise KeyError(f"no string {key!r}")
        return format(
            template, {"whist": self.game["whist"], "prikup": self.game["prikup"], **params}, self.lang
        )

    def card(self, card: Card) -> str:
        """A card as this language writes it: rank letter and suit symbol."""
        return self(f"rank_{RANK_LETTERS[card.rank]}") + "♠♣♦♥"[card.suit]

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def contract(self, contract: Contract) -> str:
        """``gupa (♥)`` in the language's script."""
        return f"{self.game[contract.name_in_record]} ({contract.symbol})"

    def action(self, action: Action, phase: Phase) -> str:
        """An action on a button: ``Bid glitch (♣)``, ``Pass``, ``Whist``, ``A♥``."""
        kind = action.kind
        if kind is Kind.BID:
            assert action.contract is not None
            return self("bidWord", contract=self.contract(action.contract))
        if kind is Kind.TRUMP:
            assert action.contract is not None
            return self("trumpWord", contract=self.contract(action.contract))
        if kind is Kind.PASS:
            return self("passDefence" if phase is Phase.DEFENCE else "pass")
        if kind is Kind.WHIST:
            word = self.game["whist"]
            return word[:1].upper() + word[1:]
        if kind is Kind.SURRENDER:
            return self("surrender")
        if kind is Kind.DISCARD:
            return self("hintDiscard", cards=self.cards(action.cards))
        return self.card(action.cards[0])

    def said(self, name: str, action: Action, phase: Phase = Phase.AUCTION) -> str:
        """A line of the log: ``Ana bids gupa (♥)`` (``phase``: where it was said)."""
        kind = action.kind
        if kind is Kind.BID:
            assert action.contract is not None
            return self("log_bid", name=name, contract=self.contract(action.contract))
        if kind is Kind.TRUMP:
            assert action.contract is not None
            return self("log_trump", name=name, contract=self.contract(action.contract))
        if kind is Kind.DISCARD:
            return self("takesPrikup", name=name)
        if kind is Kind.SURRENDER:
            return self("log_surrender", name=name)
        if kind is Kind.WHIST:
            return self("log_whist", name=name)
        if kind is Kind.PLAY:
            return self("log_play", name=name, card=self.card(action.cards[0]))
        return self("log_passDefence" if phase is Phase.DEFENCE else "log_pass", name=name)
