// Appearance, sound and language: theme, font and text size, kept in localStorage under
// exactly `theme`, `font` and `textSize` (boot.js applies them before the first paint),
// the table's sounds under `sound` (sound.js reads it at each play), and the page's
// language under `lang` (lang.js). The "Aa" button opens a dialog to change them; every
// change applies at once: a new language reloads the page, which then asks the server for
// its words (every module names things once its words are there, so a reload redraws all).
import { el } from "./dom.js";
import { chooseLanguage } from "./lang.js";
import { play, rememberSound } from "./sound.js";
import { availableLanguages, lang, ready, t } from "./words.js";

// Each setting's values; its legend and the values' names are the catalogue's
// (settings.<key>, settings.<key>.<value>).
export const CHOICES = {
  theme: { options: ["light", "dark", "system"], default: "system" },
  font: { options: ["system", "atkinson"], default: "system" },
  textSize: { options: ["normal", "large", "larger"], default: "normal" },
  sound: { options: ["off", "on"], default: "off" },
};
const LEGENDS = {
  theme: "settings.theme",
  font: "settings.font",
  textSize: "settings.text_size",
  sound: "settings.sound",
};
const LABELS = {
  theme: {
    light: "settings.theme.light",
    dark: "settings.theme.dark",
    system: "settings.theme.system",
  },
  font: { system: "settings.font.system", atkinson: "settings.font.atkinson" },
  textSize: {
    normal: "settings.text_size.normal",
    large: "settings.text_size.large",
    larger: "settings.text_size.larger",
  },
  sound: { off: "settings.sound.off", on: "settings.sound.on" },
};

// Each language by its own name, which every catalogue spells the same ("English").
const LANGUAGE_NAMES = { pl: "language.pl", en: "language.en", uk: "language.uk" };

/** The switcher: "Język / Language / Мова", the languages the server has words of. */
function languageGroup() {
  return el(
    "fieldset",
    { class: "language" },
    el("legend", {}, t("settings.language")),
    availableLanguages().map((code) =>
      el(
        "label",
        { class: "choice", lang: code },
        el("input", { type: "radio", name: "lang", value: code, checked: code === lang() }),
        ` ${LANGUAGE_NAMES[code] ? t(LANGUAGE_NAMES[code]) : code}`,
      ),
    ),
  );
}

export function loadSettings() {
  const settings = {};
  for (const [key, choice] of Object.entries(CHOICES)) {
    let value = null;
    try {
      value = localStorage.getItem(key);
    } catch {
      // storage blocked
    }
    settings[key] = choice.options.includes(value) ? value : choice.default;
  }
  return settings;
}

export function applySettings(settings) {
  const root = document.documentElement;
  const set = (name, value) =>
    value ? root.setAttribute(name, value) : root.removeAttribute(name);
  set("data-theme", settings.theme === "system" ? null : settings.theme);
  set("data-font", settings.font === "atkinson" ? "atkinson" : null);
  set("data-text-size", settings.textSize === "normal" ? null : settings.textSize);
  // The browser's own bar follows the page (the meta tags carry both system colours).
  for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
    const scheme = meta.dataset.scheme;
    const matches = settings.theme === "system" ? scheme : settings.theme === scheme;
    meta.media =
      settings.theme === "system"
        ? `(prefers-color-scheme: ${scheme})`
        : matches
          ? "all"
          : "not all";
  }
}

function saveSetting(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

function buildDialog(settings) {
  const groups = Object.entries(CHOICES).map(([key, choice]) =>
    el(
      "fieldset",
      {},
      el("legend", {}, t(LEGENDS[key])),
      choice.options.map((value) =>
        el(
          "label",
          { class: "choice" },
          el("input", { type: "radio", name: key, value, checked: settings[key] === value }),
          ` ${t(LABELS[key][value])}`,
        ),
      ),
    ),
  );
  const dialog = el(
    "dialog",
    { id: "settings-dialog", class: "dialog", "aria-labelledby": "settings-title" },
    el("h2", { id: "settings-title" }, t("settings.title")),
    languageGroup(),
    groups,
    el(
      "p",
      { class: "dialog-buttons" },
      el("button", { type: "button", class: "button", "data-close": "" }, t("settings.close")),
    ),
  );
  dialog.addEventListener("change", (event) => {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.name === "lang") {
      chooseLanguage(input.value);
      location.reload(); // the words of the new language, and every module drawn with them
      return;
    }
    if (!(input instanceof HTMLInputElement) || !(input.name in CHOICES)) return;
    settings[input.name] = input.value;
    saveSetting(input.name, input.value);
    applySettings(settings);
    if (input.name === "sound") {
      rememberSound(input.value === "on");
      if (input.value === "on") play("turn"); // a sample, so the player hears that it works
    }
  });
  dialog.querySelector("[data-close]").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close(); // a click on the backdrop
  });
  document.body.append(dialog);
  return dialog;
}

/** Apply the saved appearance and wire the "Aa" button of the page (id `settings-open`).
 * Run when this module loads, before the page's words arrive (/api/site): a click waits
 * for them, so the button answers as soon as the page shows. */
function initSettings() {
  const settings = loadSettings();
  applySettings(settings);
  const button = document.getElementById("settings-open");
  if (!button) return;
  let dialog = null;
  button.addEventListener("click", async () => {
    await ready;
    dialog ||= buildDialog(settings);
    if (!dialog.open) dialog.showModal();
  });
}

initSettings();
