"""The request guard: bounds every request, authenticates it before its body, then checks the body.

A pure ASGI middleware, outermost in the gateway, so nothing behind it (FastAPI's JSON parser,
pydantic, the store) ever sees an unbounded, unauthenticated or hostile body:

- **Authentication first.** A request that carries a body to a route needing a bearer token is
  checked (``authorize``) before a byte of its body is read; without a valid token it is answered
  ``401`` and the connection closed, so an anonymous body costs the server nothing but headers.
- **Time.** The body must arrive at a minimum rate: ``body_grace_seconds`` plus one second per
  ``min_body_rate`` bytes received, and never longer than ``body_timeout`` seconds in all;
  otherwise ``408`` and the connection is closed. (Slow *headers* are not covered here: uvicorn
  has no header timeout; put a reverse proxy in front of a public gateway.)
- **Size.** A declared ``Content-Length`` above the limit is refused with ``413`` before a byte
  of the body is read; a streamed (chunked) body is counted as it arrives and refused as soon as
  it passes the limit, so an unauthenticated client can never make the server buffer more than
  the limit. Imports get the large limit (``max_body_bytes``, 10 MiB by default); every other
  endpoint takes small JSON bodies and gets ``max_api_body_bytes`` (1 MiB by default).
- **Encoding.** A JSON body is decoded the way the parser decodes it (UTF-8, UTF-16 or UTF-32,
  detected as :func:`json.loads` does) and handed on as UTF-8, so the checks below read exactly
  the text the parser will; a body that is not valid in its encoding is refused with ``400``.
- **Depth and size of the parsed value.** A JSON body nested deeper than :data:`MAX_JSON_DEPTH`
  is refused with ``400 too_deep``, and one holding more than ``max_json_values`` values (counted
  from its brackets, commas and colons) with ``413``, from byte scans (string contents skipped)
  before the parser could recurse or allocate on it: parsing memory is bounded per request.
- **Text.** A NUL character (PostgreSQL cannot store it) or a lone surrogate (not Unicode) in any
  string of the body, the path or the query is refused with ``422 invalid_text`` naming the
  field, the same on every backend.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from userlore.validation import json_depth_exceeds, json_values_exceed, storable

__all__ = [
    "DEFAULT_BODY_GRACE_SECONDS",
    "DEFAULT_BODY_TIMEOUT",
    "DEFAULT_MAX_API_BODY_BYTES",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_JSON_VALUES",
    "DEFAULT_MIN_BODY_RATE",
    "IMPORT_PATH",
    "MAX_JSON_DEPTH",
    "Authorize",
    "RequestGuard",
    "bearer_token",
    "json_depth_exceeds",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Authorize = Callable[[Scope], bool]
"""Whether a request may have its body read: ``False`` answers ``401`` before reading it."""

DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_API_BODY_BYTES = 1024 * 1024
DEFAULT_MAX_JSON_VALUES = 500_000
DEFAULT_BODY_TIMEOUT = 60.0
DEFAULT_BODY_GRACE_SECONDS = 5.0
DEFAULT_MIN_BODY_RATE = 1024
MAX_JSON_DEPTH = 64
IMPORT_PATH = "/api/user-context/import"

# After escaped backslashes are dropped, any remaining \u0000 is a real NUL inside a string.
_NUL_ESCAPE = re.compile(rb"\\u0000")
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
    rb"|\xed[\xa0-\xbf]"  # a raw surrogate, as the parser's ``surrogatepass`` decoding lets in
)


def _text_problem(value: Any, where: str) -> str | None:
    """The first field (dotted path) whose text holds a NUL or a lone surrogate."""
    if isinstance(value, str):
        if storable(value):  # the core's rule (userlore.validation), answered with the field
            return None
        if "\x00" in value:
            return f"{where}: text must not contain NUL (\\u0000) characters"
        return f"{where}: text must be valid Unicode (no lone surrogates)"
    if isinstance(value, dict):
        for key, item in value.items():
            found = _text_problem(key, f"{where} key") or _text_problem(item, f"{where}.{key}")
            if found:
                return found
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found = _text_problem(item, f"{where}[{n}]")
            if found:
                return found
    return None


def _body_text_problem(body: bytes) -> str | None:
    unescaped = body.replace(b"\\\\", b"")
    if not (_NUL_ESCAPE.search(unescaped) or _LONE_SURROGATE.search(unescaped)):
        return None
    try:
        parsed = json.loads(body)
    except ValueError:
        return None  # not JSON at all: the parser answers 400
    return _text_problem(parsed, "body")


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str, *, close: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.close = close  # the unread rest of the body is abandoned with the connection


def bearer_token(scope: Scope) -> str | None:
    """The credentials of an ``Authorization: Bearer …`` header, read as ``HTTPBearer`` does."""
    for key, value in scope.get("headers", []):
        if key.lower() == b"authorization":
            scheme, _, credentials = bytes(value).decode("latin-1").partition(" ")
            return credentials if scheme.lower() == "bearer" and credentials else None
    return None


class RequestGuard:
    """Refuse oversized, unauthenticated, slow or hostile request bodies before anything else runs.

    Args:
        app: The wrapped application.
        max_body_bytes: Limit for ``POST /api/user-context/import``.
        max_api_body_bytes: Limit for every other request (capped at ``max_body_bytes``).
        max_json_depth: Deepest accepted JSON nesting.
        max_json_values: Most JSON values (strings, numbers, arrays, objects…) in one body.
        authorize: Whether a request may have its body read; ``None`` reads every body.
        body_timeout: Seconds the whole body may take to arrive.
        body_grace_seconds: Seconds allowed before the minimum rate starts to count.
        min_body_rate: Bytes per second the body must keep up after the grace period.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_api_body_bytes: int = DEFAULT_MAX_API_BODY_BYTES,
        max_json_depth: int = MAX_JSON_DEPTH,
        max_json_values: int = DEFAULT_MAX_JSON_VALUES,
        authorize: Authorize | None = None,
        body_timeout: float = DEFAULT_BODY_TIMEOUT,
        body_grace_seconds: float = DEFAULT_BODY_GRACE_SECONDS,
        min_body_rate: int = DEFAULT_MIN_BODY_RATE,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_api_body_bytes = min(max_api_body_bytes, max_body_bytes)
        self.max_json_depth = max_json_depth
        self.max_json_values = max_json_values
        self.authorize = authorize
        self.body_timeout = body_timeout
        self.body_grace_seconds = min(body_grace_seconds, body_timeout)
        self.min_body_rate = min_body_rate

    def limit_for(self, path: str) -> int:
        """The body limit of ``path``: imports carry whole documents, the rest small bodies."""
        return self.max_body_bytes if path.rstrip("/") == IMPORT_PATH else self.max_api_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_target(scope)
            self._check_declared_length(scope)
            if not _has_body(scope):
                await self.app(scope, receive, send)
                return
            if self.authorize is not None and not self.authorize(scope):
                raise _Refused(401, "unauthorized", "missing or invalid bearer token", close=True)
            body = await self._read_body(scope, receive)
            if body is None:
                return  # the client went away
            body = self._check_body(scope, body)
        except _Refused as refused:
            await _answer(send, refused)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _check_target(scope: Scope) -> None:
        if "\x00" in str(scope.get("path", "")):
            raise _Refused(422, "invalid_text", "path: must not contain NUL characters")
        query = bytes(scope.get("query_string", b""))
        if b"%00" in query or b"\x00" in query:
            raise _Refused(422, "invalid_text", "query: must not contain NUL characters")

    def _check_declared_length(self, scope: Scope) -> None:
        limit = self.limit_for(str(scope.get("path", "")))
        for key, value in scope.get("headers", []):
            if key.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    raise _Refused(400, "bad_request", "content-length is not a number") from None
                if declared > limit:
                    raise _too_large(limit)

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes | None:
        limit = self.limit_for(str(scope.get("path", "")))
        started = time.monotonic()
        chunks: list[bytes] = []
        size = 0
        while True:
            # The allowance grows with what has arrived: a trickle runs out of it, a steady
            # upload of any size below the limit does not (until the overall timeout).
            allowed = min(self.body_timeout, self.body_grace_seconds + size / self.min_body_rate)
            try:
                message = await asyncio.wait_for(receive(), allowed - (time.monotonic() - started))
            except TimeoutError:
                raise _Refused(
                    408, "request_timeout", "body: not received in time", close=True
                ) from None
            if message["type"] == "http.disconnect":
                return None
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _check_body(self, scope: Scope, body: bytes) -> bytes:
        """The body as the app will receive it (UTF-8 JSON), or a refusal."""
        if not body or not _is_json(scope):
            return body
        body = _as_utf8(scope, body)
        if json_depth_exceeds(body, self.max_json_depth):
            raise _Refused(
                400,
                "too_deep",
                f"body: JSON nested deeper than {self.max_json_depth} levels",
            )
        if json_values_exceed(body, self.max_json_values):
            raise _Refused(
                413,
                "payload_too_large",
                f"body: more than {self.max_json_values} JSON values",
                close=True,
            )
        problem = _body_text_problem(body)
        if problem is not None:
            raise _Refused(422, "invalid_text", problem)
        return body


