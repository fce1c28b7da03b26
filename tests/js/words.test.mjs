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
