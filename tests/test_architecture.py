"""The shape of the package: no import cycles, the engine below everything else, the
server's rooms each below the next, no two modules of one name, cohesive modules, tests
that share code through helper modules only.

Imports are read from the source: every ``import`` and ``from … import``, at any depth,
those under ``if TYPE_CHECKING:`` included (a cycle of types is a cycle of knowledge,
even if it never runs).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "paston"
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    _module_name(p): p
    for p in sorted(PACKAGE.rglob("*.py"))
    if "migrations" not in p.relative_to(PACKAGE).parts
}


def _imported(path: Path, name: str) -> set[str]:
    """The package modules that the module at ``path`` imports when it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    is_package = path.name == "__init__.py"

    def resolve(target: str) -> str | None:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        return target or None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("paston"):
                    target = resolve(alias.name)
                    if target:
                        found.add(target)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("paston"):
                for alias in node.names:
                    target = resolve(f"{base}.{alias.name}")
                    if target:
                        found.add(target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    found.discard(name)
    return found


GRAPH = {name: _imported(path, name) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def _package_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph without the edges from a package's ``__init__`` to its own submodules
    (re-exports): importing ``paston.x`` runs ``paston/__init__`` first, which is Python's
    package rule, not a dependency of ``paston.x`` on the package."""
    return {
        name: {t for t in targets if not (t.startswith(name + ".") and MODULES[name].name == "__init__.py")}
        for name, targets in graph.items()
    }


def test_the_import_walk_sees_the_package() -> None:
    assert "paston.deal" in GRAPH and "paston.server.web.app" in GRAPH
    assert "paston.actions" in GRAPH["paston.deal"]
    assert "paston.views" in GRAPH["paston.deal"]
    # an import under TYPE_CHECKING is an edge too
    guarded = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from paston.deal import Deal\n"
    assert _imported_text(guarded) == {"paston.deal"}


def _imported_text(source: str) -> set[str]:
    """What a module with this source would import (the walk of :func:`_imported`)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.py"
        path.write_text(source, encoding="utf-8")
        return _imported(path, "paston.probe")


def test_no_type_checking_import_is_left_that_would_close_a_cycle() -> None:
    """The type-level cycles are broken (types against ``DealState``, a protocol for
    what forwarding needs of a cluster worker, the pause's state beside its table)."""
    assert "paston.deal" not in GRAPH["paston.views"] and "paston.deal" not in GRAPH["paston.legality"]


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_the_package() -> None:
    assert _cycles(_package_edges(GRAPH)) == []


ENGINE = {name for name, path in MODULES.items() if path.parent == PACKAGE and path.name != "__init__.py"}


@pytest.mark.parametrize("module", sorted(ENGINE))
def test_the_engine_imports_only_the_engine(module: str) -> None:
    """The core engine (the modules directly under ``paston``) imports nothing from the
    server, the computer players, the solver, the command line or any user interface."""
    outside = sorted(t for t in GRAPH[module] if t not in ENGINE and t != "paston")
    assert outside == [], f"{module} imports {outside}"


#: The rooms of the server, lowest first: a module of a room imports only its own room and
#: the rooms before it. The cluster is beside them: it may import any room, and only
#: ``paston.server.web.app`` (which wires it in) imports it.
SERVER_ROOMS = ("table_error", "store", "work", "lessons", "tables", "web")
CLUSTER = "cluster"


def _room(module: str) -> str | None:
    """The server's room of ``module`` (its first name under ``paston.server``), if any."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["paston", "server"] and len(parts) > 2 else None


def _room_breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import against the rooms' order: a room importing a later room or the cluster,
    a module other than the app importing the cluster, the cluster importing the app."""
    app = "paston.server.web.app"
    found = []
    for module, targets in sorted(graph.items()):
        room = _room(module)
        for target in sorted(targets):
            other = _room(target)
            if other is None or other == room:
                continue
            if other == CLUSTER:
                ok = module == app
            elif room in SERVER_ROOMS:
                ok = other in SERVER_ROOMS and SERVER_ROOMS.index(other) < SERVER_ROOMS.index(room)
            else:  # the cluster, or outside the server (the command line)
                ok = target != app or room is None
            if not ok:
                found.append(f"{module} -> {target}")
    return found


def test_the_server_is_in_its_rooms() -> None:
    rooms = {_room(name) for name in MODULES} - {None}
    assert rooms == {*SERVER_ROOMS, CLUSTER}
    assert _room("paston.server.tables.table") == "tables" and _room("paston.server") is None


def test_the_room_check_finds_a_breach() -> None:
    probe = {
        "paston.server.store.db": {"paston.server.web.http", "paston.server.table_error"},
        "paston.server.tables.table": {"paston.server.cluster.node", "paston.server.work.botjobs"},
        "paston.server.work.botpool": {"paston.server.tables.table"},
        "paston.server.cluster.node": {"paston.server.web.app", "paston.server.web.websocket"},
        "paston.server.web.app": {"paston.server.cluster.node"},
    }
    assert _room_breaches(probe) == [
        "paston.server.cluster.node -> paston.server.web.app",
        "paston.server.store.db -> paston.server.web.http",
        "paston.server.tables.table -> paston.server.cluster.node",
        "paston.server.work.botpool -> paston.server.tables.table",
    ]


def test_the_server_rooms_import_only_the_rooms_below_them() -> None:
    """table_error < store < work < tables < web: the database knows no table, the
    background work no live table, the tables no web face; only the app knows the cluster."""
    assert _room_breaches(GRAPH) == []


#: The names two modules may share: none (the server's side of each collision was renamed
#: when the server moved into rooms, then the commands ``cli/selfplay_command.py`` and
#: ``cli/tournament_command.py`` and the solver's ``card_costs.py``).
SHARED_NAMES: dict[str, list[str]] = {}


def test_no_two_modules_share_a_name() -> None:
    """A module's file name says which it is (``__init__.py`` apart), so that a traceback,
    a log line or a search finds one module."""
    folders: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name != "__init__.py":
            folders.setdefault(path.name, []).append(path.parent.relative_to(PACKAGE).as_posix())
    shared = {name: places for name, places in folders.items() if len(places) > 1}
    assert shared == SHARED_NAMES


# Every source file counts, the compiled cores (C and their headers) and the translations
# included; only the database migrations (generated, one per change) do not.
SOURCES = sorted(
    p
    for p in PACKAGE.rglob("*")
    if p.suffix in {".py", ".js", ".c", ".h", ".css", ".html"}
    and "migrations" not in p.relative_to(PACKAGE).parts
)


#: Modules over MAX_LINES, each with the reason it is one module (none may pass HARD_LINES).
LONG_MODULES: dict[str, str] = {}
HARD_LINES = 800


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_are_cohesive(path: Path) -> None:
    """A module over 500 lines needs a one-line reason in LONG_MODULES; none passes 800."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    rel = path.relative_to(PACKAGE).as_posix()
    assert lines <= HARD_LINES, f"{rel} has {lines} lines (at most {HARD_LINES}, whatever the reason)"
    assert lines <= MAX_LINES or rel in LONG_MODULES, (
        f"{rel} has {lines} lines: split it, or say in LONG_MODULES why it is one module"
    )


def test_every_long_module_reason_is_current() -> None:
    for rel, reason in LONG_MODULES.items():
        assert reason.strip(), rel
        path = PACKAGE / rel
        assert path.exists(), f"LONG_MODULES names {rel}, which does not exist"
        assert len(path.read_text(encoding="utf-8").splitlines()) > MAX_LINES, f"{rel} is short now"


def test_the_size_check_covers_the_compiled_cores_and_the_translations() -> None:
    """Once exempt, now counted: the solver's C core and header, the environments' deal
    core, and the translation tables."""
    counted = {p.relative_to(PACKAGE).as_posix() for p in SOURCES}
    for rel in ("solver/_core.c", "solver/_core.h", "env/_fastdeal.h", "server/static/i18n.js"):
        assert rel in counted, rel
    assert {f"server/static/i18n-base-{lang}.js" for lang in ("en", "hy", "ru", "es", "ja")} <= counted


TEST_FILES = sorted(Path(__file__).resolve().parent.glob("*.py"))


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_no_test_file_over_500_lines(path: Path) -> None:
    """The tests are kept like the package: a file over 500 lines is split by topic, its
    shared helpers in a module of their own."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"tests/{path.name} has {lines} lines (at most {MAX_LINES})"


def _imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", TEST_FILES, ids=lambda p: p.name)
def test_no_test_module_imports_another(path: Path) -> None:
    """Shared fixtures and helpers live in conftest.py or helper modules (not ``test_*``)."""
    others = sorted(
        n
        for n in _imports_of(path)
        if n.rpartition(".")[2].startswith("test_") and n.startswith(("tests.", "test_"))
    )
    assert others == [], f"tests/{path.name} imports test modules {others}"


# --- the scripts of benchmarks/ and experiments/ -----------------------------------------------

ROOT = SRC.parent
SCRIPT_FOLDERS = ("benchmarks", "experiments")
#: What a script may not import: the tests, by package or by the name of one of their modules.
TEST_MODULES = {"tests", "conftest", "helpers"} | {p.stem for p in TEST_FILES}
#: Ways of loading a file by path rather than importing a module by name.
FILE_LOADERS = {"importlib", "runpy", "spec_from_file_location", "SourceFileLoader", "__import__"}


def _is_script(tree: ast.Module) -> bool:
    """Whether the module has an ``if __name__ == "__main__":`` block."""
    return any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators)
        for node in tree.body
    )


