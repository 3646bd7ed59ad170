// Every element the page shows is built here with DOM APIs. Text always goes in as text nodes
// (createTextNode / textContent), never as markup, so record contents (hostile input) stay
// inert. Links are only ever http(s) or in-page "#..." links; anything else (javascript:,
// data:, vbscript:...) is shown as plain text.

const SVG_NS = "http://www.w3.org/2000/svg";

const HTML_ATTRS = new Set([
  "id", "type", "value", "placeholder", "title", "name", "for", "role", "rows", "cols",
  "min", "max", "step", "disabled", "hidden", "open", "autocomplete", "spellcheck", "tabindex",
  "target", "rel", "download", "datetime", "lang", "maxlength", "required", "autofocus",
  "selected", "checked", "colspan", "scope",
]);
const SVG_ATTRS = new Set([
  "viewBox", "width", "height", "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry",
  "d", "fill", "stroke", "stroke-width", "stroke-dasharray", "text-anchor", "dominant-baseline",
  "font-size", "font-weight", "opacity", "transform", "points", "preserveAspectRatio", "role",
  "class", "id",
]);

/** A URL that is safe to put in an href, or null. Only http(s) and in-page "#..." links. */
export function safeHref(value) {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (/^#[A-Za-z0-9_\-/=.:@%]*$/.test(text)) return text;
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

function setProps(el, props, allowed) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "href") {
      const safe = safeHref(value);
      if (safe !== null) el.setAttribute("href", safe);
    } else if (key.startsWith("on")) {
      if (typeof value !== "function") throw new TypeError(`${key} must be a function`);
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (allowed.has(key) || key.startsWith("aria-")) {
      el.setAttribute(key, value === true ? "" : String(value));
    } else {
      throw new Error(`attribute not allowed: ${key}`);
    }
  }
}

function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("p", {class: "x"}, "text", otherNode). */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  setProps(el, props, HTML_ATTRS);
  return appendAll(el, children);
}

/** An SVG element (charts): s("rect", {x: 0, width: 10}). */
export function s(tag, props = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props, SVG_ATTRS);
  return appendAll(el, children);
}

/** Replace the children of ``el``. */
export function mount(el, ...children) {
  el.replaceChildren();
  return appendAll(el, children);
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'`]+/g;

/** Text nodes with http(s) URLs turned into external links; every other scheme stays text. */
export function linkify(text) {
  const out = [];
  let last = 0;
  for (const match of String(text).matchAll(URL_RE)) {
    let url = match[0];
    const trail = /[.,;:!?)\]}]+$/.exec(url);
    if (trail) url = url.slice(0, -trail[0].length);
    const href = safeHref(url);
    if (href === null) continue;
    out.push(document.createTextNode(text.slice(last, match.index)));
    out.push(h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, url));
    last = match.index + url.length;
  }
  out.push(document.createTextNode(String(text).slice(last)));
  return out;
}

const DATE_FMT = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

/** "5 Jan 2026, 09:00 UTC" (UTC, so every viewer reads the same time). */
export function when(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : `${DATE_FMT.format(date)} UTC`;
}

export function pct(rate) {
  return rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)}%`;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A short, single-line preview of some text. */
export function excerpt(text, limit = 280) {
  const flat = String(text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

export function badge(text, tone = "") {
  return h("span", { class: ["badge", tone && `badge-${tone}`] }, text);
}

export function button(label, onClick, tone = "", props = {}) {
  return h("button", { type: "button", class: ["btn", tone && `btn-${tone}`], onClick, ...props }, label);
}

/** Run an async action from a button: disabled while it runs, errors shown as a toast. */
export async function busy(btn, label, action, toast) {
  const before = btn.textContent;
  btn.disabled = true;
  btn.textContent = label;
  try {
    return await action();
  } catch (err) {
    if (toast) toast(err.message || String(err), "error");
    return undefined;
  } finally {
    btn.disabled = false;
    btn.textContent = before;
  }
}

export function empty(text) {
  return h("p", { class: "empty" }, text);
}
