"""The gateway's edge: body limits before auth, JSON depth, NUL text, 400/405/413, access logs."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.exc import DataError

import userlore.errors as errors_module
from userlore import ConfigError, Userlore
from userlore.server import create_app
from userlore.server.access_log import (
    ACCESS_LOGGER,
    REDACTED,
    RedactQueryStrings,
    access_log_config,
)
from userlore.server.guard import MAX_JSON_DEPTH, RequestGuard, json_depth_exceeds
from userlore.server.web_page import SIGNIN_COOKIE
from userlore.store.schema import MemoryRecord, MemoryTraceEvent

TOKEN = "guard-test-token-" + "7" * 16
SCOPE = "guard"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(auto_lore: Userlore) -> Iterator[TestClient]:
    app = create_app(auto_lore, {TOKEN: SCOPE}, max_body_bytes=64_000, max_api_body_bytes=8_000)
    with TestClient(app) as c:
        yield c


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- body size, before authentication ------------------------------------------------------------


class Stream:
    """An ASGI ``receive`` that streams 4 KiB chunks forever and counts what was read."""

    def __init__(self, chunk: int = 4096) -> None:
        self.chunk = chunk
        self.reads = 0

    async def __call__(self) -> dict[str, Any]:
        self.reads += 1
        return {"type": "http.request", "body": b"x" * self.chunk, "more_body": True}


async def call_guarded(
    guard: RequestGuard, path: str, receive: Callable[[], Any], headers: list[tuple[bytes, bytes]]
) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "query_string": b"",
        "headers": headers,
    }
    await guard(scope, receive, send)
    return sent


async def never_called(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the app behind the guard must not run")


async def test_a_declared_oversized_body_is_refused_before_reading_a_byte() -> None:
    guard = RequestGuard(never_called, max_body_bytes=10_000)
    stream = Stream()
    sent = await call_guarded(
        guard, "/api/user-context/import", stream, [(b"content-length", b"30000000")]
    )
    assert stream.reads == 0
    assert sent[0]["status"] == 413 and (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"])["error"]["code"] == "payload_too_large"


async def test_a_streamed_body_without_length_is_cut_off_at_the_limit() -> None:
    guard = RequestGuard(never_called, max_body_bytes=100_000, max_api_body_bytes=10_000)
    for path, limit in (("/api/user-context/import", 100_000), ("/api/user-context/plan", 10_000)):
        stream = Stream()
        sent = await call_guarded(guard, path, stream, [(b"transfer-encoding", b"chunked")])
        assert sent[0]["status"] == 413, path
        # read just past the limit, never the (endless) whole
        assert stream.reads == limit // stream.chunk + 1, path
        assert str(limit) in json.loads(sent[1]["body"])["error"]["message"]


def test_oversized_unauthenticated_body_gets_413_quickly(client: TestClient) -> None:
    body = b'{"content": "' + b"a" * 3_000_000 + b'"}'
    started = time.perf_counter()
    response = client.post("/api/user-context/memories", content=body)  # no token at all
    assert response.status_code == 413
    assert time.perf_counter() - started < 2.0
    assert response.json()["error"] == {
        "code": "payload_too_large",
        "message": "body: larger than the limit of 8000 bytes",
    }


def test_imports_get_the_larger_limit(client: TestClient, auto_lore: Userlore) -> None:
    auto_lore.memory.remember("source", "Standup is at 9:30.", path="team", memory_type="semantic")
    doc = auto_lore.scopes.export("source")
    doc["padding_is_refused_by_the_importer"] = "x" * 20_000  # over 8 000, under 64 000
    response = client.post("/api/user-context/import", headers=AUTH, json=doc)
    assert response.status_code == 422  # reached the importer: not refused for size
    del doc["padding_is_refused_by_the_importer"]
    assert client.post("/api/user-context/import", headers=AUTH, json=doc).status_code == 200
    too_big = {**doc, "padding": "x" * 70_000}
    response = client.post("/api/user-context/import", headers=AUTH, json=too_big)
    assert response.status_code == 413


def test_body_limits_are_validated(auto_lore: Userlore) -> None:
    with pytest.raises(ConfigError, match="max_body_bytes"):
        create_app(auto_lore, {TOKEN: SCOPE}, max_body_bytes=0)


# -- JSON depth and invalid JSON -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "deeper"),
    [
        (nested(MAX_JSON_DEPTH), False),
        (nested(MAX_JSON_DEPTH + 1), True),
        ('{"a": ' * 65 + "1" + "}" * 65, True),
        ('[{"a": ' * 40 + "1" + "}]" * 40, True),  # 80 levels, mixed
        ('{"a": "' + "[" * 500 + '"}', False),  # brackets inside a string do not nest
        ('["\\"' + "[" * 500 + '"]', False),  # an escaped quote does not end the string
        ('["\\\\"' + ", [" * 70 + "]" * 70 + "]", True),  # an escaped backslash does
        ("[]" * 10_000, False),
    ],
)
def test_json_depth_is_measured_without_parsing(body: str, deeper: bool) -> None:
    assert json_depth_exceeds(body.encode(), MAX_JSON_DEPTH) is deeper


@pytest.mark.parametrize("depth", [63, 700, 900, 5_000])
def test_deep_nesting_is_a_400_not_a_500(client: TestClient, depth: int) -> None:
    doc = ('{"format": "userlore.export", "records": [' + nested(depth) + "]}").encode()
    for path, limit in (
        ("/api/user-context/import", 64_000),
        ("/api/user-context/memories", 8_000),
    ):
        response = client.post(
            path, headers={**AUTH, "Content-Type": "application/json"}, content=doc
        )
        if len(doc) > limit:
            assert response.status_code == 413, (path, depth)
        else:
            assert response.status_code == 400, (path, depth)
            assert response.json()["error"]["code"] == "too_deep"


def test_sixty_four_levels_reach_the_endpoint(client: TestClient) -> None:
    body = '{"query": "x", "sessionKey": "s", "budget": ' + nested(62) + "}"
    response = client.post(
        "/api/user-context/plan",
        headers={**AUTH, "Content-Type": "application/json"},
        content=body.encode(),
    )
    assert response.status_code == 422  # validated (budget is not a list), not refused as deep
    assert response.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize(
    "body", [b"{not json", b'{"content": "a",}', b"\xff\xfe", b'{"a": "\x01"}']
)
def test_invalid_json_is_400(client: TestClient, body: bytes) -> None:
    response = client.post(
        "/api/user-context/memories",
        headers={**AUTH, "Content-Type": "application/json"},
        content=body,
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "bad_request"


def test_schema_violations_stay_422(client: TestClient) -> None:
    response = client.post("/api/user-context/memories", headers=AUTH, json={"content": "x"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert "path" in response.json()["error"]["message"]


# -- 405 carries Allow -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/api/user-context/memories", "GET, POST"),
        ("TRACE", "/api/health", "GET"),
        ("POST", "/api/user-context/memories/mem_1", "DELETE, GET, PATCH"),
        ("PUT", "/api/user-context/memories/recall", "POST"),
        ("DELETE", "/api/user-context/understanding/response-feedback", "GET, PATCH"),
        # the About You page's routes come from an included router
        ("PUT", "/api/user-context/consents", "GET"),
        ("GET", "/api/user-context/consents/health/grant", "POST"),
        ("DELETE", "/api/user-context/whoami", "GET"),
    ],
)
def test_405_names_the_allowed_methods(
    client: TestClient, method: str, path: str, allow: str
) -> None:
    response = client.request(method, path, headers=AUTH)
    assert response.status_code == 405
    assert response.headers["allow"] == allow
    assert response.json()["error"]["code"] == "method_not_allowed"


# -- every typed error is a typed 4xx --------------------------------------------------------------


def _error_classes() -> list[type[errors_module.UserloreError]]:
    return [
        value
        for value in vars(errors_module).values()
        if isinstance(value, type) and issubclass(value, errors_module.UserloreError)
    ]


def test_every_userlore_error_is_a_typed_answer_never_a_500(auto_lore: Userlore) -> None:
    app = create_app(auto_lore, {TOKEN: SCOPE})
    classes = _error_classes()
    assert len(classes) >= 12

    def raiser(name: str) -> Any:
        def endpoint() -> None:
            kind = getattr(errors_module, name)
            raise kind("field_x: refused")

        return endpoint

    for kind in classes:
        app.add_api_route(f"/raise/{kind.__name__}", raiser(kind.__name__))
    app.add_api_route("/raise/DataError", _raise_data_error)
    with TestClient(app, raise_server_exceptions=False) as c:
        for kind in classes:
            response = c.get(f"/raise/{kind.__name__}")
            expected = 503 if issubclass(kind, errors_module.StorageError) else None
            if expected:
                assert response.status_code == expected, kind
            else:
                assert 400 <= response.status_code < 500, kind
            error = response.json()["error"]
            assert error["code"] and error["message"] == "field_x: refused", kind
        response = c.get("/raise/DataError")
        assert response.status_code == 422
        assert "secret_column" not in response.text


def _raise_data_error() -> None:
    raise DataError("INSERT INTO secret_column", {}, Exception("driver detail"))


# -- NUL and lone surrogates -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("POST", "/api/user-context/memories", {"content": "a\x00b", "path": "p"}, "body.content"),
        ("POST", "/api/user-context/memories/recall", {"query": "\x00"}, "body.query"),
        ("POST", "/api/user-context/plan", {"query": "q", "sessionKey": "s\x00"}, "sessionKey"),
        ("PATCH", "/api/user-context/memories/mem_1", {"content": "x\x00"}, "body.content"),
        ("POST", "/api/user-context/import", {"records": [{"id": "\x00"}]}, "records[0].id"),
        ("POST", "/api/user-context/import", {"a\x00": 1}, "body key"),
    ],
)
def test_nul_in_any_body_string_is_a_422_naming_the_field(
    client: TestClient, method: str, path: str, body: dict[str, Any], field: str
) -> None:
    response = client.request(method, path, headers=AUTH, json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_text" and field in error["message"]


def test_an_escaped_backslash_before_u0000_is_plain_text(client: TestClient) -> None:
    body = b'{"content": "C:\\\\u0000 is a folder name", "path": "p", "memoryType": "semantic"}'
    response = client.post(
        "/api/user-context/memories",
        headers={**AUTH, "Content-Type": "application/json"},
        content=body,
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    "target",
    [
        "/api/user-context/memories?pathPrefix=a%00b",
        "/api/user-context/memories/mem%00_1",
        "/api/user-context/understanding/response-feedback?responseAt=2024-01-01T00:00:00Z&sessionKey=%00",
    ],
)
def test_nul_in_path_or_query_is_a_422(client: TestClient, target: str) -> None:
    response = client.get(target, headers=AUTH)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_text"


def test_a_lone_surrogate_is_a_422_before_parsing(client: TestClient) -> None:
    response = client.post(
        "/api/user-context/memories",
        headers={**AUTH, "Content-Type": "application/json"},
        content=b'{"content": "ok \\ud800 no", "path": "p", "memoryType": "semantic"}',
    )
    assert response.status_code == 422
    assert "body.content" in response.json()["error"]["message"]
    paired = b'{"content": "ok \\ud83d\\ude00 yes", "path": "p", "memoryType": "semantic"}'
    response = client.post(
        "/api/user-context/memories",
        headers={**AUTH, "Content-Type": "application/json"},
        content=paired,
    )
    assert response.status_code == 200, response.text


# NUL on both backends: PostgreSQL cannot store it, SQLite could; the gateway refuses it on both.


@pytest.fixture(params=["sqlite", "postgres"])
def backend_client(
    request: pytest.FixtureRequest, make_lore: Callable[..., Userlore]
) -> Iterator[tuple[TestClient, Userlore]]:
    url = "sqlite://" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    lore = make_lore("auto", url=url)
    with TestClient(create_app(lore, {TOKEN: SCOPE})) as c:
        yield c, lore


def _rows(lore: Userlore) -> tuple[int, int]:
    with lore.store.transaction() as session:
        records = session.scalar(select(func.count()).select_from(MemoryRecord))
        traces = session.scalar(select(func.count()).select_from(MemoryTraceEvent))
    return int(records or 0), int(traces or 0)


def test_nul_is_refused_on_both_backends_with_nothing_written(
    backend_client: tuple[TestClient, Userlore],
) -> None:
    client, lore = backend_client
    made = client.post(
        "/api/user-context/memories",
        headers=AUTH,
        json={"content": "Sync is in Orion.", "path": "team", "memoryType": "semantic"},
    )
    assert made.status_code == 200
    plan = client.post(
        "/api/user-context/plan", headers=AUTH, json={"query": "sync", "sessionKey": "s1"}
    )
    assert plan.status_code == 200
    before = _rows(lore)
    at = "2030-01-01T00:00:00+00:00"
    refused = [
        client.post(
            "/api/user-context/memories",
            headers=AUTH,
            json={"content": "Sync\x00 is in Vega.", "path": "team", "memoryType": "semantic"},
        ),
        client.patch(
            f"/api/user-context/memories/{made.json()['id']}",
            headers=AUTH,
            json={"content": "Sync is in \x00Vega."},
        ),
        client.patch(
            "/api/user-context/understanding/response-feedback",
            headers=AUTH,
            json={"sessionKey": "s1\x00", "responseAt": at, "feedback": "helpful"},
        ),
        client.get(
            "/api/user-context/understanding/response-feedback",
            headers=AUTH,
            params={"sessionKey": "s1\x00", "responseAt": at},
        ),
        client.post(
            "/api/user-context/plan", headers=AUTH, json={"query": "sync", "sessionKey": "\x00"}
        ),
        client.post(
            "/api/user-context/memories/recall",
            headers=AUTH,
            json={"query": "sync\x00", "sessionKey": "s1"},
        ),
        client.post(
            f"/api/user-context/candidates/{made.json()['id']}/edit",
            headers=AUTH,
            json={"content": "\x00"},
        ),
    ]
    for response in refused:
        assert response.status_code == 422, (response.request.url, response.text)
        assert response.json()["error"]["code"] == "invalid_text"
    assert _rows(lore) == before
    assert lore.records.get(SCOPE, made.json()["id"]).content == "Sync is in Orion."
    # the same requests without the NUL are served
    fine = client.patch(
        "/api/user-context/understanding/response-feedback",
        headers=AUTH,
        json={"sessionKey": "s1", "responseAt": at, "feedback": "helpful"},
    )
    assert fine.status_code == 200, fine.text


# -- tokens never logged, sign-in links never keep the token in a URL -----------------------------


def _access_record(target: str) -> logging.LogRecord:
    """A record shaped exactly like uvicorn's access log line."""
    return logging.LogRecord(
        ACCESS_LOGGER,
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", target, "1.1", 303),
        None,
    )


