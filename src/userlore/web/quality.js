// Quality over a selectable window, drawn as inline SVG charts: the candidate funnel (in total
// and by producer), acceptance rate and recall helpfulness against the thresholds that slow
// review down, the effective review cadence with its reason, and current record states.

import { get } from "./api.js";
import { h, pct, plural, s, when } from "./dom.js";
import { PRODUCER_LABEL } from "./records.js";

export const title = "Quality";

const WINDOWS = [7, 30, 90, 365];
const STAGE_COLOR = { approved: "#15803d", rejected: "#b91c1c", pending: "#d97706", deleted: "#6b7280" };
const CADENCE_REASON = {
  configured: "running at the configured cadence",
  adaptive_off: "adaptive cadence is off",
  disabled: "background review is disabled",
  mode: "the memory mode does not review",
  inbox_backlog: "the review inbox is backlogged",
  low_acceptance: "most proposals were rejected",
  low_helpfulness: "most rated answers were not helpful",
};

const W = 560;
const LABEL_W = 145;
const BAR_W = 320;
const ROW = 32;

function chart(heightPx, label, ...children) {
  return s("svg", { viewBox: `0 0 ${W} ${heightPx}`, width: "100%", role: "img", "aria-label": label, class: "chart" }, ...children);
}

function hbars(rows, label) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const height = rows.length * ROW + 10;
  return chart(height, label, rows.map((r, n) => {
    const y = 5 + n * ROW;
    const width = (r.value / max) * BAR_W;
    return s("g", { class: "bar-row" },
      s("text", { x: LABEL_W - 10, y: y + 18, "text-anchor": "end", class: "chart-label" }, r.label),
      s("rect", { x: LABEL_W, y: y + 4, width: BAR_W, height: 20, rx: 4, fill: "#eef0f4" }),
      s("rect", { x: LABEL_W, y: y + 4, width: Math.max(width, r.value ? 3 : 0), height: 20, rx: 4, fill: r.color }),
      s("text", { x: LABEL_W + BAR_W + 10, y: y + 18, class: "chart-value" }, String(r.value)));
  }));
}

function stacked(byProducer) {
  const producers = Object.keys(byProducer);
  if (!producers.length) return h("p", { class: "muted" }, "No candidates were proposed in this window.");
  const max = Math.max(1, ...producers.map((p) => byProducer[p].proposed));
  const stages = Object.keys(STAGE_COLOR);
  const height = producers.length * ROW + 40;
  const legend = stages.map((stage, n) => s("g", {},
    s("rect", { x: LABEL_W + n * 90, y: height - 22, width: 12, height: 12, rx: 2, fill: STAGE_COLOR[stage] }),
    s("text", { x: LABEL_W + n * 90 + 18, y: height - 12, class: "chart-small" }, stage)));
  return chart(height, "Candidates by producer", producers.map((p, n) => {
    const y = 5 + n * ROW;
    let x = LABEL_W;
    const parts = stages.map((stage) => {
      const w = (byProducer[p][stage] / max) * BAR_W;
      const rect = s("rect", { x, y: y + 4, width: w, height: 20, fill: STAGE_COLOR[stage] });
      x += w;
      return rect;
    });
    return s("g", {},
      s("text", { x: LABEL_W - 10, y: y + 18, "text-anchor": "end", class: "chart-label" }, PRODUCER_LABEL[p] || p),
      parts,
      s("text", { x: x + 8, y: y + 18, class: "chart-value" }, String(byProducer[p].proposed)));
  }), legend);
}

function rateBars(rows) {
  const ROW_H = 58;
  const height = rows.length * ROW_H + 26;
  const mid = LABEL_W + BAR_W / 2;
  return chart(height, "Acceptance and helpfulness", rows.map((r, n) => {
    const y = 8 + n * ROW_H;
    const width = r.rate === null ? 0 : r.rate * BAR_W;
    const color = r.rate === null ? "#9ca3af" : r.rate < 0.5 ? "#b91c1c" : "#15803d";
    return s("g", {},
      s("text", { x: LABEL_W - 10, y: y + 18, "text-anchor": "end", class: "chart-label" }, r.label),
      s("rect", { x: LABEL_W, y: y + 4, width: BAR_W, height: 20, rx: 4, fill: "#eef0f4" }),
      s("rect", { x: LABEL_W, y: y + 4, width, height: 20, rx: 4, fill: color }),
      s("line", { x1: mid, x2: mid, y1: y, y2: y + 28, stroke: "#374151", "stroke-dasharray": "3 3", "stroke-width": 1.5 }),
      s("text", { x: LABEL_W + BAR_W + 10, y: y + 18, class: "chart-value" }, r.rate === null ? "no data" : pct(r.rate)),
      s("text", { x: LABEL_W, y: y + 44, class: "chart-small" }, r.detail));
  }),
  s("text", { x: LABEL_W, y: height - 6, class: "chart-small" }, "┆ 50%: review slows down below this line (≥ 10 samples)"));
}

