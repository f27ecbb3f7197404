"""Plural forms in the web app's strings (issue 23): ``format`` picks a form by the
language's plural rules (Intl.PluralRules), so Russian says 1 взятка, 3 взятки, 5 взяток
and English 1 trick, 2 tricks, where the strings once said "1 tricks" and "4 взяток"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from browser_helpers import LiveServer, Opener, browser, open_page, server

__all__ = ["browser", "open_page", "server"]  # the fixtures, imported for pytest

FORMAT = """async ([template, params, lang]) => {
  const i18n = await import('/static/i18n.js');
  return i18n.format(template, params, lang);
}"""
MESSAGE = """async ([key, params, lang]) => {
  const i18n = await import('/static/i18n.js');
  return i18n.format(i18n.MESSAGES[lang][key], params, lang);
}"""


@pytest.fixture()
def page(server: LiveServer, open_page: Opener) -> Page:
    p = open_page()
    p.goto(server.url + "/")
    return p


def test_format_takes_each_languages_plural_form(page: Page) -> None:
    ru = "{n, plural, one {# взятка} few {# взятки} other {# взяток}}"
    said = [page.evaluate(FORMAT, [ru, {"n": n}, "ru"]) for n in (1, 3, 5, 11, 21, 22)]
    assert said == ["1 взятка", "3 взятки", "5 взяток", "11 взяток", "21 взятка", "22 взятки"]
    en = "{n, plural, =0 {no trick} one {# trick} other {# tricks}} for {who}"
    said = [page.evaluate(FORMAT, [en, {"n": n, "who": "Ana"}, "en"]) for n in (0, 1, 2)]
    assert said == ["no trick for Ana", "1 trick for Ana", "2 tricks for Ana"]
    assert page.evaluate(FORMAT, [en, {}, "en"]) == en  # no n, no who: left as it is


def test_the_end_of_a_deal_counts_tricks_in_good_grammar(page: Page) -> None:
    params = {"name": "Ana", "contract": "6 gupa", "tricks": 1, "short": 5}
    assert page.evaluate(MESSAGE, ["endFailed", params, "en"]).startswith("Ana failed 6 gupa: 1 trick,")
    assert ": 1 взятка," in page.evaluate(MESSAGE, ["endFailed", params, "ru"])
    assert ": 4 взятки," in page.evaluate(MESSAGE, ["endFailed", {**params, "tricks": 4}, "ru"])
    assert ": 7 взяток из 6" in page.evaluate(MESSAGE, ["endMade", {**params, "tricks": 7}, "ru"])
    assert ": 1 baza," in page.evaluate(MESSAGE, ["endFailed", params, "es"])