def test_access_log_lines_redact_query_values() -> None:
    record = _access_record(f"/?token={TOKEN}&section=know")
    assert RedactQueryStrings().filter(record)
    line = record.getMessage()
    assert TOKEN not in line
    assert line == f'127.0.0.1:5000 - "GET /?token={REDACTED}&section={REDACTED} HTTP/1.1" 303'
    plain = _access_record("/api/health")
    RedactQueryStrings().filter(plain)
    assert plain.getMessage().endswith('"GET /api/health HTTP/1.1" 303')


def test_create_app_puts_the_redactor_on_the_access_logger(
    auto_lore: Userlore, caplog: pytest.LogCaptureFixture
) -> None:
    create_app(auto_lore, {TOKEN: SCOPE})
    create_app(auto_lore, {TOKEN: SCOPE})
    logger = logging.getLogger(ACCESS_LOGGER)
    assert sum(isinstance(f, RedactQueryStrings) for f in logger.filters) == 1
    logger.addHandler(caplog.handler)  # uvicorn's own config may stop propagation
    try:
        with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
            logger.handle(_access_record(f"/?token={TOKEN}"))
    finally:
        logger.removeHandler(caplog.handler)
    assert caplog.records and TOKEN not in caplog.text and REDACTED in caplog.text
    config = access_log_config()
    assert "userlore_redact_query" in config["handlers"]["access"]["filters"]


