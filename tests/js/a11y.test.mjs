// The Polish words of the table page (a11y.js) and the rule descriptions (options.js):
// both DOM-free.
import "./site.mjs"; // first: the server's answer to the page's /api/site
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as A from "../../src/tysiac/web/static/js/a11y.js";
import {
  OPTIONS,
  PRESETS,
  changedOptions,
  optionsLine,
  presetItems,
  presetOf,
  valueId,
  withDefaults,
} from "../../src/tysiac/web/static/js/options.js";

describe("a11y", () => {
  it("names cards, with the marriage they would score", () => {
    assert.equal(A.cardName("QH"), "dama kier");
    assert.equal(A.cardName("KS", 40), "król pik, meldunek 40");
    assert.equal(A.cardName("AD", 200), "as karo, cztery asy, 200");
  });

  it("chooses the Polish plural", () => {
    const kart = (n) => A.plural(n, "karta", "karty", "kart");
    assert.deepEqual([1, 2, 4, 5, 12, 14, 22, 25, 112].map(kart), [
      "karta",
      "karty",
      "karty",
      "kart",
      "kart",
      "kart",
      "karty",
      "kart",
      "kart",
    ]);
    assert.equal(A.durationText(120), "2 minuty");
    assert.equal(A.durationText(45), "45 sekund");
  });

  it("writes negative numbers with the typographic minus", () => {
    assert.equal(A.num(-40), "−40");
    assert.equal(A.signed(-40), "−40");
    assert.equal(A.signed(60), "+60");
    assert.equal(A.signed(0), "0");
  });

  it("tells a log entry and what it brought about", () => {
    const nick = (seat) => ["Ala", "Bartek", "Celina"][seat];
    const entry = {
      kind: "play",
      seat: 1,
      card: "KH",
      meld: { seat: 1, suit: "H", value: 100 },
      took: 2,
    };
    assert.deepEqual(A.logLines(entry, null, nick), [
      "Bartek: król kier.",
      "Bartek melduje kier za 100. Atut: kier.",
      "Lewę bierze Celina.",
    ]);
    assert.throws(() => A.eventText({ kind: "nonsense" }, nick), /unknown event kind/);
  });
});

describe("options", () => {
  it("lists only the rules that differ from the defaults", () => {
    assert.deepEqual(
      changedOptions({ bid_step: 10, bolts: true }).map((o) => [o.id, o.value]),
      [["V8", "tak"]],
    );
    assert.equal(optionsLine({}), "Zasady: zwykłe");
    assert.equal(optionsLine({ bid_step: 5, bolts: true }), "Zasady: krok licytacji co 5, Błoty");
  });
});

describe("presets", () => {
  const preset = (key) => PRESETS.find((p) => p.key === key);

  it("names a preset by where it plays, or by a line of help", () => {
    assert.equal(preset("gracz_pl").name, "Jak na gracz.pl");
    assert.match(preset("gracz_pl").where, /gracz\.pl/);
    assert.equal(preset("gracz_pl").help, null);
    assert.ok(preset("standard").help && preset("standard").where);
    assert.ok(preset("custom").help && preset("custom").where === null);
  });

  it("knows the preset complete options are, and none after an edit", () => {
    assert.equal(presetOf(withDefaults({})).key, "standard");
    const gracz = withDefaults(preset("gracz_pl").options);
    assert.equal(presetOf(gracz).key, "gracz_pl");
    assert.equal(presetOf({ ...gracz, bid_step: 5 }), null);
  });

  it("lists what a preset sets, the barrel off by its own id", () => {
    const items = presetItems(preset("gracz_pl"));
    assert.deepEqual(
      items.map((o) => [valueId(o, preset("gracz_pl").options[o.key]), o.value]),
      [
        ["V2", "do 360 dla każdego"],
        ["V6", "nie"],
        ["V16", "bez beczki"],
      ],
    );
    const barrel = OPTIONS.find((o) => o.key === "barrel");
    assert.equal(valueId(barrel, "880"), "V10");
    assert.deepEqual(presetItems(preset("standard")), []);
  });
});
