"""The HTTP API fuzzed from its own OpenAPI schema (Schemathesis, issue 22): no input,
however odd, is answered with a 5xx: neither each operation's parameters and bodies
(valid and not), nor sequences of calls following links from a new table to every
operation on it (made, then asked about, seated, rematched, replayed), nor a record sent
to the replay viewer (the one body the schema does not describe). Only
``not_a_server_error`` is checked: the refusals' shapes and codes have their own tests."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from tests.record_helpers import random_game

from paston.record import dumps
from paston.server.web.app import create_app
from paston.server.web.limits import Limits

#: The lobby's event stream never ends by itself: it is not a request-and-answer route.
ENDLESS = "/api/lobby/events"
SETTINGS = hypothesis.settings(
    max_examples=25,
    deadline=None,
    derandomize=True,  # the same inputs each run: a failure is reproduced by running again
    suppress_health_check=list(HealthCheck),
    database=None,
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    # the creation limits lifted (they answer 429, not 5xx, and would hide the routes behind them)
    limits = Limits(create_every=0.0, tables_per_client=100_000, open_tables=100_000)
    # computer players slow (10 s a move): the many tables the fuzzing makes would play at once
    app = create_app(
        f"sqlite:///{folder / 'fuzz.db'}", bot_delay=10.0, bot_workers=0, analysis_workers=0, limits=limits
    )
    with TestClient(app):  # the lifespan: migrations, bots, the lobby
        yield app


def with_links(document: dict[str, Any]) -> dict[str, Any]:
    """The app's OpenAPI document with links from a new table (``201``, its ``id``) to
    every operation on a table, so that sequences of calls reach real tables (Schemathesis
    infers no link from ``id`` to ``table_id``)."""
    document = copy.deepcopy(document)
    paths = document["paths"]
    links = {
        f"{method} {path}": {
            "operationId": op["operationId"],
            "parameters": {"table_id": "$response.body#/id"},
        }
        for path, item in paths.items()
        if "{table_id}" in path
        for method, op in item.items()
    }
    paths["/api/tables"]["post"]["responses"].setdefault("201", {"description": "made"})["links"] = links
    return document


@pytest.fixture(scope="module")
def api_schema(app: FastAPI) -> Any:
    schema = schemathesis.openapi.from_dict(with_links(app.openapi()))
    schema.app = app  # called in process, over ASGI
    schema.location = "/openapi.json"
    return schema.exclude(path=ENDLESS)


def operations(api_schema: Any) -> list[Any]:
    return [result.ok() for result in api_schema.get_all_operations()]


def test_no_input_to_any_operation_is_a_server_error(api_schema: Any) -> None:
    """Each operation, ``max_examples`` inputs (its parameters and body from the schema,
    valid and not)."""
    failures = []
    for operation in operations(api_schema):

        @hypothesis.given(case=operation.as_strategy())
        @SETTINGS
        def fuzz(case: Any) -> None:
            response = case.call()
            case.validate_response(response, checks=[not_a_server_error])

        try:
            fuzz()
        except Exception as err:  # every operation is tried; the failures are reported together
            failures.append(f"{operation.label}: {err}")
    assert failures == [], "\n\n".join(failures)


def test_no_sequence_of_calls_is_a_server_error(api_schema: Any) -> None:
    machine = api_schema.as_state_machine()

    class NoServerErrors(machine):  # type: ignore[misc, valid-type]
        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=[not_a_server_error])

    NoServerErrors.run(settings=hypothesis.settings(SETTINGS, max_examples=20, stateful_step_count=6))


def test_the_schema_lists_the_api(api_schema: Any) -> None:
    """The fuzzing reaches every route of the API but the endless stream."""
    paths = {operation.path for operation in operations(api_schema)}
    assert {"/api/tables", "/api/tables/{table_id}/seats/{seat}", "/api/tables/{table_id}/rematch"} <= paths
    assert ENDLESS not in paths


# --- the one body the schema does not describe: a record to replay ------------------------------
HUGE = "huge-integer"
LEAF = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.just(HUGE)  # written as a 5,000-digit integer (past Python's default limit for int())
    | st.floats(allow_nan=True)
    | st.text(max_size=5)
)


def _paths(value: object, at: tuple[object, ...] = ()) -> Iterator[tuple[object, ...]]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))


def _set(value: Any, at: tuple[object, ...], new: object) -> Any:
    if not at:
        return new
    inner = value
    for key in at[:-1]:
        inner = inner[key]
    inner[at[-1]] = new
    return value


def test_no_record_sent_to_the_replay_viewer_is_a_server_error(app: FastAPI) -> None:
    """``POST /api/replay`` reads a raw record (its body is not in the schema): a real
    record with up to three of its values replaced by odd ones, or any bytes at all, is
    answered 200 or a refusal, never a 5xx."""
    good = json.loads(dumps(random_game(3)))
    places = list(_paths(good))

    client = TestClient(app, raise_server_exceptions=False)  # (the app runs already: no lifespan again)
    replaced = st.lists(st.tuples(st.sampled_from(places), LEAF | st.lists(LEAF, max_size=3)), max_size=3)

    @hypothesis.given(changes=replaced, junk=st.binary(max_size=64))
    @hypothesis.settings(SETTINGS, max_examples=60)
    def fuzz(changes: list[tuple[tuple[object, ...], object]], junk: bytes) -> None:
        record = copy.deepcopy(good)
        for at, new in changes:
            with contextlib.suppress(KeyError, IndexError, TypeError):
                record = _set(record, at, new)
        text = json.dumps(record).replace(json.dumps(HUGE), "9" * 5000)
        for body in (text.encode(), junk):
            answer = client.post("/api/replay", content=body)
            assert answer.status_code < 500, (changes, body[:200], answer.text[:300])

    fuzz()
