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


VALUE = re.compile(r'^  (?:"([^"]+)"|([A-Za-z_][\w]*)): "((?:[^"\\]|\\.)*)",?$', re.M)


def strings(lang: str) -> dict[str, str]:
    """Every string of ``lang`` over all merged files, by key (one-line values)."""
    out: dict[str, str] = {}
    base = (STATIC / f"i18n-base-{lang}.js").read_text(encoding="utf-8")
    bodies = [blocks(base)[lang]]
    learn = (STATIC / f"learn-{lang}.js").read_text(encoding="utf-8")
    match = re.search(r"^export default \{\n(.*?)^\};", learn, re.M | re.S)
    assert match is not None
    bodies.append(match.group(1))
    for name in re.findall(r'"\./(i18n-[\w-]+\.js)"', (STATIC / "i18n.js").read_text(encoding="utf-8")):
        if name.startswith("i18n-base-") or name == "i18n-learn.js":
            continue
        bodies.append(blocks((STATIC / name).read_text(encoding="utf-8"))[lang])
    for body in bodies:
        for a, b, value in VALUE.findall(body):
            out[a or b] = value
    return out


def test_the_string_reader_reads_most_strings() -> None:
    for lang in LANGS:
        assert len(strings(lang)) > 0.9 * sum(len(k) for _, k in sources()[lang]), lang


@pytest.mark.parametrize("lang", LANGS)
def test_cards_in_text_use_the_ranks_the_cards_show(lang: str) -> None:
    """A card named in prose (7♠ бьёт Т♥) uses the rank letters the cards on the table
    show in that language (Russian Т К Д В; the others A K Q J)."""
    found = strings(lang)
    base = (STATIC / f"i18n-base-{lang}.js").read_text(encoding="utf-8")
    ranks = {re.search(rf'rank_{code}: "(.)"', base).group(1) for code in "AKQJ"}  # type: ignore[union-attr]
    other = set("AKQJТКДВ") - ranks
    wrong = {
        key: value
        for key, value in found.items()
        if re.search(rf"(?<![\w])[{''.join(sorted(other))}](?=[♠♣♦♥])", value)
    }
    assert wrong == {}, f"{lang}: cards written with another language's ranks"


def test_armenian_has_one_word_for_a_trick() -> None:
    """վերցում (a taking), as the Learn page says; never կաշառք ("bribe", a calque of
    the Russian взятка) — docs/rules-decisions.md L8."""
    found = {k: v for k, v in strings("hy").items() if "կաշառք" in v}
    assert found == {}
    assert sum("վերցում" in v for v in strings("hy").values()) >= 10


@pytest.mark.parametrize("lang", ["hy", "ru"])
def test_armenian_and_russian_write_the_games_words_in_their_letters(lang: str) -> None:
    latin = re.compile(r"(?<![\w/])(paston|glitch|dineri|gupa|grkha|prikup|whist)(?![\w/])", re.I)
    command = re.compile(r"paston-sheet/1|paston (?:verify|play|sheet \w+)")  # commands and formats as typed
    bare = {k: re.sub(r"\{\w+\}", "", command.sub("", v)) for k, v in strings(lang).items()}
    found = {k: v for k, v in bare.items() if latin.search(v)}
    assert found == {}
    words = (STATIC / "i18n.js").read_text(encoding="utf-8")
    block = re.search(rf"^  {lang}: Object\.freeze\(\{{\n(.*?)^  \}}\)", words, re.M | re.S)
    assert block is not None
    values = re.findall(r': "([^"]*)"', block.group(1))
    assert len(values) == 8 and not any(re.search("[A-Za-z]", v) for v in values), values
