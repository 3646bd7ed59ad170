// Consent: special categories granted or revoked, when, and what each grant makes visible.

import { get, path, post } from "./api.js";
import { badge, busy, button, h, plural, when } from "./dom.js";
import { GROUP_LABEL, categoryLabel } from "./records.js";

export const title = "Consent";

function status(c) {
  if (c.granted) return badge(`Granted ${when(c.granted_at)}`, "ok");
  if (c.revoked_at) return badge(`Revoked ${when(c.revoked_at)}`, "error");
  return badge("Not granted", "soft");
}

function categoryCard(c, ctx) {
  const action = c.granted ? "revoke" : "grant";
  const btn = button(c.granted ? "Revoke consent" : "Grant consent", () =>
    busy(btn, "…", async () => {
      await post(path`/api/user-context/consents/${c.category}/${action}`);
      ctx.toast(c.granted
        ? `Consent for ${categoryLabel(c.category)} revoked: its records leave your answers now`
        : `Consent for ${categoryLabel(c.category)} granted`);
      await ctx.refresh();
    }, ctx.toast), c.granted ? "danger" : "primary");
  const visible = c.records.length
    ? h("ul", { class: "visible" }, c.records.map((r) => h("li", { dataset: { id: r.id } },
      h("span", { class: "visible-text" }, r.content),
      " ",
      badge(GROUP_LABEL[r.kind] || r.kind, "kind"),
      " ",
      r.enters_context ? badge(c.granted ? "in answers" : "enters answers when granted", c.granted ? "ok" : "consent")
        : badge(`${r.state.replace("_", " ")}: not in answers yet`, "soft"))))
    : h("p", { class: "muted" }, "Nothing stored in this category: a grant makes nothing visible now.");
  return h(
    "article",
    { class: ["card", "consent", c.granted ? "consent-on" : ""], dataset: { category: c.category } },
    h("div", { class: "consent-head" }, h("h3", {}, categoryLabel(c.category)), status(c)),
    h("h4", {}, c.granted ? `Visible now (${plural(c.visible, "record")})` : `What a grant makes visible (${plural(c.visible, "record")})`),
    visible,
    c.history.length
      ? h("details", { class: "consent-history" }, h("summary", {}, `History (${c.history.length})`),
        h("ul", {}, c.history.map((p) => h("li", {}, `granted ${when(p.granted_at)}`, p.revoked_at ? ` · revoked ${when(p.revoked_at)}` : " · still granted"))))
      : null,
    h("div", { class: "actions" }, btn),
  );
}

export async function render(ctx) {
  const data = await get("/api/user-context/consents");
  const cats = [...data.categories].sort((a, b) => (b.records.length > 0) - (a.records.length > 0) || a.category.localeCompare(b.category));
  return [
    h("p", { class: "lead" },
      "Health, religion, orientation and other special categories are never used in answers unless you consent. ",
      data.granted.length ? `Granted now: ${data.granted.map(categoryLabel).join(", ")}.` : "Nothing is granted."),
    h("div", { class: "grid" }, cats.map((c) => categoryCard(c, ctx))),
  ];
}
