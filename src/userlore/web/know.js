// "What we know about you": active records by kind, with evidence, history and the actions a
// person needs to correct them (edit → new version, pin/unpin, forget).

import { del, get, patch, path, post } from "./api.js";
import { busy, button, empty, h, mount, plural } from "./dom.js";
import { GROUPS, GROUP_LABEL, consentGate, contentBlock, recordDetails, recordHead, recordMeta } from "./records.js";

export const title = "What we know about you";

function grantedSet(consents) {
  return new Set(consents.granted || []);
}

function recordCard(record, ctx, granted) {
  const open = ctx.state.open;
  const card = h("article", { class: "record card", dataset: { id: record.id } });
  const details = h("div", { class: "details", hidden: !open.has(record.id) });
  let body = contentBlock(record.content);

  const toggle = button(open.has(record.id) ? "Hide evidence & history" : "Evidence & history", async () => {
    if (open.has(record.id)) {
      open.delete(record.id);
      details.hidden = true;
      toggle.textContent = "Evidence & history";
      toggle.setAttribute("aria-expanded", "false");
      return;
    }
    open.add(record.id);
    toggle.textContent = "Hide evidence & history";
    toggle.setAttribute("aria-expanded", "true");
    details.hidden = false;
    await loadDetails();
  }, "ghost", { "aria-expanded": String(open.has(record.id)) });

  async function loadDetails() {
    details.replaceChildren(h("p", { class: "muted" }, "Loading…"));
    try {
      details.replaceChildren(await recordDetails(record.id));
    } catch (err) {
      details.replaceChildren(h("p", { class: "error" }, err.message));
    }
  }

  function startEdit() {
    const area = h("textarea", { rows: 3, class: "edit", "aria-label": "New content" });
    area.value = record.content;
    const save = button("Save as new version", () =>
      busy(save, "Saving…", async () => {
        const receipt = await patch(path`/api/user-context/memories/${record.id}`, { content: area.value });
        open.add(record.id);
        ctx.toast(`Saved as v${receipt.version}`);
        await ctx.refresh();
      }, ctx.toast), "primary");
    const cancel = button("Cancel", () => {
      form.replaceWith(body);
    }, "ghost");
    const form = h("div", { class: "edit-form" }, area, h("div", { class: "actions" }, save, cancel));
    body.replaceWith(form);
    area.focus();
  }

  const pinned = record.user_state === "pinned";
  const pin = button(pinned ? "Unpin" : "Pin", () =>
    busy(pin, "…", async () => {
      await post(path`/api/user-context/memories/${record.id}/${pinned ? "unpin" : "pin"}`);
      ctx.toast(pinned ? "Unpinned" : "Pinned: it stays in your profile");
      await ctx.refresh();
    }, ctx.toast));
  const forget = button("Forget", () =>
    busy(forget, "Forgetting…", async () => {
      await del(path`/api/user-context/memories/${record.id}`);
      ctx.toast("Moved to the trash: out of every answer now", "ok", {
        label: "Undo",
        action: async () => {
          await post(path`/api/user-context/memories/${record.id}/restore`);
          await ctx.refresh();
        },
      });
      await ctx.refresh();
    }, ctx.toast), "danger");

  const gate = consentGate(record, granted);
  mount(card,
    recordHead(record, granted),
    body,
    gate && !gate.granted
      ? h("p", { class: "note note-consent" },
        "Kept out of every answer until you grant consent for this category. ",
        h("a", { href: "#consent" }, "Review consent →"))
      : null,
    recordMeta(record),
    h("div", { class: "actions" }, button("Edit", startEdit), pin, forget, toggle),
    details,
  );
  if (open.has(record.id)) loadDetails();
  return card;
}

export async function render(ctx) {
  const [active, consents, inbox] = await Promise.all([
    get("/api/user-context/memories?state=active&limit=1000"),
    get("/api/user-context/consents"),
    get("/api/user-context/candidates?limit=1000"),
  ]);
  const granted = grantedSet(consents);
  const records = active.memories;
  const known = new Set(GROUPS.map(([kind]) => kind));
  const groups = new Map(GROUPS.map(([kind]) => [kind, []]));
  for (const record of records) {
    const kind = known.has(record.kind) ? record.kind : "note";
    groups.get(kind).push(record);
  }
  const waiting = inbox.memories.length;
  const summary = h(
    "p",
    { class: "lead" },
    `${plural(records.length, "active record")} shape the answers you get. `,
    waiting ? h("a", { href: "#inbox" }, `${plural(waiting, "item")} waiting for your review →`) : "Nothing is waiting for review.",
  );
  const sections = [];
  for (const [kind, list] of groups) {
    if (!list.length) continue;
    sections.push(
      h(
        "section",
        { class: "group", dataset: { kind } },
        h("h2", {}, GROUP_LABEL[kind], h("span", { class: "count" }, String(list.length))),
        list.map((record) => recordCard(record, ctx, granted)),
      ),
    );
  }
  return [summary, sections.length ? sections : empty("Nothing is known about you yet.")];
}
