// Appearance and sound: theme, font and text size, kept in localStorage under exactly
// `theme`, `font` and `textSize` (boot.js applies them before the first paint), and the
// table's sounds under `sound` (sound.js reads it at each play). The "Aa" button opens a
// dialog to change them; every change applies at once.
import { el } from "./dom.js";
import { play, rememberSound } from "./sound.js";

export const CHOICES = {
  theme: {
    legend: "Motyw",
    options: [
      ["light", "Jasny"],
      ["dark", "Ciemny"],
      ["system", "Jak w systemie"],
    ],
    default: "system",
  },
  font: {
    legend: "Czcionka",
    options: [
      ["system", "Zwykła"],
      ["atkinson", "Wyraźna"],
    ],
    default: "system",
  },
  textSize: {
    legend: "Rozmiar tekstu",
    options: [
      ["normal", "Zwykły"],
      ["large", "Większy"],
      ["larger", "Bardzo duży"],
    ],
    default: "normal",
  },
  sound: {
    legend: "Dźwięki",
    options: [
      ["off", "Wyłączone"],
      ["on", "Włączone"],
    ],
    default: "off",
  },
};

export function loadSettings() {
  const settings = {};
  for (const [key, choice] of Object.entries(CHOICES)) {
    let value = null;
    try {
      value = localStorage.getItem(key);
    } catch {
      // storage blocked
    }
    settings[key] = choice.options.some(([v]) => v === value) ? value : choice.default;
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
      el("legend", {}, choice.legend),
      choice.options.map(([value, label]) =>
        el(
          "label",
          { class: "choice" },
          el("input", { type: "radio", name: key, value, checked: settings[key] === value }),
          ` ${label}`,
        ),
      ),
    ),
  );
  const dialog = el(
    "dialog",
    { id: "settings-dialog", class: "dialog", "aria-labelledby": "settings-title" },
    el("h2", { id: "settings-title" }, "Wygląd i dźwięki"),
    groups,
    el(
      "p",
      { class: "dialog-buttons" },
      el("button", { type: "button", class: "button", "data-close": "" }, "Zamknij"),
    ),
  );
  dialog.addEventListener("change", (event) => {
    const input = event.target;
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

/** Wire the "Aa" button of the page (id `settings-open`). */
export function initSettings() {
  const settings = loadSettings();
  applySettings(settings);
  const button = document.getElementById("settings-open");
  if (!button) return;
  let dialog = null;
  button.addEventListener("click", () => {
    dialog ||= buildDialog(settings);
    dialog.showModal();
  });
}
