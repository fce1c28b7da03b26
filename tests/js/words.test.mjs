// words.js: the catalogue's lookup on the page. Run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { has, placeholders, setWords, t } from "../../src/tysiac/web/static/js/words.js";

const catalogue = JSON.parse(
  readFileSync(new URL("../../src/tysiac/catalogue/pl.json", import.meta.url), "utf-8"),
);

test("a key gives its text", () => {
  setWords({ "level.strong": "mocny" });
  assert.equal(t("level.strong"), "mocny");
  assert.ok(has("level.strong"));
});

test("named placeholders are filled, each wherever it stands", () => {
  setWords({ greet: "{nick}, masz {n} kart; {nick}!" });
  assert.equal(t("greet", { nick: "Ala", n: 7 }), "Ala, masz 7 kart; Ala!");
});

test("a missing parameter stays visible as its placeholder", () => {
  setWords({ greet: "Cześć, {nick}." });
  assert.equal(t("greet"), "Cześć, {nick}.");
});

test("a missing key shows as itself, in brackets, and is reported once", () => {
  setWords({});
  const warned = [];
  const original = console.warn;
  console.warn = (line) => warned.push(line);
  try {
    assert.equal(t("level.wizard"), "⟦level.wizard⟧");
    assert.equal(t("level.wizard"), "⟦level.wizard⟧");
  } finally {
    console.warn = original;
  }
  assert.equal(warned.length, 1);
  assert.ok(!has("level.wizard"));
});

test("no table (the server not reached) is an empty one", () => {
  setWords(undefined);
  assert.equal(t("phase.bidding"), "⟦phase.bidding⟧");
});

test("the real catalogue: every text fills with its own placeholders", () => {
  setWords(catalogue);
  assert.equal(t("error.already_seated", { nick: "Ala" }), "Już siedzisz przy tym stole jako Ala.");
  for (const [key, text] of Object.entries(catalogue)) {
    const params = Object.fromEntries(placeholders(text).map((name) => [name, `<${name}>`]));
    assert.doesNotMatch(t(key, params), /\{\w+\}/, key);
  }
});

test("the plural category is the language's CLDR rule (Intl.PluralRules)", async () => {
  const { counted, pluralForm } = await import("../../src/tysiac/web/static/js/words.js");
  const forms = (lang) =>
    [1, 2, 4, 5, 11, 12, 21, 22, 25, 101, 112].map((n) => pluralForm(n, lang));
  const pl = ["one", "few", "few", "many", "many", "many", "many", "few", "many", "many", "many"];
  assert.deepEqual(forms("pl"), pl);
  assert.deepEqual(forms("uk"), [
    ...["one", "few", "few", "many", "many", "many", "one", "few", "many", "one", "many"],
  ]);
  assert.deepEqual(forms("en"), ["one", ...Array(10).fill("other")]);
  const stems = { one: "{n} karta", few: "{n} karty", many: "{n} kart" };
  setWords(
    Object.fromEntries(Object.entries(stems).map(([form, text]) => [`count.cards.${form}`, text])),
    "pl",
  );
  assert.deepEqual(
    [1, 3, 5, -2].map((n) => counted("count.cards", n)),
    ["1 karta", "3 karty", "5 kart", "-2 karty"],
  );
  setWords({ "count.cards.one": "{n} card", "count.cards.other": "{n} cards" }, "en");
  assert.deepEqual(
    [1, 2, 21].map((n) => counted("count.cards", n)),
    ["1 card", "2 cards", "21 cards"],
  );
});

test("a refusal is worded from the table by its key and params, else the server's message", async () => {
  const { errorText } = await import("../../src/tysiac/web/static/js/words.js");
  setWords({ "error.ip_limit": "{limit} games already.", "moderation.appeal": "Write to us." });
  const body = {
    code: "ip_limit",
    key: "error.ip_limit",
    message: "Już {limit}",
    params: { limit: 5 },
  };
  assert.equal(errorText(body), "5 games already.");
  assert.equal(
    errorText({ code: "ip_limit", params: { limit: 2 }, message: "x" }),
    "2 games already.",
  );
  assert.equal(
    errorText({ ...body, more: [{ key: "moderation.appeal", params: {} }] }),
    "5 games already. Write to us.",
  );
  assert.equal(
    errorText({ code: "nick_taken", message: "Ten nick jest już zajęty." }),
    "Ten nick jest już zajęty.",
  );
  assert.equal(errorText({ ...body, more: [{ key: "moderation.unknown" }] }), "Już {limit}");
});

test("the page's language: the one chosen, else the browser's first the site has, else Polish", async () => {
  const { chooseLanguage, firstKnown, pageLanguage } =
    await import("../../src/tysiac/web/static/js/lang.js");
  assert.equal(firstKnown(["uk-UA", "pl"]), "uk");
  assert.equal(firstKnown(["de-DE", "en-GB", "uk"]), "en");
  assert.equal(firstKnown(["de", "fr"]), null);
  assert.equal(firstKnown([]), null);
  const stored = new Map();
  const saved = { localStorage: globalThis.localStorage, navigator: globalThis.navigator };
  Object.defineProperty(globalThis, "localStorage", {
    configurable: true,
    value: {
      getItem: (key) => stored.get(key) ?? null,
      setItem: (key, value) => stored.set(key, String(value)),
      removeItem: (key) => stored.delete(key),
    },
  });
  Object.defineProperty(globalThis, "navigator", {
    configurable: true,
    value: { languages: ["de-AT", "uk-UA"], language: "de-AT" },
  });
  try {
    assert.equal(pageLanguage(), "uk");
    chooseLanguage("en");
    assert.equal(stored.get("lang"), "en");
    assert.equal(pageLanguage(), "en");
    stored.set("lang", "xx"); // not a language of the site: the browser's again
    assert.equal(pageLanguage(), "uk");
    chooseLanguage(null);
    Object.defineProperty(globalThis, "navigator", {
      configurable: true,
      value: { languages: ["fr-FR"] },
    });
    assert.equal(pageLanguage(), "pl");
  } finally {
    for (const [name, value] of Object.entries(saved))
      Object.defineProperty(globalThis, name, { configurable: true, writable: true, value });
  }
});
