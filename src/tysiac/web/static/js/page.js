// The text pages (rules, terms and privacy, offline): appearance, installation, the
// operator's details from /api/site, and "Spróbuj ponownie" on the offline page.
import { $ } from "./dom.js";
import { siteInfo } from "./api.js";
import { initPwa } from "./pwa.js";
import { initSettings } from "./settings.js";

initSettings();
initPwa();

async function fillOperator() {
  if (!$("op-name")) return;
  try {
    const { operator } = await siteInfo();
    $("op-name").textContent = operator.name;
    $("op-address").textContent = operator.address || "nie podano";
    const email = $("op-email");
    email.textContent = operator.email || "nie podano";
    if (operator.email) {
      email.href = `mailto:${operator.email}`;
      for (const node of document.querySelectorAll("[data-email]")) {
        node.textContent = operator.email;
        node.href = `mailto:${operator.email}`;
      }
    }
  } catch {
    $("op-name").textContent = "nie udało się wczytać danych operatora (brak połączenia)";
  }
}

fillOperator();
$("retry")?.addEventListener("click", () => location.reload());
