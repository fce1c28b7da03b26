// The text pages (rules, terms and privacy, offline): appearance, installation, the
// operator's details and the table options' names from /api/site, and "Spróbuj ponownie"
// on the offline page.
import { $ } from "./dom.js";
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
  $("op-name").textContent = operator.name;
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

/** The rules page names each table option by the catalogue: "Bomba (rozpisanie) (V7)". */
function nameOptions() {
  for (const option of site?.options ?? []) {
    const term = document.getElementById(option.id.toLowerCase());
    if (term)
      term.textContent = t("page.rules.option", {
        name: t(`option.${option.key}.name`),
        id: option.id,
      });
  }
}

fillOperator();
nameOptions();
$("retry")?.addEventListener("click", () => location.reload());
