// Traces: recent context plans with the records they selected and every record they kept out,
// with its reason code, so a person can see why something was or wasn't used. Traces hold ids
// only; the text shown next to an id is looked up from the person's own records.

import { get, post } from "./api.js";
import { badge, busy, button, empty, excerpt, h, plural, when } from "./dom.js";
import { GROUP_LABEL } from "./records.js";

export const title = "Traces";

export const REASON_TEXT = {
  scope: "belongs to another scope",
  deleted: "in the trash",
  not_active: "not active (waiting for review, paused or archived)",
  forgotten: "you asked to forget it",
  not_yet_valid: "not valid yet",
  expired: "no longer valid",
  secret: "looks like a secret",
  regulated: "regulated identifier or financial data",
  never_disclose: "marked never to disclose",
  consent_required: "needs your consent for its category",
  class_budget: "its class already had enough records",
  budget: "the context budget was full",
  duplicate: "duplicate of a selected record",
};

const EVENT_TYPES = ["plan", "recall", "feedback", "remediation", "correction", "consent", "governance"];

function recordCell(id, records) {
  const r = records.get(id);
  return h("td", { class: "trace-record" },
    r ? [h("span", { class: "trace-text" }, excerpt(r.content, 140)), " ", badge(GROUP_LABEL[r.kind] || r.kind, "kind")] : h("code", {}, id),
    r && r.state !== "active" ? [" ", badge(r.state, "soft")] : null);
}

function planTable(selected, rejected, records) {
  return h("div", { class: "plan-tables" },
    h("h4", {}, `Selected (${selected.length})`),
    selected.length
      ? h("table", { class: "trace-table selected" },
        h("thead", {}, h("tr", {}, h("th", {}, "record"), h("th", {}, "section"), h("th", {}, "version"), h("th", {}, "score"))),
        h("tbody", {}, selected.map((e) => h("tr", { dataset: { id: e.id } }, recordCell(e.id, records), h("td", {}, e.section),
          h("td", {}, `v${e.v ?? e.version}`), h("td", {}, Number(e.score).toFixed(2))))))
      : h("p", { class: "muted" }, "Nothing was selected."),
    h("h4", {}, `Kept out (${rejected.length})`),
    rejected.length
      ? h("table", { class: "trace-table rejected" },
        h("thead", {}, h("tr", {}, h("th", {}, "record"), h("th", {}, "reason code"), h("th", {}, "why"))),
        h("tbody", {}, rejected.map((e) => h("tr", { dataset: { id: e.id, reason: e.reason } }, recordCell(e.id, records),
          h("td", {}, h("code", {}, e.reason)), h("td", {}, REASON_TEXT[e.reason] || "")))))
      : h("p", { class: "muted" }, "Nothing was kept out."));
}

function traceCard(trace, records) {
  const p = trace.payload || {};
  const head = h("div", { class: "trace-head" },
    badge(trace.event_type, "kind"),
    h("span", { class: "muted" }, ` ${when(trace.created_at)}`),
    trace.session_key ? h("span", { class: "muted" }, ` · session ${trace.session_key}`) : null,
    trace.event_type === "plan" ? h("span", { class: "muted" }, ` · ${trace.chars}/${p.budget ?? "?"} characters`) : null,
    trace.reason_code ? [" ", badge(trace.reason_code, "soft")] : null,
    trace.feedback ? [" ", badge(trace.feedback === "helpful" ? "rated helpful" : "rated not helpful", trace.feedback === "helpful" ? "ok" : "error")] : null);
  const body = trace.event_type === "plan"
    ? planTable(p.selected || [], p.rejected || [], records)
    : h("pre", { class: "payload" }, JSON.stringify(p, null, 2));
  return h("article", { class: ["card", "trace"], dataset: { trace: trace.id } }, head, body);
}

export async function render(ctx) {
  const type = ctx.state.traceType || "plan";
  const limit = ctx.state.traceLimit || 6;
  const [traces, live, trashed] = await Promise.all([
    get(`/api/user-context/traces?limit=${limit}${type === "all" ? "" : `&eventType=${encodeURIComponent(type)}`}`),
    get("/api/user-context/memories?limit=1000"),
    get("/api/user-context/memories?state=deleted&limit=1000"),
  ]);
  const records = new Map([...live.memories, ...trashed.memories].map((r) => [r.id, r]));

  const query = h("input", { type: "text", placeholder: "e.g. plan my meals for the week", "aria-label": "Query", id: "plan-query" });
  const result = h("div", { class: "plan-result" });
  const run = button("Plan context", () =>
    busy(run, "Planning…", async () => {
      const plan = await post("/api/user-context/plan", { query: query.value, sessionKey: "about-you-page" });
      ctx.state.lastPlan = plan;
      ctx.toast(`Planned: ${plural(plan.selected.length, "record")} selected, ${plan.rejected.length} kept out`);
      await ctx.refresh();
    }, ctx.toast), "primary");
  const form = h("form", { class: "plan-form", onSubmit: (e) => { e.preventDefault(); run.click(); } },
    h("label", { for: "plan-query" }, "Try a turn: "), query, run);
  if (ctx.state.lastPlan) {
    const plan = ctx.state.lastPlan;
    result.append(h("section", { class: "card trace latest-plan" },
      h("h3", {}, "Latest plan from this page"),
      planTable(plan.selected.map((e) => ({ ...e, v: e.version })), plan.rejected, records),
      h("h4", {}, `Context block (${plan.chars}/${plan.budget} characters)`),
      h("pre", { class: "payload" }, plan.text || "(empty)")));
  }

  const select = h("select", { "aria-label": "Event type" },
    [...EVENT_TYPES, "all"].map((t) => h("option", { value: t, selected: t === type }, t === "plan" ? "context plans" : t)));
  select.addEventListener("change", () => {
    ctx.state.traceType = select.value;
    ctx.refresh();
  });
  return [
    h("p", { class: "lead" }, "Every answer is planned: these traces show which records were used and why the others were kept out. Traces store ids and reason codes only, never your words."),
    h("div", { class: "toolbar" }, form, h("label", {}, "Show ", select)),
    result,
    traces.traces.length ? traces.traces.map((t) => traceCard(t, records)) : empty("No traces yet."),
    traces.count === limit && limit < 1000
      ? button("Show older traces", () => {
        ctx.state.traceLimit = Math.min(1000, limit + 20);
        ctx.refresh();
      })
      : null,
  ];
}
