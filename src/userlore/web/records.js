// Pieces shared by the sections: labels, record metadata, evidence, version history with diffs.

import { get, path } from "./api.js";
import { badge, excerpt, h, linkify, when } from "./dom.js";

export const GROUPS = [
  ["instruction", "Instructions"],
  ["preference", "Preferences"],
  ["style", "Style"],
  ["identity", "Identity"],
  ["tooling", "Tooling"],
  ["veto", "Vetoes"],
  ["goal", "Goals"],
  ["channel", "Channels"],
  ["workspace_fact", "Workspace facts"],
  ["daily_note", "Daily notes"],
  ["note", "Notes"],
];
export const GROUP_LABEL = Object.fromEntries(GROUPS);

export const PRODUCER_LABEL = {
  explicit: "your own words",
  reviewer: "reviewer model",
  source: "connected source",
  tool: "memory tool",
  facet: "facet learning",
  user: "you",
};

export const CATEGORY_LABEL = {
  health: "Health",
  religion: "Religion",
  sexual_orientation: "Sexual orientation",
  ethnicity: "Ethnicity",
  political_opinion: "Political opinion",
  biometric: "Biometrics",
  trade_union: "Trade-union membership",
  genetic: "Genetic data",
  criminal_record: "Criminal record",
};

export function categoryLabel(name) {
  return CATEGORY_LABEL[name] || String(name).replace(/_/g, " ");
}

/** Whether a record stays out of context until its category is granted. */
export function consentGate(record, granted) {
  const gated = record.sensitivity === "special" || record.disclosure === "ask_before_reference";
  if (!gated) return null;
  const category = record.sensitivity_category;
  return { category, granted: Boolean(category) && granted.has(category) };
}

export function authorText(author) {
  const a = author || {};
  const parts = [a.agent_id, a.client, a.device].filter(Boolean);
  return parts.length ? parts.join(" · ") : "unknown author";
}

export function recordAuthor(record) {
  return authorText({
    agent_id: record.author_agent_id,
    client: record.author_client,
    device: record.author_device,
  });
}

/** The record's text, with http(s) URLs as links and everything else as inert text. */
export function contentBlock(text) {
  return h("p", { class: "content" }, linkify(text));
}

export function recordHead(record, granted, extra = []) {
  const gate = consentGate(record, granted);
  return h(
    "div",
    { class: "record-head" },
    badge(GROUP_LABEL[record.kind] || record.kind, "kind"),
    record.canonical_key ? h("code", { class: "key" }, record.canonical_key) : null,
    record.user_state === "pinned" ? badge("Pinned", "pin") : null,
    gate && !gate.granted
      ? badge(`Needs your consent · ${categoryLabel(gate.category || "special")}`, "consent")
      : null,
    gate && gate.granted ? badge(`Consent given · ${categoryLabel(gate.category)}`, "ok") : null,
    extra,
  );
}

export function recordMeta(record) {
  return h(
    "div",
    { class: "meta" },
    `v${record.version} · ${record.explicitness} · confidence ${Number(record.confidence).toFixed(2)}`,
    ` · from ${PRODUCER_LABEL[record.producer] || record.producer}`,
    ` · by ${recordAuthor(record)} · updated ${when(record.updated_at)}`,
  );
}

function sourceName(item) {
  const source = String(item.source || "");
  if (source.startsWith("conversation:")) return "conversation";
  return source.replace(/^[a-z]+:/, (m) => `${m} `).trim();
}

export function evidenceList(items) {
  if (!items.length) return h("p", { class: "muted" }, "No evidence linked.");
  return h(
    "ul",
    { class: "evidence" },
    items.map((item) =>
      h(
        "li",
        {},
        h(
          "div",
          { class: "evidence-head" },
          badge(item.relation, "soft"),
          h("span", { class: "muted" }, ` ${sourceName(item)} · ${item.external_id} · ${when(item.occurred_at)} `),
          h("a", { href: `#item/${item.source_item_id}`, class: "evidence-link" }, "Open source item →"),
        ),
        h("blockquote", {}, excerpt(item.text, 360)),
      ),
    ),
  );
}

/** Word-level diff (LCS) of two texts: [{op: "same" | "del" | "ins", text}], or null if huge. */
export function wordDiff(before, after) {
  const a = String(before).split(/\s+/).filter(Boolean);
  const b = String(after).split(/\s+/).filter(Boolean);
  if (a.length * b.length > 400000) return null;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i * cols + j] = a[i] === b[j]
        ? table[(i + 1) * cols + j + 1] + 1
        : Math.max(table[(i + 1) * cols + j], table[i * cols + j + 1]);
    }
  }
  const out = [];
  const push = (op, word) => {
    const lastPart = out[out.length - 1];
    if (lastPart && lastPart.op === op) lastPart.text += ` ${word}`;
    else out.push({ op, text: word });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push("same", a[i]);
      i += 1;
      j += 1;
    } else if (table[(i + 1) * cols + j] >= table[i * cols + j + 1]) {
      push("del", a[i]);
      i += 1;
    } else {
      push("ins", b[j]);
      j += 1;
    }
  }
  while (i < a.length) push("del", a[i++]);
  while (j < b.length) push("ins", b[j++]);
  return out;
}

function diffView(before, after, fallback) {
  const parts = wordDiff(before, after);
  if (parts === null) return h("p", { class: "diff" }, fallback || "");
  return h(
    "p",
    { class: "diff" },
    parts.map((part, n) => {
      const gap = n ? " " : "";
      if (part.op === "del") return [gap, h("del", {}, part.text)];
      if (part.op === "ins") return [gap, h("ins", {}, part.text)];
      return [gap, part.text];
    }),
  );
}

export function historyList(versions) {
  const items = versions.map((v, n) => {
    const previous = n > 0 ? versions[n - 1] : null;
    return h(
      "li",
      { class: "version", dataset: { version: v.version } },
      h(
        "div",
        { class: "version-head" },
        h("strong", {}, `v${v.version}`),
        " ",
        badge(v.state, v.state === "superseded" ? "soft" : "ok"),
        h("span", { class: "muted" }, ` by ${authorText(v.author)} · ${when(v.created_at)}`),
        v.parent_version ? h("span", { class: "muted" }, ` · replaces v${v.parent_version}`) : null,
      ),
      previous
        ? [h("div", { class: "diff-label" }, `Changes from v${previous.version}`), diffView(previous.content, v.content, v.diff)]
        : h("p", { class: "version-content" }, v.content),
      previous && v.diff ? h("code", { class: "diff-raw" }, v.diff) : null,
    );
  });
  return h("ol", { class: "history" }, items);
}

/** Evidence and version history of one record, fetched on demand. */
export async function recordDetails(recordId) {
  const [evidence, history] = await Promise.all([
    get(path`/api/user-context/memories/${recordId}/evidence`),
    get(path`/api/user-context/memories/${recordId}/history`),
  ]);
  return h(
    "div",
    { class: "details-grid" },
    h("section", {}, h("h4", {}, "Evidence"), evidenceList(evidence.evidence)),
    h("section", {}, h("h4", {}, "Version history"), historyList(history.versions)),
  );
}
