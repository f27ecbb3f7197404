"""The web client's modules import only what the modules they name export. A name that is
not exported stops the whole page from loading in the browser (``does not provide an
export named``), so it is checked here in a moment, before any browser test runs; found
when a module imported GAME from i18n.js after it had moved to text.js."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "src" / "paston" / "server" / "static"
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.-]+\.js)";', re.M)
EXPORT = re.compile(r"^export (?:async )?(?:const|let|function\*?|class) (\w+)", re.M)
EXPORT_LIST = re.compile(r"^export \{([^}]*)\}", re.M)


def exports(name: str) -> set[str]:
    text = (STATIC / name).read_text(encoding="utf-8")
    found = set(EXPORT.findall(text))
    for group in EXPORT_LIST.findall(text):
        found |= {part.split(" as ")[-1].strip() for part in group.split(",") if part.strip()}
    return found


MODULES = sorted(p.name for p in STATIC.glob("*.js"))


def test_the_reader_finds_the_modules_and_their_imports() -> None:
    assert len(MODULES) > 30
    assert {"GAME", "t"} <= exports("text.js")
    assert IMPORT.search((STATIC / "table.js").read_text(encoding="utf-8"))


@pytest.mark.parametrize("module", MODULES)
def test_every_named_import_is_exported_by_its_module(module: str) -> None:
    text = (STATIC / module).read_text(encoding="utf-8")
    missing = {}
    for names, source in IMPORT.findall(text):
        assert (STATIC / source).exists(), f"{module} imports {source}, which is not there"
        wanted = {n.split(" as ")[0].strip() for n in names.split(",") if n.strip()}
        if wanted - exports(source):
            missing[source] = sorted(wanted - exports(source))
    assert missing == {}, f"{module}: names its modules do not export"
