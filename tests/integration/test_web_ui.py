"""The "About You" page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Each test gets its own copy of one seeded SQLite database (three scopes: alice, bob and a scope
full of hostile strings) behind a real uvicorn server on 127.0.0.1, and drives the page the way
a person would. Run only these with ``pytest -m browser``.

Screenshots of every section are written to ``$USERLORE_SCREENSHOTS`` when set (the docs use
``USERLORE_SCREENSHOTS=docs/images``), otherwise to the test's temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from tests.conftest import FakeClock
from tests.support.about_you import (
    ALICE,
    BOB,
    CONFIG,
    MALLORY,
    TOKEN_A,
    TOKEN_B,
    TOKEN_M,
    TOKENS,
    XSS_FENCE,
    XSS_IMG,
    XSS_SCRIPT,
    XSS_SVG,
    Seeded,
    open_seeded,
    seed_all,
)
from userlore import Userlore
from userlore.server import create_app
from userlore.server.web_api import connect_source

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("USERLORE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SECTIONS = ("know", "inbox", "trash", "sources", "quality", "consent", "traces")
WEB = Path(__file__).resolve().parents[2] / "src" / "userlore" / "web"


@dataclass
class Template:
    root: Path
    seeded: Seeded
    now: datetime


@dataclass
class Served:
    url: str
    lore: Userlore
    seeded: Seeded
    root: Path

    def api(self, token: str = TOKEN_A) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
        )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    """Seed once per module; each test serves its own copy."""
    root = tmp_path_factory.mktemp("about-you-seed")
    lore, clock = open_seeded(root / "lore.db")
    seeded = seed_all(lore, clock, root)
    lore.close()
    return Template(root, seeded, clock.now)


@pytest.fixture
def served(template: Template, tmp_path: Path) -> Iterator[Served]:
    root = tmp_path / "served"
    shutil.copytree(template.root, root)
    lore = Userlore.open(
        f"sqlite:///{root / 'lore.db'}", config=CONFIG, clock=FakeClock(template.now)
    )
    app = create_app(lore, TOKENS)
    for scope, adapter in template.seeded.adapters(root):
        connect_source(app, scope, adapter)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield Served(f"http://127.0.0.1:{port}", lore, template.seeded, root)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        lore.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("USERLORE_SKIP_BROWSER") == "1":
            pytest.skip("browser tests skipped: USERLORE_SKIP_BROWSER=1")
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`, or "
            "`apt-get install -y chromium`), or set USERLORE_SKIP_BROWSER=1",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Tab:
    """One browser tab on the page, with every script error and CSP violation collected."""

    def __init__(self, browser: Any, served: Served, **options: Any) -> None:
        self.served = served
        self.context = browser.new_context(
            viewport={"width": 1280, "height": 860}, accept_downloads=True, **options
        )
        self.context.set_default_timeout(8000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self, section: str = "know", token: str | None = TOKEN_A) -> None:
        query = f"?token={token}" if token else ""
        self.page.goto(f"{self.served.url}/{query}#{section}")
        if token:
            self.wait(section)

    def wait(self, section: str) -> None:
        self.page.wait_for_selector(f"#view[data-ready='{section}'][aria-busy='false']")

    def nav(self, section: str) -> None:
        self.page.click(f"nav a[data-section='{section}']")
        self.wait(section)

    def card(self, record_id: str) -> Any:
        return self.page.locator(f"article[data-id='{record_id}']")

    def text(self) -> str:
        return str(self.page.locator("body").inner_text())

    def fetch(self, method: str, url: str, body: Any = None, csrf: str | None = "cookie") -> Any:
        """Call the API from inside the page (same origin, the tab's own token)."""
        return self.page.evaluate(
            """async ([method, url, body, csrf]) => {
                const bearer = sessionStorage.getItem("userlore.token");
                const headers = {Authorization: "Bearer " + bearer};
                if (csrf === "cookie") {
                    const m = document.cookie.match(/(?:^|; )userlore_csrf=([^;]*)/);
                    headers["X-Userlore-CSRF"] = m ? m[1] : "";
                } else if (csrf !== null) { headers["X-Userlore-CSRF"] = csrf; }
                const init = {method, headers};
                if (body !== null) {
                    headers["Content-Type"] = "application/json";
                    init.body = JSON.stringify(body);
                }
                const r = await fetch(url, init);
                return {status: r.status, body: await r.json().catch(() => null)};
            }""",
            [method, url, body, csrf],
        )

    def clean_toasts(self) -> None:
        self.page.evaluate("document.getElementById('toasts').replaceChildren()")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tab(browser: Any, served: Served) -> Iterator[Tab]:
    t = Tab(browser, served)
    yield t
    t.close()
    csp = [e for e in t.errors if "Content Security Policy" in e or "pageerror" in e]
    assert csp == [], csp  # the page itself never breaks its own policy or throws


def shots_dir(tmp_path: Path) -> Path:
    target = os.environ.get("USERLORE_SCREENSHOTS")
    folder = Path(target) if target else tmp_path / "shots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- static checks of what is shipped ------------------------------------------------------------


def test_page_ships_no_inline_script_no_markup_sinks_and_nothing_remote() -> None:
    html = (WEB / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S)
    assert scripts == [""]  # one module script with a src, nothing inline
    assert not re.search(r"\son[a-z]+\s*=", html)  # no inline event handlers
    assert not re.search(r"(?:src|href)\s*=\s*\"(?:https?:)?//", html)
    for js in WEB.glob("*.js"):
        code = js.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in code, f"{js.name} uses {sink}"
        assert not re.search(r"(?:import|from)\s+[\"']https?:", code), js.name
        assert not re.search(r"fetch\(\s*[\"'`]https?:", code), js.name
    css = (WEB / "app.css").read_text()
    assert "@import" not in css and "url(" not in css


def test_page_is_served_with_its_security_headers(served: Served) -> None:
    with httpx.Client(base_url=served.url) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        csp = page.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert page.headers["x-frame-options"] == "DENY"
        cookie = page.headers["set-cookie"]
        assert cookie.startswith("userlore_csrf=") and "samesite=strict" in cookie.lower()
        for name in re.findall(r"/ui/([\w.]+)", page.text):
            asset = client.get(f"/ui/{name}")
            assert asset.status_code == 200, name
            assert "content-security-policy" in asset.headers
        assert client.get("/ui/app.js").headers["content-type"].startswith("text/javascript")
        assert client.get("/ui/../pyproject.toml").status_code == 404
        assert client.get("/ui/nope.js").status_code == 404
        # the page holds no data: without a token the API answers 401
        assert client.get("/api/user-context/memories").status_code == 401


# -- every section on a seeded database ----------------------------------------------------------


def test_every_section_loads_and_is_screenshotted(tab: Tab, tmp_path: Path) -> None:
    folder = shots_dir(tmp_path)
    ids = tab.served.seeded.ids
    tab.open("know")
    page = tab.page
    kinds = page.locator("#view section.group").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert kinds == [
        "instruction",
        "identity",
        "tooling",
        "veto",
        "goal",
        "workspace_fact",
        "daily_note",
        "note",
    ]
    assert page.locator("#view h2", has_text="Workspace facts").count() == 1
    health = tab.card(ids["health"])
    assert "Needs your consent · Health" in health.inner_text()
    goal = tab.card(ids["goal"])
    goal.get_by_role("button", name="Evidence & history").click()
    page.wait_for_selector(f"article[data-id='{ids['goal']}'] li.version[data-version='2']")
    assert goal.locator("ins").first.inner_text() == "April."
    assert "agent-a · Claude Desktop · MacBook" in goal.inner_text()
    assert goal.locator("a.evidence-link").count() >= 1
    page.screenshot(path=str(folder / "about-you-know.png"), full_page=True)

    tab.nav("inbox")
    assert "Paused and queued for review" in tab.text()
    assert page.locator("article.paused .replacements article.candidate").count() == 1
    reviewer = tab.card(ids["reviewer"])
    assert "reviewer model" in reviewer.inner_text()
    assert "dark mode again" in reviewer.inner_text()  # its evidence
    page.screenshot(path=str(folder / "about-you-inbox.png"), full_page=True)

    tab.nav("trash")
    assert "Room Orion" in tab.text()
    page.screenshot(path=str(folder / "about-you-trash.png"), full_page=True)

    tab.nav("sources")
    card = page.locator("article.source[data-source='notes:alice']")
    assert card.locator("[data-stat='items']").inner_text() == "2"
    assert "succeeded" in card.inner_text()
    page.screenshot(path=str(folder / "about-you-sources.png"), full_page=True)

    tab.nav("quality")
    assert page.locator("svg.chart").count() >= 4
    assert "Review cadence" in tab.text() and "configured cadence" in tab.text()
    page.select_option("#quality-window", "7")
    page.wait_for_selector("#view[data-ready='quality'][aria-busy='false']")
    page.screenshot(path=str(folder / "about-you-quality.png"), full_page=True)

    tab.nav("consent")
    health_card = page.locator("article.consent[data-category='health']")
    assert "type 1 diabetes" in health_card.inner_text()
    assert "Not granted" in health_card.inner_text()
    page.screenshot(path=str(folder / "about-you-consent.png"), full_page=True)

    tab.nav("traces")
    assert page.locator("article.trace").count() >= 4
    assert page.locator("table.rejected tr[data-reason='consent_required']").count() >= 1
    page.fill("#plan-query", "plan my meals for the week")
    page.get_by_role("button", name="Plan context").click()
    page.locator(".latest-plan").wait_for()
    tab.clean_toasts()
    page.screenshot(path=str(folder / "about-you-traces.png"), full_page=True)

    for name in ("know", "inbox", "trash", "sources", "quality", "consent", "traces"):
        png = (folder / f"about-you-{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000, name


def test_sign_in_keeps_the_token_in_the_tab_only(tab: Tab) -> None:
    page = tab.page
    tab.open("know", token=None)
    page.wait_for_selector("#login form")
    page.fill("#token", "not-a-real-token-at-all")
    page.click("#login button[type=submit]")
    page.wait_for_selector("#login .error:has-text('not accepted')")
    page.fill("#token", TOKEN_A)
    page.click("#login button[type=submit]")
    tab.wait("know")
    assert "scope alice" in page.locator("#who").inner_text()
    tab.open("inbox")  # ?token= once: taken, then removed from the address bar
    assert "token=" not in page.url
    assert page.evaluate("sessionStorage.getItem('userlore.token')") == TOKEN_A
    assert page.evaluate("localStorage.length") == 0
    assert TOKEN_A not in page.evaluate("document.cookie")
    tab.nav("traces")
    page.fill("#plan-query", "diabetes")
    page.get_by_role("button", name="Plan context").click()
    page.locator(".latest-plan").wait_for()
    page.click("#signout")
    page.wait_for_selector("#login form")
    assert page.evaluate("sessionStorage.getItem('userlore.token')") is None
    # another person signing in on the same tab sees nothing the previous one left behind
    page.fill("#token", TOKEN_B)
    page.click("#login button[type=submit]")
    tab.wait("traces")
    assert "scope bob" in page.locator("#who").inner_text()
    assert page.locator(".latest-plan").count() == 0
    assert "diabetes" not in tab.text() and "Alice" not in tab.text()


# -- decisions and lifecycle ---------------------------------------------------------------------


def test_approve_edit_and_reject_candidates(tab: Tab) -> None:
    ids = tab.served.seeded.ids
    page = tab.page
    tab.open("inbox")
    tab.card(ids["location"]).get_by_role("button", name="Approve", exact=True).click()
    page.wait_for_selector(f"article[data-id='{ids['location']}']", state="detached")
    tab.card(ids["language"]).get_by_role("button", name="Reject").click()
    page.wait_for_selector(f"article[data-id='{ids['language']}']", state="detached")
    reviewer = tab.card(ids["reviewer"])
    reviewer.get_by_role("button", name="Edit & approve").click()
    reviewer.locator("textarea").fill("Prefers dark mode in every editor and terminal.")
    reviewer.get_by_role("button", name="Approve edited").click()
    page.wait_for_selector(f"article[data-id='{ids['reviewer']}']", state="detached")
    # the paused record's replacement: approving it archives the paused record
    replacement = page.locator("article.paused .replacements article.candidate")
    replacement_id = replacement.get_attribute("data-id")
    replacement.get_by_role("button", name="Approve", exact=True).click()
    page.wait_for_selector("article.paused", state="detached")
    assert "New candidates" in tab.text() and "Nothing waits for review." in tab.text()

    with tab.served.api() as api:
        state = {
            k: api.get(f"/api/user-context/memories/{ids[k]}").json()
            for k in ("location", "language", "reviewer", "style")
        }
        assert state["location"]["state"] == "active"
        assert state["language"]["state"] == "rejected"
        assert state["reviewer"]["state"] == "active"
        assert state["reviewer"]["content"] == "Prefers dark mode in every editor and terminal."
        assert state["style"]["state"] == "archived"
        assert api.get(f"/api/user-context/memories/{replacement_id}").json()["state"] == "active"
    tab.nav("know")
    assert "I'm based in Berlin" in tab.card(ids["location"]).inner_text()


def test_edit_makes_v2_with_its_diff_and_author(tab: Tab) -> None:
    rid = tab.served.seeded.ids["tooling"]
    page = tab.page
    tab.open("know")
    card = tab.card(rid)
    card.get_by_role("button", name="Edit").click()
    card.locator("textarea").fill("We use bun, not npm")
    card.get_by_role("button", name="Save as new version").click()
    page.wait_for_selector("#toasts .toast:has-text('Saved as v2')")
    v2 = page.locator(f"article[data-id='{rid}'] li.version[data-version='2']")
    v2.wait_for()
    assert "We use bun, not npm" in tab.card(rid).locator("p.content").inner_text()
    assert "bun," in " ".join(v2.locator("ins").all_inner_texts())
    assert "pnpm" in " ".join(v2.locator("del").all_inner_texts())
    assert "about-you · web page · browser" in v2.inner_text()  # the token's author
    v1 = page.locator(f"article[data-id='{rid}'] li.version[data-version='1']")
    assert "superseded" in v1.inner_text()
    with tab.served.api() as api:
        history = api.get(f"/api/user-context/memories/{rid}/history").json()["versions"]
    assert [v["version"] for v in history] == [1, 2]


def test_pin_forget_and_restore(tab: Tab) -> None:
    rid = tab.served.seeded.ids["veto"]
    page = tab.page
    tab.open("know")
    tab.card(rid).get_by_role("button", name="Pin").click()
    page.wait_for_selector(f"article[data-id='{rid}'] .badge-pin")
    tab.card(rid).get_by_role("button", name="Forget").click()
    page.wait_for_selector(f"article[data-id='{rid}']", state="detached")
    with tab.served.api() as api:
        assert api.get(f"/api/user-context/memories/{rid}").json()["state"] == "deleted"
        plan = api.post("/api/user-context/plan", json={"query": "jest"}).json()
        assert rid not in [s["id"] for s in plan["selected"]]
    tab.nav("trash")
    tab.card(rid).get_by_role("button", name="Restore").click()
    page.wait_for_selector(f"article[data-id='{rid}']", state="detached")
    tab.nav("know")
    assert "Never suggest jest" in tab.card(rid).inner_text()
    tab.card(rid).get_by_role("button", name="Unpin").click()
    page.wait_for_selector(f"article[data-id='{rid}'] .badge-pin", state="detached")
    with tab.served.api() as api:
        record = api.get(f"/api/user-context/memories/{rid}").json()
    assert (record["state"], record["user_state"], record["version"]) == ("active", "auto", 1)


def test_export_download_and_purge_behind_typed_confirmation(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.open("trash")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download export (JSON)").click()
    exported = json.loads(Path(info.value.path()).read_text())
    assert exported["scope"] == ALICE
    assert "Room Orion" in json.dumps(exported) and "Nightjar" not in json.dumps(exported)
    purge = page.get_by_role("button", name="Purge permanently")
    assert purge.is_disabled()
    confirm = page.get_by_label("Type the confirmation")
    confirm.fill("purge bob")
    assert purge.is_disabled()
    confirm.fill(f"purge {ALICE}")
    assert purge.is_enabled()
    purge.click()
    receipt = page.locator(".receipt")
    receipt.wait_for()
    assert "Purged: 0 residual rows" in receipt.inner_text()
    assert page.locator(".receipt-table tbody tr").count() >= 5
    page.wait_for_selector("#view .empty:has-text('The trash is empty.')")
    tab.clean_toasts()
    page.screenshot(path=str(shots_dir(tmp_path) / "about-you-purge.png"), full_page=True)
    with tab.served.api() as api:
        assert api.get("/api/user-context/memories").json()["count"] == 0
    with tab.served.api(TOKEN_B) as api:  # scoped: bob's data is untouched
        assert api.get("/api/user-context/memories").json()["count"] == 4


def test_granting_consent_lets_the_record_into_a_plan(tab: Tab) -> None:
    rid = tab.served.seeded.ids["health"]
    page = tab.page

    def plan(query: str) -> None:
        page.fill("#plan-query", query)
        page.get_by_role("button", name="Plan context").click()
        page.locator(".latest-plan").wait_for()

    tab.open("traces")
    plan("plan my meals: carbs and diabetes")
    latest = page.locator(".latest-plan")
    assert (
        latest.locator(
            f"table.rejected tr[data-id='{rid}'][data-reason='consent_required']"
        ).count()
        == 1
    )
    assert latest.locator(f"table.selected tr[data-id='{rid}']").count() == 0

    tab.nav("consent")
    health = page.locator("article.consent[data-category='health']")
    health.get_by_role("button", name="Grant consent").click()
    page.wait_for_selector("article.consent[data-category='health'] .badge-ok")
    assert "visible now (1 record)" in health.inner_text().lower()

    tab.nav("traces")
    plan("plan my meals: carbs and diabetes again")
    latest = page.locator(".latest-plan")
    latest.locator(f"table.selected tr[data-id='{rid}']").wait_for()
    assert "type 1 diabetes" in latest.locator("table.selected").inner_text()
    assert "type 1 diabetes" in latest.locator("pre").inner_text()  # in the fenced block

    tab.nav("know")
    assert "Consent given · Health" in tab.card(rid).inner_text()
    tab.nav("consent")
    page.locator("article.consent[data-category='health']").get_by_role(
        "button", name="Revoke consent"
    ).click()
    page.wait_for_selector("article.consent[data-category='health'] .badge-error")
    with tab.served.api() as api:
        consents = api.get("/api/user-context/consents").json()
        after = api.post("/api/user-context/plan", json={"query": "carbs diabetes"}).json()
    assert consents["granted"] == []
    assert {"id": rid, "reason": "consent_required"} in after["rejected"]


def test_sync_now_updates_the_source_card(tab: Tab) -> None:
    page = tab.page
    tab.open("sources")
    card = page.locator("article.source[data-source='notes:alice']")
    assert card.locator("[data-stat='items']").inner_text() == "2"
    folder = tab.served.root / tab.served.seeded.sources["notes:alice"][2]
    (folder / "retro.md").write_text(
        "---\ndate: 2026-01-05\n---\n# Retro notes\nRetros happen on Fridays at 16:00.\n"
    )
    card.get_by_role("button", name="Sync now").click()
    page.wait_for_selector("#toasts .toast:has-text('Synced: 1 added')")
    page.wait_for_selector(
        "article.source[data-source='notes:alice'] [data-stat='items']:has-text('3')"
    )
    card = page.locator("article.source[data-source='notes:alice']")
    added = card.locator(".counts div", has_text="added").locator("dd")
    assert added.inner_text() == "1"
    assert "Retro notes" in card.locator(".recent").inner_text()
    # the new fact links back to its source item
    card.locator(".recent a", has_text="Retro notes").click()
    tab.wait("item")
    assert "Retros happen on Fridays" in page.locator("pre.item-text").inner_text()
    tab.nav("know")
    assert "Retros happen on Fridays" in tab.text()


# -- safety --------------------------------------------------------------------------------------

_INERT_CHECK = """() => {
  const all = [...document.querySelectorAll("*")];
  return {
    xss: window.__xss === undefined ? null : String(window.__xss),
    handlers: all.filter(
      el => [...el.attributes].some(a => a.name.toLowerCase().startsWith("on"))
    ).length,
    scripts: document.querySelectorAll("script").length,
    imgs: document.querySelectorAll("#view img").length,
    badLinks: [...document.querySelectorAll("a[href]")].map(a => a.getAttribute("href"))
      .filter(h => !/^(#|https?:\\/\\/)/i.test(h)),
    iframes: document.querySelectorAll("iframe, object, embed").length,
  };
}"""


def test_hostile_record_content_stays_inert_text(browser: Any, served: Served) -> None:
    # CSP bypassed on purpose: the page must be safe by construction, not only by policy.
    tab = Tab(browser, served, bypass_csp=True)
    page = tab.page
    try:
        tab.open("know", token=TOKEN_M)
        visited = []
        for section in SECTIONS:
            if section != "know":
                tab.nav(section)
            result = page.evaluate(_INERT_CHECK)
            assert result == {
                "xss": None,
                "handlers": 0,
                "scripts": 1,
                "imgs": 0,
                "badLinks": [],
                "iframes": 0,
            }, (section, result)
            visited.append(section)
            if section == "know":
                text = tab.text()
                for payload in (XSS_SCRIPT, XSS_IMG, XSS_SVG, XSS_FENCE):
                    assert payload in text, payload  # shown, as text
                assert "javascript:window.__xss='href'" in text
                assert page.locator("#view svg").count() == 0
                safe = page.locator("#view a[href='https://example.com/safe-docs']")
                assert safe.count() == 2  # the note and the fact synthesized from evil.md
                assert safe.first.get_attribute("rel") == "noopener noreferrer nofollow"
                # open evidence and history of every record: their text is hostile too
                for button in page.get_by_role("button", name="Evidence & history").all():
                    button.click()
                page.wait_for_selector("li.version")
                assert page.evaluate(_INERT_CHECK)["handlers"] == 0
            if section == "inbox":
                assert XSS_SVG in tab.text() and XSS_SCRIPT in tab.text()  # candidate + evidence
            if section == "sources":
                assert XSS_IMG in page.locator("article.source h3").inner_text()
                page.locator("article.source .recent a").first.click()
                tab.wait("item")
                assert XSS_SCRIPT in page.locator("pre.item-text").inner_text()
                assert page.evaluate(_INERT_CHECK)["imgs"] == 0
                tab.nav("sources")
            if section == "traces":
                page.fill("#plan-query", "note xss diabetes")
                page.get_by_role("button", name="Plan context").click()
                page.locator(".latest-plan").wait_for()
                assert "<system>" in page.locator(".latest-plan").inner_text()
        assert visited == list(SECTIONS)
        page.wait_for_timeout(300)  # a delayed onerror/onload would have fired by now
        assert page.evaluate("window.__xss") is None
        assert tab.dialogs == []
    finally:
        tab.close()


def test_mutations_without_the_csrf_proof_are_refused(tab: Tab, served: Served) -> None:
    rid = served.seeded.ids["veto"]
    tab.open("know")
    url = f"/api/user-context/memories/{rid}"
    missing = tab.fetch("DELETE", url, csrf=None)
    wrong = tab.fetch("DELETE", url, csrf="guessed-value")
    assert missing["status"] == wrong["status"] == 403
    assert missing["body"]["error"]["code"] == "csrf_failed"
    for path in ("/api/user-context/consents/health/grant", "/api/user-context/purge"):
        refused = tab.fetch("POST", path, {"confirm": True} if "purge" in path else None, csrf=None)
        assert refused["status"] == 403, path
    with served.api() as api:
        assert api.get(url).json()["state"] == "active"  # nothing happened
        assert api.get("/api/user-context/consents").json()["granted"] == []
        # a cross-site request is refused even with a matching cookie and header
        evil = api.delete(
            url,
            headers={
                "Origin": "http://evil.example",
                "X-Userlore-CSRF": "v",
                "Cookie": "userlore_csrf=v",
            },
        )
        assert evil.status_code == 403 and evil.json()["error"]["code"] == "csrf_failed"
    # a cross-site page (about:blank: a foreign, opaque origin) posting a simple request, as a
    # hidden form would: no bearer, no proof, so it never reaches a handler (401: the bearer
    # is checked before any body is read, ahead of the CSRF proof)
    attacker = tab.context.new_page()
    with attacker.expect_response(lambda r: "/purge" in r.url) as response:
        attacker.evaluate(
            """url => { fetch(url, {method: "POST", mode: "no-cors", body: "confirm=true",
                headers: {"Content-Type": "application/x-www-form-urlencoded"}}); }""",
            f"{served.url}/api/user-context/purge",
        )
    assert response.value.status == 401
    attacker.close()
    # with the proof, the same tab's mutation goes through
    assert tab.fetch("DELETE", url)["status"] == 200
    with served.api() as api:
        assert api.get(url).json()["state"] == "deleted"
    tab.errors.clear()  # the refused fetches log 403s in the console, as expected


def test_one_scope_never_sees_another_scopes_data(tab: Tab, served: Served) -> None:
    ids = served.seeded.ids
    bob_words = ("Nightjar", "asthma", "bob-only", "Bob's notes")
    tab.open("know")
    for section in SECTIONS:
        if section != "know":
            tab.nav(section)
        text = tab.text()
        for word in bob_words:
            assert word not in text, (section, word)
    with served.api(TOKEN_B) as api:
        bob_item = api.get("/api/knowledge/source-items").json()["items"][0]["id"]
    probes = [
        ("GET", f"/api/user-context/memories/{ids['bob_secret']}", None),
        ("GET", f"/api/user-context/memories/{ids['bob_secret']}/history", None),
        ("GET", f"/api/user-context/memories/{ids['bob_health']}/evidence", None),
        ("GET", f"/api/knowledge/source-items/{bob_item}", None),
        ("POST", f"/api/user-context/memories/{ids['bob_secret']}/pin", None),
        ("DELETE", f"/api/user-context/memories/{ids['bob_secret']}", None),
        ("POST", "/api/knowledge/sources/sync", {"sourceInstanceId": "notes:bob"}),
    ]
    for method, path, body in probes:
        answer = tab.fetch(method, path, body)
        assert answer["status"] == 404, (method, path, answer)
    consents = tab.fetch("GET", "/api/user-context/consents")["body"]
    assert "asthma" not in json.dumps(consents)
    tab.errors.clear()
    # positive control: bob's own token does see bob's data on the page
    other = Tab(tab.context.browser, served)
    try:
        other.open("know", token=TOKEN_B)
        assert "Nightjar" in other.text()
        other.nav("sources")
        assert "Bob's notes" in other.text() and "Team notes" not in other.text()
    finally:
        other.close()
    with served.api(TOKEN_B) as api:
        assert (
            api.get(f"/api/user-context/memories/{ids['bob_secret']}").json()["user_state"]
            == "auto"
        )
        assert api.get("/api/user-context/whoami").json()["scope"] == BOB
    assert MALLORY not in tab.text()
