"""R7's lines in words: the engine's English words (``paston.scoring.LINE_WORDS``, the
outcomes of ``paston.result``) are the browser's English strings, and every language
the browser speaks has each of them with the same placeholders (static/i18n-score.js)."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from paston.contracts import Contract
from paston.result import Outcome
from paston.rules import Rules
from paston.scoring import LINE_WORDS, declarer_line, defender_line, surrender_lines, uncontested_lines

SCORE_JS = Path(__file__).resolve().parent.parent / "src" / "paston" / "server" / "static" / "i18n-score.js"
LANGUAGES = ("en", "hy", "ru", "es", "ja")


def strings(lang: str) -> dict[str, str]:
    """One language's strings of i18n-score.js (its objects hold only "key": "text" lines)."""
    source = SCORE_JS.read_text(encoding="utf-8")
    block = re.search(rf"export const {lang} = \{{(.*?)\n\}};", source, re.S)
    assert block, f"no {lang} strings in {SCORE_JS.name}"
    pairs = re.findall(r'^\s*("(?:[^"\\]|\\.)*")\s*:\s*("(?:[^"\\]|\\.)*"),$', block.group(1), re.M)
    found = {json.loads(k): json.loads(v) for k, v in pairs}
    assert len(found) == block.group(1).count("\n"), f"a line of {lang} is not a plain string"
    return found


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_r7_the_browsers_english_lines_are_the_engines_words() -> None:
    en = strings("en")
    lines = {k.removeprefix("scoreLine_"): v for k, v in en.items() if k.startswith("scoreLine_")}
    assert lines == dict(LINE_WORDS)
    outcomes = {k.removeprefix("outcomeWords_"): v for k, v in en.items() if k.startswith("outcomeWords_")}
    assert outcomes == {str(o): o.text for o in Outcome}
    assert set(en) == {f"scoreLine_{k}" for k in LINE_WORDS} | {f"outcomeWords_{o}" for o in Outcome}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_r7_every_language_has_every_line_with_its_numbers(lang: str) -> None:
    en, other = strings("en"), strings(lang)
    assert set(other) == set(en)
    for key, text in en.items():
        assert placeholders(other[key]) == placeholders(text), (lang, key)
        assert other[key] != text, (lang, key)  # translated
        words = re.sub(r"\{\w+\}", "", other[key])  # the placeholders are English
        assert not re.search(r"\b(tricks|declarer|defender|needed|surrendered)\b", words), (lang, key)


def test_r7_every_line_the_engine_makes_has_words_it_can_fill_in() -> None:
    made = [
        *(declarer_line(c, t) for c in Contract for t in (None, *range(11))),
        *(
            defender_line(c, t, lone=lone, rules=Rules(lone_defender=table))
            for c in Contract
            for t in range(11)
            for lone in (True, False)
            for table in ("graded", "flat")
        ),
        *(line for c in Contract for d in range(3) for line in uncontested_lines(c, declarer=d)),
        *(line for d in range(3) for line in surrender_lines(declarer=d)),
    ]
    used = {line.words for line in made}
    assert used | {"passer"} == set(LINE_WORDS)
    for line in made:
        assert set(line.params) == placeholders(LINE_WORDS[line.words]), line
        assert line.text == LINE_WORDS[line.words].format(**line.params)
