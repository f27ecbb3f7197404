"""Shared fixtures and the test tiers.

A real PostgreSQL server for the storage tests: ``PASTON_TEST_POSTGRES_URL`` names a
server to use; otherwise, when the PostgreSQL server programs are installed (``.ci/run``
installs Debian's ``postgresql``), a throwaway cluster is started for the test session
(one per xdist worker) and removed afterwards.

Markers come from what a test uses (:func:`pytest_collection_modifyitems`), never by hand:
``browser`` (chromium through Playwright), ``cluster`` (Redis and server workers),
``postgres`` (the PostgreSQL cluster, also as the ``postgresql`` side of a database
parameter) and ``slow`` (Ray, or a module that says ``SLOW = True``). The quick tier
(``bash scripts/test --quick``) leaves out ``browser`` and ``cluster``.

Hypothesis profiles: ``full`` (the default: each test's own example counts, as written)
and ``quick`` (``PASTON_HYPOTHESIS=quick``, set by ``--quick`` and by the sanitized solver
run: every property test tries at most 25 examples, those that name a larger
``max_examples`` of their own included; see :func:`cap_examples`).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import coverage
import pytest
from hypothesis import settings

QUICK_EXAMPLES = 25
settings.register_profile("full", settings.get_profile("default"))
settings.register_profile("quick", max_examples=QUICK_EXAMPLES)
PROFILE = os.environ.get("PASTON_HYPOTHESIS", "full")
settings.load_profile(PROFILE)


def cap_examples(item: pytest.Item, cap: int) -> None:
    """Give a property test that names its own ``max_examples`` above ``cap`` a copy of
    its settings with ``cap`` examples (the quick profile caps only tests that do not
    name one). Tests that are not hypothesis tests are left alone."""
    function = getattr(item, "obj", None)
    own = getattr(function, "_hypothesis_internal_use_settings", None)
    if own is not None and own.max_examples > cap:
        function._hypothesis_internal_use_settings = settings(own, max_examples=cap)  # type: ignore[union-attr]


#: marker -> the fixtures that give it (a test using any of them, directly or through
#: another fixture, gets the marker)
MARKER_FIXTURES: dict[str, frozenset[str]] = {
    "browser": frozenset({"browser", "open_page"}),
    "cluster": frozenset({"redis_server", "workers"}),
    "postgres": frozenset({"postgres_url"}),
    "slow": frozenset({"ray_address"}),
}
MARKER_HELP = {
    "browser": "drives Debian's chromium through Playwright",
    "cluster": "starts Redis and paston serve workers",
    "postgres": "uses the throwaway PostgreSQL cluster",
    "slow": "starts Ray or is marked SLOW by its module",
    "screen": "drives the full-screen terminal app (Textual's pilot, snapshots, a pseudo-terminal)",
}
#: The modules of the terminal app's screen tests (the ``screen`` tier).
SCREEN_MODULES = ("test_tui", "test_tui_snapshots", "test_cli_play_screen")


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKER_HELP.items():
        config.addinivalue_line("markers", f"{name}: {text} (applied by tests/conftest.py)")
    # pytest-cov's marker, named here too so that a run without the plugin (-p no:cov) knows it
    config.addinivalue_line("markers", "no_cover: not traced for coverage")


#: The heavy sweeps, by module and test name ("*": every test of the module), run without
#: the coverage tracer: each repeats, many thousands of times, code that the traced tests
#: cover already, and the tracer more than doubled their time (measured: 808 s of test time
#: in all, 190 s of it in these). What they check is unchanged; only coverage skips them.
UNTRACED: dict[str, frozenset[str]] = {
    "test_solver_agreement": frozenset({"*"}),
    "test_bots_alphamu": frozenset(
        {
            "test_no_plan_makes_more_worlds_than_double_dummy",
            "test_the_search_finds_what_brute_force_finds",
            "test_one_world_agrees_with_the_solver_at_every_depth",
        }
    ),
    "test_r6_play": frozenset(
        {
            "test_r6_2_every_refusal_is_explained_and_changes_nothing",
            "test_r6_2_fast_paths_agree_with_playable",
        }
    ),
    "test_encoding": frozenset(
        {
            "test_the_fast_encoder_equals_the_view_encoding_on_every_state_of_many_deals",
            "test_mask_equals_legal_actions_on_every_state_of_many_deals",
        }
    ),
    "test_properties": frozenset(
        {
            "test_legal_actions_equal_brute_force",
            "test_illegal_actions_raise_and_change_nothing",
            "test_views_reveal_nothing_hidden",
        }
    ),
    "test_env_fastdeal": frozenset({"test_thousands_of_deals_against_the_encoder"}),
}


def is_untraced_sweep(item: pytest.Item) -> bool:
    """Whether the test is one of the :data:`UNTRACED` sweeps."""
    module = getattr(item, "module", None)
    if module is None:
        return False
    names = UNTRACED.get(module.__name__.rsplit(".", 1)[-1], frozenset())
    function = getattr(item, "originalname", item.name)
    return "*" in names or function in names


@pytest.hookimpl(hookwrapper=True, trylast=True)  # inside pytest-cov's own no_cover pause
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Make ``no_cover`` hold in xdist workers too: there a second coverage run (the one
    coverage.py starts in each subprocess of a measured run) lies under pytest-cov's, and
    pausing pytest-cov's resumes it. Every coverage run still tracing is paused for the test."""
    paused: list[coverage.Coverage] = []
    if item.get_closest_marker("no_cover") is not None:
        while sys.gettrace() is not None and len(paused) < 4:
            current = coverage.Coverage.current()
            if current is None:
                break
            current.stop()
            paused.append(current)
    try:
        yield
    finally:
        for run in reversed(paused):
            run.start()


