"""The web app's strings: in each language every key is defined exactly once over all
the files merged into ``MESSAGES`` (``static/i18n.js``: the common strings, each
feature's, the Learn page's), and every language has exactly the keys of English. A key
defined twice is silently overwritten by the later file (the replay's Next-deal button
read "After each deal" in all five languages: ``nextDeal`` was the lobby's setting too)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "paston" / "server" / "static"
LANGS = ("en", "hy", "ru", "es", "ja")
KEY = re.compile(r'^  (?:"([^"]+)"|([A-Za-z_][\w]*)):', re.M)


def blocks(text: str) -> dict[str, str]:
    """Each ``export const <lang> = { … };`` block of a file, by language."""
    out = {}
    for m in re.finditer(r"^export const (\w+) = \{\n(.*?)^\};", text, re.M | re.S):
        out[m.group(1)] = m.group(2)
    return out


def keys(body: str) -> list[str]:
    """The top-level keys of an object literal's body (two spaces in)."""
    return [a or b for a, b in KEY.findall(body)]


def sources() -> dict[str, list[tuple[str, list[str]]]]:
    """Per language, each merged file with its keys, in the order i18n.js merges them."""
    per: dict[str, list[tuple[str, list[str]]]] = {lang: [] for lang in LANGS}
    for lang in LANGS:
        base = (STATIC / f"i18n-base-{lang}.js").read_text(encoding="utf-8")
        per[lang].append((f"i18n-base-{lang}.js", keys(blocks(base)[lang])))
    merge = (STATIC / "i18n.js").read_text(encoding="utf-8")
    features = re.findall(r'^import \* as \w+ from "\./(i18n-[\w-]+\.js)";', merge, re.M)
    assert features, "i18n.js imports no feature files"
    for name in features:
        text = (STATIC / name).read_text(encoding="utf-8")
        if name == "i18n-learn.js":
            for lang in LANGS:
                learn = (STATIC / f"learn-{lang}.js").read_text(encoding="utf-8")
                body = re.search(r"^export default \{\n(.*?)^\};", learn, re.M | re.S)
                assert body is not None, f"learn-{lang}.js: no default object"
                per[lang].append((f"learn-{lang}.js", keys(body.group(1))))
            continue
        found = blocks(text)
        for lang in LANGS:
            assert lang in found, f"{name}: no strings for {lang}"
            per[lang].append((name, keys(found[lang])))
    return per


def test_the_parser_reads_the_files() -> None:
    per = sources()
    assert all(len(per[lang]) >= 10 for lang in LANGS)
    assert sum(len(k) for _, k in per["en"]) > 300  # the whole vocabulary, not a few lines


@pytest.mark.parametrize("lang", LANGS)
def test_each_key_is_defined_once_in_each_language(lang: str) -> None:
    where: dict[str, list[str]] = {}
    for name, found in sources()[lang]:
        for key in found:
            where.setdefault(key, []).append(name)
    twice = {k: files for k, files in where.items() if len(files) > 1}
    assert twice == {}, f"{lang}: keys defined more than once (the later file wins): {twice}"


@pytest.mark.parametrize("lang", LANGS[1:])
def test_every_language_has_exactly_the_keys_of_english(lang: str) -> None:
    per = sources()
    english = Counter(k for _, found in per["en"] for k in found)
    theirs = Counter(k for _, found in per[lang] for k in found)
    assert sorted(english - theirs) == [], f"{lang}: missing"
    assert sorted(theirs - english) == [], f"{lang}: not in English"
