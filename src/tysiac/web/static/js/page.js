// The text pages (rules, terms and privacy, offline): appearance, installation, the
// operator's details, the table options' names and the create form's presets from
// /api/site, and "Spróbuj ponownie" on the offline page.
import { $, el } from "./dom.js";
import { OPTIONS, PRESETS, presetItems, valueId } from "./options.js";
import { initPwa } from "./pwa.js";
import "./settings.js"; // the "Aa" button, wired as soon as it loads
import { site } from "./site.js";
import { t } from "./words.js";

initPwa();

function fillOperator() {
  if (!$("op-name")) return;
  const operator = site?.operator;
  if (!operator) {
    $("op-name").textContent = t("page.operator.failed");
    return;
  }
  $("op-name").textContent = operator.name || t("page.operator.unset");
  $("op-address").textContent = operator.address || t("page.operator.none");
  const email = $("op-email");
  email.textContent = operator.email || t("page.operator.none");
  if (operator.email) {
    email.href = `mailto:${operator.email}`;
    for (const node of document.querySelectorAll("[data-email]")) {
      node.textContent = operator.email;
      node.href = `mailto:${operator.email}`;
    }
  }
}

/** The rules page names each table option by the catalogue: "Bomba (rozpisanie) (V7)",
 * and a value with an id of its own by its option and its name: "Beczka: bez beczki (V16)". */
function nameOptions() {
  for (const option of OPTIONS) {
    const term = document.getElementById(option.id.toLowerCase());
    if (term) term.textContent = t("page.rules.option", { name: option.name, id: option.id });
    for (const [value, name] of option.values) {
      const id = valueId(option, value);
      const own = id !== option.id && document.getElementById(id.toLowerCase());
      if (own) own.textContent = t("page.rules.value", { option: option.name, value: name, id });
    }
  }
}

/** The rules page lists each preset of the create form (rules/options.py PRESETS): its
 * name, where its tables play so, and every option it sets, each a link to its rule; so
 * the page says what the form does. */
function listPresets() {
  const list = $("preset-list");
  if (!list || !site) return;
  list.replaceChildren(
    ...PRESETS.filter((preset) => preset.options).flatMap((preset) => {
      const items = presetItems(preset).map((o) => {
        const id = valueId(o, preset.options[o.key]);
        const option = t("page.rules.option", { name: o.name, id });
        return el(
          "li",
          {},
          el("a", { href: `#${id.toLowerCase()}` }, t("options.item", { option, value: o.value })),
        );
      });
      return [
        el("h3", { id: `zestaw-${preset.key}` }, preset.name),
        el("p", {}, preset.where),
        items.length
          ? el("ul", { "aria-labelledby": `zestaw-${preset.key}` }, items)
          : el("p", {}, t("page.rules.preset.none")),
      ];
    }),
  );
}

fillOperator();
nameOptions();
listPresets();
$("retry")?.addEventListener("click", () => location.reload());
