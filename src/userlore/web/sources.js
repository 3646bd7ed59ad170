// Sources: one card per connected source, with its indexed items, latest sync and "sync now".

import { get, post } from "./api.js";
import { badge, busy, button, empty, excerpt, h, plural, when } from "./dom.js";

export const title = "Sources";

const STATUS_TONE = { succeeded: "ok", partial: "warn", failed: "error", running: "warn" };
const COUNT_KEYS = ["added", "modified", "deleted", "unchanged", "skipped", "blocked", "pending", "running"];

function runBlock(run) {
  if (!run) return h("p", { class: "muted" }, "Never synced.");
  const duration = run.duration_ms > 0 ? ` · took ${Math.round(run.duration_ms)} ms` : "";
  return h(
    "div",
    { class: "run" },
    h("div", { class: "run-head" }, badge(run.status, STATUS_TONE[run.status] || "soft"),
      h("span", { class: "muted" }, ` last sync ${when(run.finished_at || run.started_at)}${duration}`)),
    h("dl", { class: "counts" }, COUNT_KEYS.map((k) => h("div", {}, h("dt", {}, k), h("dd", {}, String(run.counts[k] ?? 0))))),
    run.warnings.length
      ? h("ul", { class: "warnings" }, run.warnings.map((w) => h("li", {}, `⚠ ${w}`)))
      : null,
    run.error ? h("p", { class: "error" }, run.error) : null,
  );
}

async function recentItems(source) {
  const query = new URLSearchParams({ sourceInstanceId: source.source_instance_id, limit: "4" });
  const data = await get(`/api/knowledge/source-items?${query}`);
  if (!data.items.length) return null;
  return h("div", { class: "recent" }, h("h4", {}, "Recent items"),
    h("ul", {}, data.items.map((item) => h("li", {},
      h("a", { href: `#item/${item.id}` }, item.title || item.external_id),
      // refused: the sensitivity floor would not store its fact; last_error is a fixed reason code
      item.synthesis_state === "refused" ? [" ", h("span", { title: item.last_error || "" }, badge("refused", "warn"))] : null,
      h("span", { class: "muted" }, ` — ${excerpt(item.text, 80)}`)))));
}

async function sourceCard(source, ctx) {
  const sync = button("Sync now", () =>
    busy(sync, "Syncing…", async () => {
      const result = await post("/api/knowledge/sources/sync", { sourceInstanceId: source.source_instance_id });
      const c = result.counts;
      const refused = result.synthesis?.refused ?? 0;
      const synced = `Synced: ${c.added ?? 0} added, ${c.modified ?? 0} modified, ${c.deleted ?? 0} deleted`
        + (refused ? `, ${plural(refused, "item")} refused as sensitive` : "");
      if (result.status === "failed") ctx.toast(`Sync failed: ${result.error || "unknown error"}`, "error");
      else if (result.status === "partial") ctx.toast(`${synced}; ${(c.pending ?? 0) + (c.running ?? 0)} still waiting for a worker`, "warn");
      else ctx.toast(synced, refused ? "warn" : "ok");
      await ctx.refresh();
    }, ctx.toast), "primary", { disabled: !source.syncable, title: source.syncable ? "" : "This source is not connected to this server" });
  return h(
    "article",
    { class: ["card", "source"], dataset: { source: source.source_instance_id } },
    h("div", { class: "source-head" }, h("h3", {}, source.label), badge(source.kind, "kind")),
    h("p", { class: "muted source-id" }, source.source_instance_id),
    h("div", { class: "stats" },
      h("div", { class: "stat" }, h("span", { class: "stat-value", dataset: { stat: "items" } }, String(source.items)), h("span", { class: "stat-label" }, "indexed items")),
      h("div", { class: "stat" }, h("span", { class: "stat-value", dataset: { stat: "pending" } }, String(source.pending)), h("span", { class: "stat-label" }, "pending synthesis")),
      h("div", { class: "stat", title: "Items holding content the sensitivity floor refuses to store as a fact" }, h("span", { class: "stat-value", dataset: { stat: "refused" } }, String(source.refused ?? 0)), h("span", { class: "stat-label" }, "refused as sensitive"))),
    runBlock(source.latest_run),
    await recentItems(source).catch(() => null),
    h("div", { class: "actions" }, sync, source.syncable ? null : h("span", { class: "muted" }, " not connected to this server")),
  );
}

export async function render(ctx) {
  const data = await get("/api/knowledge/sources");
  const cards = await Promise.all(data.sources.map((s) => sourceCard(s, ctx)));
  return [
    h("p", { class: "lead" }, `${plural(data.sources.length, "connected source")}. Source items are stored redacted; facts learned from them link back here as evidence.`),
    cards.length ? h("div", { class: "grid" }, cards) : empty("No connected sources yet."),
  ];
}
