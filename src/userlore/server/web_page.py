"""The "About You" page served at ``/``, and the CSRF rule for browser mutations.

The page is static (``userlore/web``: HTML, CSS, ES modules; no build step, nothing fetched from
elsewhere) and holds no data until the person gives it a bearer token; every call it makes goes
to the same JSON API as any other client, so one scope can never see another's data.

Defences, each independent of the others:

- **Content-Security-Policy** on the page and its assets: ``default-src 'self'``, no inline
  script, no inline style attributes, no plugins, no framing. The page also never builds markup
  from data (``textContent`` and DOM APIs only), so hostile record text stays inert even where
  the policy is bypassed (the browser tests run with it bypassed on purpose).
- **CSRF, double submit plus origin check**: ``GET /`` sets a random ``userlore_csrf`` cookie
  (``SameSite=Strict``); a mutating request (``POST``/``PUT``/``PATCH``/``DELETE`` under
  ``/api/``) that a browser sent must repeat that value in the ``X-Userlore-CSRF`` header and, if
  it carries ``Origin``, come from this server's own origin; otherwise it is refused with
  ``403 csrf_failed``. A browser request is recognised by the headers browsers always add and
  pages cannot remove or forge (``Origin``, ``Sec-Fetch-*``) or by a ``Cookie``. A cross-site
  page can neither read the cookie nor send a custom header without a CORS preflight this server
  never grants. Agents and SDKs (no browser headers) keep calling the API with the bearer token
  alone; the bearer token is itself never ambient (it lives in the tab's ``sessionStorage``).
- **Sign-in links never keep the token in a URL**: ``GET /?token=…`` answers ``303`` to the same
  page without the token and hands it over in a one-shot ``userlore_signin`` cookie (one minute,
  ``SameSite=Strict``, never accepted as a credential by the API); the page moves it into
  ``sessionStorage`` and deletes the cookie at once. The access log redacts query values
  (:mod:`userlore.server.access_log`), so the link's token is not written there either.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response

from userlore.server.web_api import (
    CSRF_COOKIE,
    CSRF_HEADER,
    AboutYouState,
    router,
    sources_from_environment,
)

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "SIGNIN_COOKIE",
    "install_about_you",
]

SIGNIN_COOKIE = "userlore_signin"
SIGNIN_SECONDS = 60
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
_MUTATING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_BROWSER_HEADERS = frozenset({b"origin", b"sec-fetch-site", b"sec-fetch-mode", b"cookie"})

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _assets() -> dict[str, bytes]:
    """The shipped page files by name (read once, on first request)."""
    folder = resources.files("userlore").joinpath("web")
    return {
        entry.name: entry.read_bytes()
        for entry in folder.iterdir()
        if entry.is_file() and any(entry.name.endswith(suffix) for suffix in _TYPES)
    }


def _cookie_value(raw: str, name: str) -> str | None:
    for part in raw.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


class CsrfMiddleware:
    """Refuse browser mutations under ``/api/`` without the double-submit proof (ASGI)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in _MUTATING
            and str(scope["path"]).startswith("/api/")
        ):
            problem = self.problem(scope)
            if problem is not None:
                body = json.dumps({"error": {"code": "csrf_failed", "message": problem}})
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [(b"content-type", b"application/json")],
                    }
                )
                await send({"type": "http.response.body", "body": body.encode()})
                return
        await self.app(scope, receive, send)

    @staticmethod
    def problem(scope: Scope) -> str | None:
        """Why this mutation is refused, or ``None`` when it may proceed."""
        headers: dict[bytes, bytes] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key.lower(), value)
        if not _BROWSER_HEADERS & headers.keys():
            return None  # not a browser: an agent or SDK, authenticated by its bearer token
        origin = headers.get(b"origin")
        if origin is not None:
            # Compare host and port only: behind a TLS-terminating proxy the scheme differs.
            host = origin.decode("latin-1").partition("://")[2].lower()
            if not host or host != headers.get(b"host", b"").decode("latin-1").lower():
                return "cross-origin request refused"
        site = headers.get(b"sec-fetch-site")
        if site is not None and site not in (b"same-origin", b"none"):
            return "cross-site request refused"
        cookie = _cookie_value(headers.get(b"cookie", b"").decode("latin-1"), CSRF_COOKIE)
        given = headers.get(CSRF_HEADER.lower().encode())
        if not cookie or given is None or not hmac.compare_digest(cookie.encode(), given):
            return f"missing or wrong {CSRF_HEADER} header (reload the page)"
        return None


def install_about_you(app: FastAPI, lore: Userlore) -> None:
    """Add the page at ``/``, its assets under ``/ui/``, its endpoints and the CSRF rule.

    Sources named by ``USERLORE_SOURCES_FILE`` are connected for "sync now"; more can be added
    with :func:`userlore.server.web_api.connect_source`.

    Raises:
        ConfigError: ``USERLORE_SOURCES_FILE`` is unreadable or malformed.
    """
    state = AboutYouState(lore)
    for scope, adapter in sources_from_environment():
        state.sources.connect(scope, adapter)
    app.state.about_you = state
    app.include_router(router)
    app.add_middleware(CsrfMiddleware)
    cache: dict[str, bytes] = {}

    def asset(name: str) -> Response | None:
        if not cache:
            cache.update(_assets())
        body = cache.get(name)
        if body is None:
            return None
        suffix = name[name.rfind(".") :]
        return Response(body, media_type=_TYPES[suffix], headers=_PAGE_HEADERS)

    @app.get("/", include_in_schema=False)
    def page(request: Request) -> Response:
        given = request.query_params.get("token")
        if given is not None:
            return _sign_in_redirect(request, given)
        response = asset("index.html")
        if response is None:  # pragma: no cover - the wheel always ships it
            return Response("page assets missing", status_code=500)
        response.set_cookie(
            CSRF_COOKIE, secrets.token_urlsafe(32), httponly=False, samesite="strict", path="/"
        )
        return response

    @app.get("/ui/{name}", include_in_schema=False)
    def page_asset(name: str) -> Response:
        found = asset(name) if name != "index.html" else None
        if found is None:
            return Response(
                json.dumps({"error": {"code": "not_found", "message": "no such asset"}}),
                status_code=404,
                media_type="application/json",
            )
        return found


def _sign_in_redirect(request: Request, token: str) -> Response:
    """``303`` to the page without ``token`` in its URL; the token rides a one-shot cookie."""
    rest = [(k, v) for k, v in request.query_params.multi_items() if k != "token"]
    target = "/" + ("?" + urlencode(rest) if rest else "")
    response = RedirectResponse(target, status_code=303, headers=_PAGE_HEADERS)
    if token.strip():
        response.set_cookie(
            SIGNIN_COOKIE,
            quote(token.strip(), safe=""),  # cookie-safe; the page decodes it
            max_age=SIGNIN_SECONDS,
            path="/",
            samesite="strict",
            secure=request.url.scheme == "https",
            httponly=False,  # the page reads it once into sessionStorage and deletes it
        )
    return response
