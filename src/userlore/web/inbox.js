// Review inbox: candidates waiting for a decision (approve, edit-and-approve, reject: the same
// decisions as the review subgraph), and records paused by remediation with their replacements.

import { del, get, path, post } from "./api.js";
import { badge, busy, button, empty, h, plural, when } from "./dom.js";
import { PRODUCER_LABEL, categoryLabel, contentBlock, evidenceList, recordHead, recordMeta } from "./records.js";

export const title = "Review inbox";

const PAUSE_REASON = {
  explicit_correction: "you corrected it in a conversation",
  negative_feedback: "answers that used it were rated not helpful",
};

function policyNotes(record, replaces) {
  const notes = [];
  if (record.sensitivity === "special") {
    notes.push(
      `Special category (${categoryLabel(record.sensitivity_category || "special")}): stored only with ask-before-reference, and kept out of every answer until you grant consent.`,
    );
  } else if (record.disclosure === "ask_before_reference") {
    notes.push("Ask before reference: kept out of answers until you consent.");
  }
  if (record.disclosure === "never") notes.push("Never disclosed: stored, but never used in answers.");
  if (record.durability && record.durability !== "durable") notes.push(`Durability: ${record.durability}.`);
  if (record.valid_until) notes.push(`Valid until ${when(record.valid_until)}.`);
  if (record.explicitness === "inferred") notes.push("Inferred, not stated: confidence is capped below explicit statements.");
  if (replaces) notes.push("Approving it archives the paused record it replaces.");
  return notes.length ? h("ul", { class: "policy" }, notes.map((n) => h("li", {}, n))) : null;
}

function confidenceMeter(value) {
  const meter = h("meter", { min: 0, max: 1, value: Number(value).toFixed(2), "aria-label": "confidence" });
  return h("span", { class: "confidence" }, meter, ` ${Number(value).toFixed(2)}`);
}

function candidateCard(record, ctx, evidence, replaces = null) {
  let body = contentBlock(record.content);
  const approve = button("Approve", () =>
    busy(approve, "Approving…", async () => {
      await post(path`/api/user-context/candidates/${record.id}/approve`);
      ctx.toast("Approved: it is part of what we know about you now");
      await ctx.refresh();
    }, ctx.toast), "primary");
  const reject = button("Reject", () =>
    busy(reject, "Rejecting…", async () => {
      await post(path`/api/user-context/candidates/${record.id}/reject`);
      ctx.toast("Rejected");
      await ctx.refresh();
    }, ctx.toast), "danger");
  const edit = button("Edit & approve", () => {
    const area = h("textarea", { rows: 3, class: "edit", "aria-label": "Edited content" });
    area.value = record.content;
    const save = button("Approve edited", () =>
      busy(save, "Approving…", async () => {
        await post(path`/api/user-context/candidates/${record.id}/edit`, { content: area.value });
        ctx.toast("Approved with your edit");
        await ctx.refresh();
      }, ctx.toast), "primary");
    const cancel = button("Cancel", () => form.replaceWith(body), "ghost");
    const form = h("div", { class: "edit-form" }, area, h("div", { class: "actions" }, save, cancel));
    body.replaceWith(form);
    area.focus();
  });
  return h(
    "article",
    { class: ["record", "card", "candidate"], dataset: { id: record.id } },
    recordHead(record, new Set(), [badge(PRODUCER_LABEL[record.producer] || record.producer, "producer")]),
    body,
    h("div", { class: "meta" }, "Producer ", h("strong", {}, record.producer), " · confidence ", confidenceMeter(record.confidence),
      ` · ${record.explicitness} · ${when(record.created_at)}`),
    policyNotes(record, replaces),
    h("details", { class: "evidence-box", open: true }, h("summary", {}, `Evidence (${evidence.length})`), evidenceList(evidence)),
    h("div", { class: "actions" }, approve, edit, reject),
  );
}

function pausedCard(record, ctx, reason, replacements, evidenceOf) {
  const keep = button("Keep it (re-activate)", () =>
    busy(keep, "…", async () => {
      await post(path`/api/user-context/candidates/${record.id}/approve`);
      ctx.toast("Re-activated");
      await ctx.refresh();
    }, ctx.toast));
  const forget = button("Forget it", () =>
    busy(forget, "…", async () => {
      await del(path`/api/user-context/memories/${record.id}`);
      ctx.toast("Moved to the trash");
      await ctx.refresh();
    }, ctx.toast), "danger");
  return h(
    "article",
    { class: ["record", "card", "paused"], dataset: { id: record.id } },
    h("p", { class: "banner" }, "Paused and queued for review",
      reason ? ` — ${PAUSE_REASON[reason] || reason}` : "", ". It is not used in answers meanwhile."),
    recordHead(record, new Set()),
    contentBlock(record.content),
    recordMeta(record),
    h("div", { class: "actions" }, keep, forget),
    replacements.length
      ? h("div", { class: "replacements" }, h("h4", {}, "Proposed replacement"),
        replacements.map((c) => candidateCard(c, ctx, evidenceOf(c.id), record)))
      : h("p", { class: "muted" }, "No replacement was proposed (the correction did not say what is true now)."),
  );
}

export async function render(ctx) {
  const [inbox, remediation] = await Promise.all([
    get("/api/user-context/candidates?limit=1000"),
    get("/api/user-context/traces?eventType=remediation&limit=500"),
  ]);
  const paused = inbox.memories.filter((m) => m.state === "needs_review");
  const pausedIds = new Set(paused.map((m) => m.id));
  const candidates = inbox.memories.filter((m) => m.state === "candidate");
  const evidence = new Map(
    await Promise.all(
      candidates.slice(0, 100).map(async (c) => [c.id, (await get(path`/api/user-context/memories/${c.id}/evidence`)).evidence]),
    ),
  );
  const evidenceOf = (id) => evidence.get(id) || [];
  const reasons = new Map();
  for (const trace of [...remediation.traces].reverse()) {
    const id = trace.payload && trace.payload.record_id;
    if (id) reasons.set(id, trace.reason_code);
  }
  const replacementsOf = (id) => candidates.filter((c) => c.supersedes_record_id === id);
  const fresh = candidates.filter((c) => !pausedIds.has(c.supersedes_record_id));

  const out = [
    h("p", { class: "lead" },
      `${plural(fresh.length, "candidate")} and ${plural(paused.length, "paused record")} wait for you. `,
      "Nothing here is used in answers until you approve it."),
  ];
  if (paused.length) {
    out.push(h("section", { class: "group" }, h("h2", {}, "Paused for review", h("span", { class: "count" }, String(paused.length))),
      paused.map((r) => pausedCard(r, ctx, reasons.get(r.id), replacementsOf(r.id), evidenceOf))));
  }
  out.push(h("section", { class: "group" }, h("h2", {}, "New candidates", h("span", { class: "count" }, String(fresh.length))),
    fresh.length ? fresh.map((c) => candidateCard(c, ctx, evidenceOf(c.id))) : empty("Nothing waits for review.")));
  return out;
}