def _script_breaches(path: Path) -> list[str]:
    """Everything in the script at ``path`` that reaches past the package and its own
    folder's library modules: ``sys.path``, loading a file by path, the tests, a sibling
    script."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    siblings = {p.stem: p for p in path.parent.glob("*.py") if p != path}
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
            found += [f"imports {a.name}" for a in node.names if a.name in FILE_LOADERS]
        elif isinstance(node, ast.Attribute) and node.attr == "path":
            if isinstance(node.value, ast.Name) and node.value.id == "sys":
                found.append(f"line {node.lineno}: sys.path")
        elif isinstance(node, ast.Attribute | ast.Name):
            name = node.attr if isinstance(node, ast.Attribute) else node.id
            if name in FILE_LOADERS:
                found.append(f"line {node.lineno}: {name}")
        for name in names:
            top = name.partition(".")[0]
            if top in FILE_LOADERS:
                found.append(f"imports {name}")
            elif top in TEST_MODULES and top not in siblings:
                found.append(f"imports {name} (the tests)")
            elif top in siblings and _is_script(ast.parse(siblings[top].read_text(encoding="utf-8"))):
                found.append(f"imports {name} (a script: share it through a library module)")
    return found


SCRIPTS = sorted(p for folder in SCRIPT_FOLDERS for p in (ROOT / folder).glob("*.py"))


def test_the_script_check_sees_the_scripts_and_finds_a_breach(tmp_path: Path) -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SCRIPTS}
    assert {"benchmarks/server_load.py", "benchmarks/tablekit.py", "experiments/world_doubling.py"} <= names
    (tmp_path / "other.py").write_text('if __name__ == "__main__":\n    pass\n', encoding="utf-8")
    (tmp_path / "kit.py").write_text('"""A library."""\n', encoding="utf-8")
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib.util\nimport sys\nfrom pathlib import Path\n\n"
        "sys.path.insert(0, str(Path(__file__).parent))\n"
        "from helpers import play_out\nimport tests.helpers\nfrom other import x\nfrom kit import y\n"
        "spec = importlib.util.spec_from_file_location('m', 'm.py')\n",
        encoding="utf-8",
    )
    assert sorted(_script_breaches(probe)) == sorted(
        [
            "imports importlib.util",
            "line 5: sys.path",
            "imports helpers (the tests)",
            "imports tests.helpers (the tests)",
            "imports other (a script: share it through a library module)",
            "line 10: importlib",
            "line 10: spec_from_file_location",
        ]
    )
    assert _is_script(ast.parse((ROOT / "benchmarks" / "server_load.py").read_text(encoding="utf-8")))
    assert not _is_script(ast.parse((ROOT / "benchmarks" / "loadkit.py").read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_scripts_import_the_package_and_their_folders_libraries_only(path: Path) -> None:
    """A benchmark or an experiment imports the package and the library modules of its own
    folder (no ``__main__`` block) by name: it loads no file by path, touches no
    ``sys.path``, imports neither the tests nor another script. What two scripts share is a
    library module (``benchmarks/tablekit.py``, ``experiments/inference_points.py``)."""
    assert _script_breaches(path) == [], f"{path.relative_to(ROOT)}: {_script_breaches(path)}"
