// The "About You" page: sign-in with a bearer token, navigation between sections, toasts.
// Served by `userlore serve` at "/"; every section reads and writes the JSON API only.

import { ApiError, clearToken, get, path, setToken, takeTokenFromUrl, token } from "./api.js";
import { badge, button, h, mount, safeHref, when } from "./dom.js";
import * as consent from "./consent.js";
import * as inbox from "./inbox.js";
import * as know from "./know.js";
import * as quality from "./quality.js";
import * as sources from "./sources.js";
import * as traces from "./traces.js";
import * as trash from "./trash.js";

const SECTIONS = [
  ["know", "What we know", know],
  ["inbox", "Review inbox", inbox],
  ["trash", "Trash", trash],
  ["sources", "Sources", sources],
  ["quality", "Quality", quality],
  ["consent", "Consent", consent],
  ["traces", "Traces", traces],
];
const BY_ID = new Map(SECTIONS.map(([id, label, mod]) => [id, { id, label, mod }]));

const state = {};

/** Forget everything a previous sign-in left in this tab (it may have been another scope). */
function resetState() {
  Object.assign(state, { open: new Set(), window: 30, traceType: "plan", traceLimit: 6, lastPlan: null, purgeReceipt: null });
}
resetState();
const ui = {};
let whoami = null;
let renderSeq = 0;

function toast(message, tone = "ok", undo = null) {
  const box = h("div", { class: ["toast", `toast-${tone}`], role: tone === "error" ? "alert" : "status" }, message);
  if (undo) {
    box.append(" ", button(undo.label, async () => {
      box.remove();
      try {
        await undo.action();
      } catch (err) {
        toast(err.message, "error");
      }
    }, "link"));
  }
  ui.toasts.append(box);
  setTimeout(() => box.remove(), tone === "error" ? 9000 : 6000);
}

function currentRoute() {
  const hash = window.location.hash.replace(/^#/, "");
  if (hash.startsWith("item/")) return { id: "item", arg: decodeURIComponent(hash.slice(5)) };
  return { id: BY_ID.has(hash) ? hash : "know" };
}

async function refreshCounts() {
  try {
    const [waiting, trashed] = await Promise.all([
      get("/api/user-context/candidates?limit=1000"),
      get("/api/user-context/memories?state=deleted&limit=1000"),
    ]);
    setCount("inbox", waiting.count);
    setCount("trash", trashed.count);
  } catch {
    // counts are decoration; the section itself reports errors
  }
}

function setCount(id, n) {
  const el = ui.nav.querySelector(`[data-count="${id}"]`);
  if (el) {
    el.textContent = String(n);
    el.hidden = n === 0;
  }
}

async function itemView(itemId) {
  const item = await get(path`/api/knowledge/source-items/${itemId}`);
  const meta = Object.entries(item.meta || {});
  return [
    h("p", { class: "lead" }, h("a", { href: "#know" }, "← Back"), " · a redacted source item that evidence links to."),
    h("article", { class: "card item" },
      h("div", { class: "record-head" }, badge(item.pipeline.replace("_", " "), "kind"), item.blocked ? badge("blocked: sensitive content", "error") : null),
      h("h3", {}, item.title || item.external_id),
      h("p", { class: "muted" }, `${item.source_instance_id} · ${item.external_id} · ${when(item.occurred_at || item.created_at)}`),
      h("pre", { class: "item-text" }, item.text),
      meta.length
        ? h("dl", { class: "item-meta" }, meta.map(([k, v]) => {
          const value = v === null || typeof v !== "object" ? String(v) : JSON.stringify(v);
          const href = k === "url" ? safeHref(value) : null;
          return h("div", {}, h("dt", {}, k), h("dd", {}, href ? h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, value) : value));
        }))
        : null),
  ];
}

async function render() {
  const seq = ++renderSeq;
  const route = currentRoute();
  for (const link of ui.nav.querySelectorAll("a[data-section]")) {
    const active = link.dataset.section === route.id;
    link.classList.toggle("active", active);
    if (active) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const section = BY_ID.get(route.id);
  ui.title.textContent = section ? section.mod.title : "Source item";
  document.title = `${ui.title.textContent} · About You · userlore`;
  ui.view.setAttribute("aria-busy", "true");
  ui.view.dataset.section = route.id;
  const ctx = { state, toast, whoami, refresh: render, refreshCounts };
  let content;
  try {
    content = section ? await section.mod.render(ctx) : await itemView(route.arg);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      clearToken();
      showLogin("Your token was not accepted any more. Sign in again.");
      return;
    }
    content = h("p", { class: "error" }, `Could not load this section: ${err.message}`);
  }
  if (seq !== renderSeq) return; // a newer render won
  mount(ui.view, content);
  ui.view.setAttribute("aria-busy", "false");
  ui.view.dataset.ready = route.id;
  refreshCounts();
}

function showLogin(message = "") {
  ui.app.hidden = true;
  ui.login.hidden = false;
  const input = h("input", { type: "password", id: "token", autocomplete: "off", placeholder: "bearer token", "aria-label": "Bearer token", required: true });
  const error = h("p", { class: "error", role: "alert" }, message);
  const form = h("form", { class: "login-form", onSubmit: async (event) => {
    event.preventDefault();
    setToken(input.value);
    if (!(await start())) {
      error.textContent = "That token was not accepted.";
    }
  } },
  h("label", { for: "token" }, "Access token"), input, button("Sign in", null, "primary", { type: "submit" }), error);
  mount(ui.login, h("div", { class: "card login" },
    h("h1", {}, "About You"),
    h("p", {}, "See and govern what your assistants know about you. Sign in with the access token you were given; it stays in this browser tab only."),
    form));
  input.focus();
}

async function start() {
  if (!token()) {
    showLogin();
    return false;
  }
  try {
    whoami = await get("/api/user-context/whoami");
  } catch (err) {
    clearToken();
    showLogin(err instanceof ApiError && err.status === 401 ? "That token was not accepted." : err.message);
    return false;
  }
  if (state.scope !== whoami.scope) {
    resetState();
    state.scope = whoami.scope;
  }
  ui.login.hidden = true;
  ui.app.hidden = false;
  mount(ui.who, h("span", { class: "scope" }, "scope ", h("strong", {}, whoami.scope)),
    whoami.agent_id ? h("span", { class: "muted" }, ` as ${whoami.agent_id}`) : null);
  await render();
  return true;
}

function buildShell() {
  ui.app = document.getElementById("app");
  ui.login = document.getElementById("login");
  ui.nav = document.getElementById("nav");
  ui.view = document.getElementById("view");
  ui.title = document.getElementById("section-title");
  ui.who = document.getElementById("who");
  ui.toasts = document.getElementById("toasts");
  mount(ui.nav, SECTIONS.map(([id, label]) =>
    h("a", { href: `#${id}`, dataset: { section: id } }, label,
      id === "inbox" || id === "trash" ? h("span", { class: "nav-count", dataset: { count: id }, hidden: true }, "0") : null)));
  document.getElementById("signout").addEventListener("click", () => {
    clearToken();
    whoami = null;
    resetState();
    mount(ui.view);
    showLogin("Signed out.");
  });
  window.addEventListener("hashchange", () => {
    if (whoami) render();
  });
}

buildShell();
takeTokenFromUrl();
start();