function cadenceChart(cadence) {
  const max = Math.max(cadence.interval, cadence.configured, 1);
  const rows = [
    { label: "configured", value: cadence.configured, color: "#6366f1" },
    { label: "effective", value: cadence.interval, color: cadence.interval > cadence.configured ? "#d97706" : "#15803d" },
  ];
  return chart(rows.length * ROW + 10, "Review cadence", rows.map((r, n) => {
    const y = 5 + n * ROW;
    return s("g", {},
      s("text", { x: LABEL_W - 10, y: y + 18, "text-anchor": "end", class: "chart-label" }, r.label),
      s("rect", { x: LABEL_W, y: y + 4, width: (r.value / max) * BAR_W * 0.8, height: 20, rx: 4, fill: r.color }),
      s("text", { x: LABEL_W + (r.value / max) * BAR_W * 0.8 + 10, y: y + 18, class: "chart-value" }, plural(r.value, "turn")));
  }));
}

function panel(heading, ...body) {
  return h("section", { class: "card panel" }, h("h3", {}, heading), ...body);
}

export async function render(ctx) {
  const days = ctx.state.window || 30;
  const q = await get(`/api/user-context/quality?windowDays=${days}`);
  const select = h("select", { "aria-label": "Window", id: "quality-window" },
    WINDOWS.map((d) => h("option", { value: String(d), selected: d === days }, `last ${d} days`)));
  select.addEventListener("change", () => {
    ctx.state.window = Number(select.value);
    ctx.refresh();
  });
  const f = q.funnel;
  const cadence = q.cadence;
  const reasons = (cadence.reasons.length ? cadence.reasons : [cadence.reason]).map((r) => CADENCE_REASON[r] || r);
  const states = Object.entries(q.states).filter(([, n]) => n > 0);
  return [
    h("div", { class: "toolbar" }, h("p", { class: "lead" }, `Since ${when(q.since)}.`), h("label", {}, "Window ", select)),
    h("div", { class: "panels" },
      panel("Candidate funnel",
        hbars([
          { label: "proposed", value: f.proposed, color: "#6366f1" },
          { label: "approved", value: f.approved, color: STAGE_COLOR.approved },
          { label: "rejected", value: f.rejected, color: STAGE_COLOR.rejected },
          { label: "pending", value: f.pending, color: STAGE_COLOR.pending },
          { label: "deleted", value: f.deleted, color: STAGE_COLOR.deleted },
        ], "Candidate funnel")),
      panel("By producer", stacked(f.by_producer)),
      panel("Acceptance and recall helpfulness",
        rateBars([
          { label: "acceptance", rate: q.acceptance_rate, detail: `${q.acceptance.accepted} accepted of ${plural(q.acceptance.decisions, "review decision")}` },
          { label: "helpfulness", rate: q.recall_helpfulness, detail: `${q.helpfulness.helpful} helpful of ${plural(q.helpfulness.ratings, "rated answer")} that used what we know` },
        ])),
      panel("Review cadence",
        cadenceChart(cadence),
        h("p", { class: "cadence-reason" }, `Background review runs every ${plural(cadence.interval, "user turn")} — ${reasons.join("; ")}.`),
        h("p", { class: "muted" }, `${plural(cadence.pending_candidates, "candidate")} waiting · adaptive ${cadence.adaptive ? "on" : "off"} · review ${cadence.enabled ? "enabled" : "disabled"}`)),
      panel("Record states now",
        states.length
          ? hbars(states.map(([state, n]) => ({ label: state.replace("_", " "), value: n, color: "#64748b" })), "Record states")
          : h("p", { class: "muted" }, "No records yet."),
        h("p", { class: "muted" }, `Paused by remediation in this window: ${q.remediation.paused ?? 0} · corrections: ${q.remediation.corrections ?? 0}`)),
    ),
  ];
}
