"""Sphinx configuration of Paston's documentation (MyST Markdown, the furo theme).

Build it with ``.venv/bin/sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # the checkout's package, installed or not

project = "Paston"
author = "The Paston authors"
copyright = "Paston authors, MIT licence"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# docs/seeds holds the source texts the rules were written from (not pages)
exclude_patterns = ["_build", "seeds", "Thumbs.db", ".DS_Store"]

# `#section` links between pages resolve to the headings' anchors (## and ###)
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}

html_theme = "furo"
html_title = "Paston"
html_static_path: list[str] = []
