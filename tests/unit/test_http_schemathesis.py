"""Property-based requests from the gateway's own OpenAPI schema: no 5xx, no off-schema answer.

Schemathesis generates valid and invalid parameters and bodies for every operation; each response
must be a documented status code with a documented content type and a body matching its schema.
Bounded to a few dozen examples per operation so the whole run stays well under a minute.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events as engine_events
from schemathesis.engine import from_schema as engine_from_schema
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import FakeClock, sequential_ids
from userlore import Userlore
from userlore.policy.sensitivity import classify
from userlore.server import create_app

TOKEN = "schemathesis-token-" + "9" * 16
EXAMPLES = 12
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@pytest.fixture
def gateway() -> Iterator[FastAPI]:
    lore = Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto"}}, clock=FakeClock(), ids=sequential_ids()
    )
    for text in ("Weekly sync is in Room Orion.", "Deploys go out on Tuesdays."):
        lore.memory.remember("fuzz", text, path="projects/x", memory_type="semantic")
    lore.plan_context(scope="fuzz", query="weekly sync", session_key="s1")
    try:
        yield create_app(lore, {TOKEN: {"scope": "fuzz", "agentId": "fuzzer"}})
    finally:
        lore.close()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_gateway_answers_within_its_schema(gateway: FastAPI, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", gateway)
    headers = {"Authorization": f"Bearer {TOKEN}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 25

    exercised = 0
    for operation in operations:

        @given(case=operation.as_strategy(mode))
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def answers_within_schema(case: schemathesis.Case) -> None:
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            answers_within_schema()
        except Unsatisfiable:
            # An operation with nothing to get wrong (no parameters) has no negative cases.
            assert mode is GenerationMode.NEGATIVE, operation.label
            continue
        exercised += 1
    assert exercised >= 20


# -- the whole schemathesis run: every phase, every check ----------------------------------------

# Schema-valid requests the API refuses on purpose, each with the documented reason (docs/http.md):
# an import row is checked against the export format (docs/export-format.md), which the OpenAPI
# schema describes only as an object.
SEMANTIC_REFUSALS = [
    {
        "include-path": "/api/user-context/import",
        "checks": {
            "positive_data_acceptance": {"expected-statuses": ["2XX", 409, 422]},
        },
    },
]


def _refused_session_key(interaction: Any) -> bool:
    """Whether a request was refused (422) for a session key the floor flags: by design
    (``policy/session_keys``: a key holding a secret is refused before anything is written),
    and no schema can say which strings the floor flags. A fuzzed key such as
    "B8Đ⊶+Ï…" reads as a credential in a language no rule reads."""
    response = getattr(interaction, "response", None)
    if response is None or response.status_code != 422:
        return False
    try:
        body = json.loads(interaction.request.body or b"{}")
    except ValueError:
        return False
    key = body.get("sessionKey") if isinstance(body, dict) else None
    return isinstance(key, str) and classify(key).is_blocked


def _failures(events: Iterable[Any]) -> list[str]:
    found: list[str] = []
    for event in events:
        if isinstance(event, engine_events.NonFatalError):
            found.append(f"error: {event.info.message}")
        if not isinstance(event, engine_events.ScenarioFinished):
            continue
        for case_id, checks in event.recorder.checks.items():
            interaction = event.recorder.interactions.get(case_id)
            for check in checks:
                if check.name == "positive_data_acceptance" and _refused_session_key(interaction):
                    continue
                if check.failure_info is not None:
                    failure = check.failure_info.failure
                    found.append(
                        f"{check.name} {event.recorder.label}: {failure.title}: {failure.message}"
                        f"\n{check.failure_info.code_sample}"
                    )
    return found


def test_full_schemathesis_run_has_no_failure(gateway: FastAPI) -> None:
    """Every phase (examples, coverage, fuzzing, stateful) and every check, bounded and seeded."""
    config = SchemathesisConfig.from_dict(
        {
            "headers": {"Authorization": f"Bearer {TOKEN}"},
            "checks": {
                "enabled": True,
                # DELETE is forget: a restorable tombstone, still readable by id (state deleted).
                "use_after_free": {"enabled": False},
            },
            "generation": {
                "max-examples": 8,
                "mode": "all",
                "deterministic": True,
                "database": "none",
                # NUL is refused on purpose (422 invalid_text, docs/http.md), on every backend;
                # test_http_guard.py covers it on SQLite and PostgreSQL.
                "allow-x00": False,
            },
            "operations": SEMANTIC_REFUSALS,
            # A failure's request shown whole (the test token and fuzzed keys are no secret).
            "output": {"sanitization": {"enabled": False}},
        }
    )
    schema = schemathesis.openapi.from_asgi("/openapi.json", gateway, config=config)
    failures = _failures(engine_from_schema(schema).execute())
    assert failures == [], "\n\n".join(failures)


def test_only_a_flagged_session_key_excuses_a_refusal() -> None:
    """The full run's excuse is narrow: a 422 whose request's session key the floor flags
    (the key a full unit run's stateful phase drew), never a 422 for an opaque key."""

    def interaction(key: str, status: int) -> Any:
        body = json.dumps({"sessionKey": key, "query": "q"}).encode()
        return SimpleNamespace(
            request=SimpleNamespace(body=body), response=SimpleNamespace(status_code=status)
        )

    drawn = "B8\u0110\u22b6+\u00cf\udb29\udcd7\u0450FQ\u0132[\u00d8\udb82\udf42\u012d\u00d8]\u010a"
    assert _refused_session_key(interaction(drawn, 422))
    assert not _refused_session_key(interaction(drawn, 400))
    assert not _refused_session_key(interaction("s1", 422))