def test_token_link_redirects_without_the_token_and_hands_over_a_cookie(
    client: TestClient,
) -> None:
    response = client.get(f"/?token={TOKEN}&view=1", follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == "/?view=1"
    assert TOKEN not in response.headers["location"]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SIGNIN_COOKIE}=")
    assert unquote(cookie.split(";")[0].split("=", 1)[1]) == TOKEN
    assert "Max-Age=60" in cookie and "SameSite=strict" in cookie and "HttpOnly" not in cookie
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["cache-control"] == "no-store"
    page = client.get("/", follow_redirects=False)
    assert page.status_code == 200 and SIGNIN_COOKIE not in page.headers.get("set-cookie", "")


def test_the_signin_cookie_is_not_a_credential(client: TestClient) -> None:
    client.cookies.set(SIGNIN_COOKIE, TOKEN)
    try:
        assert client.get("/api/user-context/memories").status_code == 401
    finally:
        client.cookies.clear()


def test_a_token_in_a_special_characters_link_survives_the_cookie(auto_lore: Userlore) -> None:
    odd = "tok;with spaces,and=signs+" + "x" * 8
    with TestClient(create_app(auto_lore, {odd: SCOPE})) as c:
        response = c.get("/", params={"token": odd}, follow_redirects=False)
    value = response.headers["set-cookie"].split(";")[0].split("=", 1)[1]
    assert unquote(value) == odd and ";" not in value and " " not in value
