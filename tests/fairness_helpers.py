"""The verifier listing of docs/FAIRNESS.md ('A verifier in a page'), as the fairness
tests run it: ``doc_verifier`` writes the doc's Python block to a file, and
``run_doc_verifier`` runs it on a game record with this Python in isolated mode, so a
record from the reader or from a server is checked by the doc's own code."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "FAIRNESS.md"


def doc_verifier(tmp_path: Path) -> Path:
    """The Python block of docs/FAIRNESS.md's 'A verifier in a page', as a file."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## A verifier in a page") :]
    found = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert found is not None
    path = tmp_path / "verify_paston.py"
    path.write_text(found.group(1), encoding="utf-8")
    return path


def run_doc_verifier(tmp_path: Path, record: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    data = tmp_path / "game.json"
    data.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-I", str(doc_verifier(tmp_path)), str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
