// Trash: forgotten records with restore; export download; scoped purge behind a typed
// confirmation that shows the purge receipt (0 residual rows).

import { get, path, post } from "./api.js";
import { badge, busy, button, empty, h, plural, when } from "./dom.js";
import { GROUP_LABEL, contentBlock } from "./records.js";

export const title = "Trash";

function trashCard(record, ctx) {
  const restore = button("Restore", () =>
    busy(restore, "Restoring…", async () => {
      await post(path`/api/user-context/memories/${record.id}/restore`);
      ctx.toast("Restored, unchanged");
      await ctx.refresh();
    }, ctx.toast), "primary");
  return h(
    "article",
    { class: ["record", "card", "trashed"], dataset: { id: record.id } },
    h("div", { class: "record-head" }, badge(GROUP_LABEL[record.kind] || record.kind, "kind"), badge(`v${record.version}`, "soft")),
    contentBlock(record.content),
    h("div", { class: "meta" }, `Forgotten ${when(record.updated_at)} · not used in any answer or recall`),
    h("div", { class: "actions" }, restore),
  );
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url; // our own blob: URL, never data from a record
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportCard(ctx) {
  const btn = button("Download export (JSON)", () =>
    busy(btn, "Preparing…", async () => {
      const doc = await get("/api/user-context/export");
      download(`userlore-export-${ctx.whoami.scope.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`, JSON.stringify(doc, null, 2));
      ctx.toast("Export downloaded");
    }, ctx.toast), "primary");
  return h("section", { class: "card panel" },
    h("h3", {}, "Export"),
    h("p", {}, "Everything stored for your scope — records, versions, evidence, traces — as one userlore.export JSON document you can keep or import elsewhere."),
    btn);
}

function receiptView(receipt) {
  const tables = Object.keys({ ...receipt.deleted, ...receipt.residual }).sort();
  return h(
    "div",
    { class: ["receipt", receipt.residual_rows === 0 ? "receipt-ok" : "receipt-bad"] },
    h("p", { class: "receipt-title" },
      receipt.residual_rows === 0 ? "✓ Purged: 0 residual rows" : `⚠ Incomplete: ${receipt.residual_rows} residual rows`),
    h("p", { class: "muted" }, `Scope ${receipt.scope}${receipt.path_prefix ? `, path ${receipt.path_prefix}` : ""} · ${plural(receipt.deleted_rows, "row")} deleted · status ${receipt.status}`),
    h("table", { class: "receipt-table" },
      h("thead", {}, h("tr", {}, h("th", {}, "table"), h("th", {}, "deleted"), h("th", {}, "residual"))),
      h("tbody", {}, tables.map((t) => h("tr", {}, h("td", {}, t), h("td", {}, String(receipt.deleted[t] ?? 0)), h("td", {}, String(receipt.residual[t] ?? 0)))))),
  );
}

function purgeCard(ctx) {
  const phrase = `purge ${ctx.whoami.scope}`;
  const prefix = h("input", { type: "text", placeholder: "optional: only this path, e.g. projects/x", "aria-label": "Path prefix", autocomplete: "off" });
  const confirm = h("input", { type: "text", placeholder: phrase, "aria-label": "Type the confirmation", autocomplete: "off", spellcheck: "false" });
  const result = h("div", { class: "purge-result" });
  const go = button("Purge permanently", () =>
    busy(go, "Purging…", async () => {
      const body = { confirm: true };
      if (prefix.value.trim()) body.pathPrefix = prefix.value.trim();
      const receipt = await post("/api/user-context/purge", body);
      confirm.value = "";
      ctx.state.purgeReceipt = receipt; // shown again after the refresh below
      ctx.toast(receipt.residual_rows === 0 ? "Purged: 0 residual rows" : "Purge incomplete", receipt.residual_rows === 0 ? "ok" : "error");
      await ctx.refresh();
    }, ctx.toast).then(() => { go.disabled = confirm.value !== phrase; }), "danger", { disabled: true });
  if (ctx.state.purgeReceipt) result.append(receiptView(ctx.state.purgeReceipt));
  confirm.addEventListener("input", () => { go.disabled = confirm.value !== phrase; });
  return h("section", { class: ["card", "panel", "danger-zone"] },
    h("h3", {}, "Delete for good"),
    h("p", {}, "Purging hard-deletes every row of your scope (or of one path in it): records, versions, evidence, source items, traces. It cannot be undone. The receipt counts what is left afterwards — it should be 0."),
    h("label", {}, "Path prefix ", prefix),
    h("label", {}, "Type ", h("code", {}, phrase), " to confirm ", confirm),
    h("div", { class: "actions" }, go),
    result);
}

export async function render(ctx) {
  const trashed = await get("/api/user-context/memories?state=deleted&limit=1000");
  return [
    h("p", { class: "lead" }, `${plural(trashed.memories.length, "forgotten record")}. Forgotten records are out of every answer at once and can be restored unchanged.`),
    h("section", { class: "group" }, h("h2", {}, "Forgotten", h("span", { class: "count" }, String(trashed.memories.length))),
      trashed.memories.length ? trashed.memories.map((r) => trashCard(r, ctx)) : empty("The trash is empty.")),
    h("div", { class: "panels" }, exportCard(ctx), purgeCard(ctx)),
  ];
}
