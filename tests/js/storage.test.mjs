// Every key the page writes to the browser's storage is named in the privacy table of
// every language (the terms page's documents): the modules that keep something are run
// against a recording storage, and the documents are read for each key it saw.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

function recording() {
  const items = new Map();
  return {
    written: new Set(),
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem(key, value) {
      this.written.add(key);
      items.set(key, String(value));
    },
    removeItem: (key) => items.delete(key),
    key: (i) => [...items.keys()][i] ?? null,
    get length() {
      return items.size;
    },
  };
}

globalThis.localStorage = recording();
globalThis.sessionStorage = recording();

const store = await import("../../src/tysiac/web/static/js/store.js");
const lang = await import("../../src/tysiac/web/static/js/lang.js");
// settings.js draws its dialog when it loads (no DOM here): its CHOICES are read as text.
const settingsSource = readFileSync(
  new URL("../../src/tysiac/web/static/js/settings.js", import.meta.url),
  "utf-8",
);
const choices = /export const CHOICES = \{([^;]*?)\n\};/.exec(settingsSource)[1];
const settingKeys = [...choices.matchAll(/^ {2}(\w+): \{ options:/gm)].map((m) => m[1]);

const terms = (code) =>
  readFileSync(
    new URL(`../../src/tysiac/catalogue/documents/${code}/terms.html`, import.meta.url),
    "utf-8",
  );

test("every stored key is in the privacy table of every language", () => {
  store.saveSeat("ABC123", { seat: 0, token: "t", nick: "Ala" });
  store.setNick("Ala");
  store.setOpts({ bid_step: 10 });
  store.setNotice("note");
  lang.chooseLanguage("en");
  // settings.js keeps each choice under its own name (saveSetting): the keys of CHOICES.
  assert.ok(settingKeys.includes("theme") && settingKeys.length >= 4, settingKeys.join(" "));
  for (const key of settingKeys) localStorage.setItem(key, "x");
  const keys = [...localStorage.written, ...sessionStorage.written];
  assert.ok(keys.length >= 9, keys.join(" "));
  for (const code of lang.LANGUAGES) {
    const text = terms(code);
    for (const key of keys) {
      const named = key.startsWith("tysiac-online:")
        ? "<code>tysiac-online:"
        : `<code>${key}</code>`;
      assert.ok(text.includes(named), `${code}: ${key} is not in the privacy table`);
    }
  }
});