def markers_of(item: pytest.Item) -> set[str]:
    """The tier markers of a collected test, from the fixtures it uses (see the docstring)."""
    used = set(getattr(item, "fixturenames", ()))
    found = {name for name, fixtures in MARKER_FIXTURES.items() if used & fixtures}
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgresql" in callspec.params.values():
        found.add("postgres")
    module = getattr(item, "module", None)
    if module is not None:
        name = module.__name__.rsplit(".", 1)[-1]
        if name.startswith("test_browser_"):
            found.add("browser")
        if name in SCREEN_MODULES:
            found.add("screen")
        if getattr(module, "SLOW", False):
            found.add("slow")
    return found


def shares_with_its_module(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once for its module or class (a server, a
    browser, Redis): such tests run in one xdist worker (``--dist loadgroup``), so the
    fixture is set up once, not once per worker."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(
        definitions[-1].scope in ("module", "class", "package")
        for definitions in info.name2fixturedefs.values()
        if definitions
    )


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if PROFILE == "quick":
            cap_examples(item, QUICK_EXAMPLES)
        markers = markers_of(item)
        for name in sorted(markers):
            item.add_marker(name)
        if markers & {"browser", "cluster", "slow"}:
            # not traced for coverage (pytest-cov's marker): they wait on pages, servers and
            # Ray with timeouts, and the tracer's cost made them flaky on two busy cores;
            # what they run in process is covered by the in-process server tests
            item.add_marker(pytest.mark.no_cover)
        elif is_untraced_sweep(item):
            item.add_marker(pytest.mark.no_cover)
        module = getattr(item, "module", None)
        group = service_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        elif module is not None and shares_with_its_module(item):
            item.add_marker(pytest.mark.xdist_group(module.__name__))


def service_group(item: pytest.Item) -> str | None:
    """The xdist group of a test that starts heavy services, else ``None``: Redis with
    server workers, and Ray, run one at a time in one group (two Ray instances at once on
    two cores starve everything beside them). Browser tests are grouped by module, as
    every test of a module-scoped fixture (the module's chromium), unless they use one
    of those services too."""
    names = {m.name for m in item.iter_markers()}
    if names & {"cluster", "slow"}:
        return "services"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(args: list[str]) -> list[str]:
    """Run as the postgres user when we are root (initdb refuses root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    given = os.environ.get("PASTON_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail("no PostgreSQL server programs installed: run `bash scripts/test` (it installs them)")
    bindir = os.path.dirname(found[-1])
    folder = tempfile.mkdtemp(prefix="paston-pg-")
    data = os.path.join(folder, "data")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = _free_port()
    subprocess.run(
        _as_postgres([f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
        check=True,
        capture_output=True,
    )
    subprocess.run(
        _as_postgres(
            [
                f"{bindir}/pg_ctl",
                "-D",
                data,
                "-l",
                os.path.join(folder, "log"),
                "-w",
                "-o",
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        for _ in range(50):
            ready = subprocess.run(
                [f"{bindir}/pg_isready", "-h", "127.0.0.1", "-p", str(port)], capture_output=True
            )
            if ready.returncode == 0:
                break
            time.sleep(0.2)
        subprocess.run(
            _as_postgres(
                [
                    f"{bindir}/createdb" if os.path.exists(f"{bindir}/createdb") else "createdb",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "paston_test",
                ]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/paston_test"
    finally:
        subprocess.run(
            _as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)
