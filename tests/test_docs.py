"""The README stays a five-minute read, its links and the documentation's hold, the
documentation's examples are tested, and the Sphinx site builds without a warning."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_LINES = 200
# [text](target), ![alt](target), with an optional "title"
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$", flags=re.M)
LABEL = re.compile(r"^\(([\w-]+)\)=\s*$", flags=re.M)


def markdown_files() -> list[Path]:
    """README.md and every page under docs/ (not the build, nor docs/seeds' source texts)."""
    pages = [p for p in DOCS.rglob("*.md") if not {"_build", "seeds"} & set(p.relative_to(DOCS).parts)]
    return [README, *sorted(pages)]


def prose(text: str) -> str:
    """The text without its fenced blocks and inline code (which hold no links)."""
    text = re.sub(r"^(```|~~~).*?^\1[ \t]*$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(title: str) -> str:
    """A heading's anchor, as GitHub and MyST (``myst_heading_anchors``) make it."""
    title = re.sub(r"[`*_]", "", title).strip().lower()
    return re.sub(r"[^\w\- ]", "", title).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```[ \t]*$", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(m.group(2)) for m in HEADING.finditer(text)} | set(LABEL.findall(text))


def relative_links(path: Path) -> list[str]:
    out = []
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        out.append(target)
    return out


def test_readme_is_a_five_minute_read() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines (at most {README_MAX_LINES})"


def test_every_relative_link_points_at_a_file_that_exists() -> None:
    broken = []
    checked = 0
    for path in markdown_files():
        for target in relative_links(path):
            file_part, _, fragment = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            checked += 1
            where = f"{path.relative_to(ROOT)}: {target}"
            if not dest.exists():
                broken.append(f"{where} (no such file)")
            elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                broken.append(f"{where} (no heading #{fragment} in {dest.relative_to(ROOT)})")
    assert checked > 50, "the links were not found"
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_link_check_finds_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# There\n\n## A section\n", encoding="utf-8")
    page.write_text(
        "[ok](there.md) [ok](there.md#a-section) `[code](nowhere.md)`\n"
        "[gone](nowhere.md) [web](https://example.org/x)\n\n```sh\n[x](y.md)\n```\n",
        encoding="utf-8",
    )
    assert relative_links(page) == ["there.md", "there.md#a-section", "nowhere.md"]
    assert "a-section" in anchors(tmp_path / "there.md")


def test_every_guide_and_reference_page_is_in_the_site() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for path in markdown_files()[1:]:
        name = path.relative_to(DOCS).with_suffix("").as_posix()
        if name == "index" or name.startswith("api/"):
            continue
        assert re.search(rf"^{re.escape(name)}$", index, flags=re.M), f"{name} is not in docs/index.md"


def test_the_markdown_examples_are_collected_as_doctests() -> None:
    """pytest runs the ``>>>`` examples of README.md and of every page under docs/."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    ini = options["ini_options"]
    assert {"README.md", "docs"} <= set(ini["testpaths"])
    assert "--doctest-glob=*.md" in ini["addopts"].split()
    with_examples = [p for p in markdown_files() if re.search(r"^\s*>>> ", p.read_text("utf-8"), re.M)]
    names = {p.relative_to(ROOT).as_posix() for p in with_examples}
    assert {"docs/guide/python-api.md", "docs/guide/solver.md", "docs/guide/research.md"} <= names


def test_the_documentation_builds_without_a_warning(tmp_path: Path) -> None:
    try:
        import furo  # noqa: F401
        import myst_parser  # noqa: F401
        import sphinx  # noqa: F401
    except ImportError as err:
        pytest.fail(f"building the documentation needs the docs extra ({err}): run `bash scripts/test`")
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
    command += ["-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "html")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    assert (tmp_path / "html" / "index.html").exists()
    api = (tmp_path / "html" / "api" / "paston.html").read_text(encoding="utf-8")
    assert api.count('id="paston.Deal') > 5, "autodoc documented no Deal"
