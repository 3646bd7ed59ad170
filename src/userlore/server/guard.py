"""The request guard: bounds every request before authentication and before any parsing.

A pure ASGI middleware, outermost in the gateway, so nothing behind it (the bearer check, FastAPI's
JSON parser, pydantic, the store) ever sees an unbounded or hostile body:

- **Size.** A declared ``Content-Length`` above the limit is refused with ``413`` before a byte
  of the body is read; a streamed (chunked) body is counted as it arrives and refused as soon as
  it passes the limit, so an unauthenticated client can never make the server buffer more than
  the limit. Imports get the large limit (``max_body_bytes``, 10 MiB by default); every other
  endpoint takes small JSON bodies and gets ``max_api_body_bytes`` (1 MiB by default).
- **Depth.** A JSON body nested deeper than :data:`MAX_JSON_DEPTH` is refused with ``400`` from
  a byte scan (string contents skipped), before the parser or validators could recurse on it.
- **Text.** A NUL character (PostgreSQL cannot store it) or a lone surrogate (not Unicode) in any
  string of the body, the path or the query is refused with ``422 invalid_text`` naming the
  field, the same on every backend.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from userlore.validation import json_depth_exceeds, storable

__all__ = [
    "DEFAULT_MAX_API_BODY_BYTES",
    "DEFAULT_MAX_BODY_BYTES",
    "IMPORT_PATH",
    "MAX_JSON_DEPTH",
    "RequestGuard",
    "json_depth_exceeds",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_API_BODY_BYTES = 1024 * 1024
MAX_JSON_DEPTH = 64
IMPORT_PATH = "/api/user-context/import"

# After escaped backslashes are dropped, any remaining \u0000 is a real NUL inside a string.
_NUL_ESCAPE = re.compile(rb"\\u0000")
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
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
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class RequestGuard:
    """Refuse oversized, over-deep or NUL-carrying requests before anything else runs (ASGI).

    Args:
        app: The wrapped application.
        max_body_bytes: Limit for ``POST /api/user-context/import``.
        max_api_body_bytes: Limit for every other request (capped at ``max_body_bytes``).
        max_json_depth: Deepest accepted JSON nesting.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_api_body_bytes: int = DEFAULT_MAX_API_BODY_BYTES,
        max_json_depth: int = MAX_JSON_DEPTH,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_api_body_bytes = min(max_api_body_bytes, max_body_bytes)
        self.max_json_depth = max_json_depth

    def limit_for(self, path: str) -> int:
        """The body limit of ``path``: imports carry whole documents, the rest small bodies."""
        return self.max_body_bytes if path.rstrip("/") == IMPORT_PATH else self.max_api_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_target(scope)
            body = await self._read_body(scope, receive)
            if body is None:
                return  # the client went away
            self._check_body(scope, body)
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

    async def _read_body(self, scope: Scope, receive: Receive) -> bytes | None:
        limit = self.limit_for(str(scope.get("path", "")))
        for key, value in scope.get("headers", []):
            if key.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    raise _Refused(400, "bad_request", "content-length is not a number") from None
                if declared > limit:
                    raise _too_large(limit)
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > limit:
                raise _too_large(limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _check_body(self, scope: Scope, body: bytes) -> None:
        if not body or not _is_json(scope):
            return
        if json_depth_exceeds(body, self.max_json_depth):
            raise _Refused(
                400,
                "too_deep",
                f"body: JSON nested deeper than {self.max_json_depth} levels",
            )
        problem = _body_text_problem(body)
        if problem is not None:
            raise _Refused(422, "invalid_text", problem)


def _is_json(scope: Scope) -> bool:
    """FastAPI parses a body as JSON when it says so or says nothing."""
    for key, value in scope.get("headers", []):
        if key.lower() == b"content-type":
            return b"json" in value.lower()
    return True


def _too_large(limit: int) -> _Refused:
    return _Refused(413, "payload_too_large", f"body: larger than the limit of {limit} bytes")


async def _answer(send: Send, refused: _Refused) -> None:
    body = json.dumps({"error": {"code": refused.code, "message": refused.message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if refused.status == 413:
        headers.append((b"connection", b"close"))  # the unread rest of the body is abandoned
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
