"""The web client's translations, read from Python: one source for the browser and the
terminal. The strings live in ``paston/server/static/i18n-base-<lang>.js`` (the common
ones) and the feature files that ``i18n.js`` merges (``i18n-<feature>.js``), as object
literals of ``key: "text"`` pairs; this module reads those literals (strictly: a string
it cannot read is an error, not a gap) and fills templates as ``i18n.js``'s ``format``
does, with each language's plural rules.

>>> words("ru")["dealN"]
'Раздача {n}'
>>> format("{n, plural, one {# trick} other {# tricks}}", {"n": 1})
'1 trick'
>>> format("{n, plural, one {# взятка} few {# взятки} many {# взяток} other {# взятки}}", {"n": 5}, "ru")
'5 взяток'
>>> plural_category(21, "ru"), plural_category(0, "hy"), plural_category(3, "ja")
('one', 'one', 'other')
>>> game_words("hy")["hearts"]
'գուպա'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Final

__all__ = ["LANGUAGES", "format", "game_words", "plural_category", "words"]

STATIC: Final = Path(__file__).resolve().parent / "server" / "static"
#: The languages of the client, each named in its own words.
LANGUAGES: Final[Mapping[str, str]] = MappingProxyType(
    {"en": "English", "hy": "Հայերեն", "ru": "Русский", "es": "Español", "ja": "日本語"}
)

_BLOCK = re.compile(r"^export const (\w+) = (?:Object\.freeze\()?\{\n(.*?)^\}\)?;", re.M | re.S)
_PAIR = re.compile(r'\s*(?:"([^"]+)"|([A-Za-z_$][\w$]*))\s*:\s*("(?:[^"\\\n]|\\.)*")\s*,?')
_COMMENT = re.compile(r"\s*//[^\n]*")
_FEATURE = re.compile(r'^import \* as \w+ from "\./(i18n-[\w-]+\.js)";', re.M)


def _pairs(body: str, where: str) -> dict[str, str]:
    """The ``key: "text"`` pairs of an object literal's body, in order."""
    out: dict[str, str] = {}
    at = 0
    while at < len(body):
        comment = _COMMENT.match(body, at)
        if comment is not None and comment.end() > at:
            at = comment.end()
            continue
        if body[at:].strip() == "":
            break
        pair = _PAIR.match(body, at)
        if pair is None:
            line = body.count("\n", 0, at) + 1
            raise ValueError(
                f"{where}: cannot read the strings at line {line} of the object: {body[at : at + 60]!r}"
            )
        out[pair.group(1) or pair.group(2)] = json.loads(pair.group(3))
        at = pair.end()
    return out


def _blocks(path: Path) -> dict[str, dict[str, str]]:
    """Each ``export const <name> = { … };`` object of a file, by name."""
    text = path.read_text(encoding="utf-8")
    return {m.group(1): _pairs(m.group(2), path.name) for m in _BLOCK.finditer(text)}


@cache
def words(lang: str = "en") -> Mapping[str, str]:
    """Every string of the client in ``lang``: the common ones, then each feature's (in
    the order ``i18n.js`` merges them; the Learn page's own texts are not included)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no translation for {lang!r}; known: {', '.join(LANGUAGES)}")
    out = dict(_blocks(STATIC / f"i18n-base-{lang}.js")[lang])
    merge = (STATIC / "i18n.js").read_text(encoding="utf-8")
    for name in _FEATURE.findall(merge):
        found = _blocks(STATIC / name)
        if lang in found:
            out.update(found[lang])
    return MappingProxyType(out)


@cache
def game_words(lang: str = "en") -> Mapping[str, str]:
    """The game's own words (the ladder, prikup, whist, the brand) in ``lang``'s script
    (``GAME_WORDS`` of ``i18n.js``)."""
    merge = (STATIC / "i18n.js").read_text(encoding="utf-8")
    latin = re.search(r"^const LATIN = Object\.freeze\(\{\n(.*?)^\}\);", merge, re.M | re.S)
    assert latin is not None, "i18n.js: no LATIN words"
    if lang in ("en", "es", "ja"):
        return MappingProxyType(_pairs(latin.group(1), "i18n.js"))
    own = re.search(rf"^  {lang}: Object\.freeze\(\{{\n(.*?)^  \}}\),", merge, re.M | re.S)
    if own is None:
        raise ValueError(f"i18n.js: no game words for {lang!r}")
    return MappingProxyType(_pairs(own.group(1), "i18n.js"))


def plural_category(n: int, lang: str) -> str:
    """The CLDR plural category of a whole number in ``lang`` (what ``Intl.PluralRules``
    gives the browser)."""
    n = abs(n)
    if lang == "ja":
        return "other"
    if lang == "hy":
        return "one" if n in (0, 1) else "other"
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "es" and n != 0 and n % 1_000_000 == 0:
        return "many"
    return "one" if n == 1 else "other"


_PLURAL = re.compile(r"\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}")
_PLURAL_FORM = re.compile(r"(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def format(template: str, params: Mapping[str, object] | None = None, lang: str = "en") -> str:
    """Fill ``{placeholders}`` from ``params`` and choose plural forms
    (``{n, plural, one {# trick} other {# tricks}}``; ``=0`` matches an exact number,
    ``#`` stands for it), as the browser's ``format`` does."""
    values = params or {}

    def plural(m: re.Match[str]) -> str:
        key = m.group(1)
        if key not in values:
            return m.group(0)
        value = values[key]
        try:
            n = int(float(value))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            n = 0
        forms: dict[str, str] = dict(_PLURAL_FORM.findall(m.group(2)))
        form = forms.get(f"={n}", forms.get(plural_category(n, lang), forms.get("other", "")))
        return form.replace("#", str(value))

    chosen = _PLURAL.sub(plural, template)
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), chosen)