def _has_body(scope: Scope) -> bool:
    """Whether the request announces a body (a length above zero, or a chunked transfer)."""
    for key, value in scope.get("headers", []):
        name = key.lower()
        if name == b"transfer-encoding" or (name == b"content-length" and int(value) > 0):
            return True
    return False


def _as_utf8(scope: Scope, body: bytes) -> bytes:
    """Decode ``body`` as :func:`json.loads` does (UTF-8/16/32 by its first bytes), as UTF-8.

    The headers are rewritten to the new length, so the parser reads exactly the checked bytes.
    """
    encoding = json.detect_encoding(body)
    if encoding == "utf-8":
        return body
    try:
        text = body.decode(encoding, "surrogatepass")
    except UnicodeDecodeError:
        raise _Refused(400, "bad_request", f"body: not valid {encoding.upper()}") from None
    utf8 = text.encode("utf-8", "surrogatepass")
    if not text.strip():  # only a byte-order mark: the parser would find no JSON value
        raise _Refused(400, "bad_request", "body: not valid JSON")
    scope["headers"] = [
        (key, str(len(utf8)).encode() if key.lower() == b"content-length" else value)
        for key, value in scope.get("headers", [])
    ]
    return utf8


def _is_json(scope: Scope) -> bool:
    """FastAPI parses a body as JSON when it says so or says nothing."""
    for key, value in scope.get("headers", []):
        if key.lower() == b"content-type":
            return b"json" in value.lower()
    return True


def _too_large(limit: int) -> _Refused:
    return _Refused(
        413, "payload_too_large", f"body: larger than the limit of {limit} bytes", close=True
    )


async def _answer(send: Send, refused: _Refused) -> None:
    body = json.dumps({"error": {"code": refused.code, "message": refused.message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if refused.status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    if refused.close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
