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

  // V15: results as the server's view has them (ResultView).
  const nick = (seat) => ["Ala", "Bartek", "Celina"][seat];
  const result = (fields) => ({
    dealer: 2,
    sitting_out: null,
    end: "played",
    declarer: 0,
    contract: 120,
    points: [0, 0, 0],
    melds: [0, 0, 0],
    made: false,
    delta: [0, 0, 0],
    scores: [0, 0, 0],
    winner: null,
    golden: true,
    reset: false,
    tie_break: null,
    ...fields,
  });
  const resigned = (declarer, scores, reset = false) =>
    result({
      declarer,
      end: "resign",
      made: null,
      delta: [0, 1, 2].map((s) => (s === declarer ? -240 : 120)),
      scores,
      reset,
    });

  it("tells a golden deal, a resign and the reset after the last golden hand", () => {
    const results = [
      resigned(0, [-240, 120, 120]),
      resigned(1, [-120, -120, 240]),
      resigned(2, [0, 0, 0], true),
    ];
    const view = { players: 3, results };
    assert.equal(
      A.eventText({ kind: "dealt", dealer: 0, golden: 2, declarer: 1 }, nick, view),
      "Nowe rozdanie. Rozdaje Ala. Złoty As: rozdanie 2 z 3 — gra Bartek, 120 w ciemno.",
    );
    assert.equal(
      A.eventText({ kind: "dealt", dealer: 0 }, nick, view),
      "Nowe rozdanie. Rozdaje Ala.",
    );
    assert.deepEqual(A.logLines({ kind: "resign", seat: 0, result: 0 }, view, nick), [
      "Ala rezygnuje ze Złotego Asa.",
      "Rezygnacja: Ala nie gra Złotego Asa. Ala −240, razem −240; Bartek +120, razem 120; Celina +120, razem 120.",
    ]);
    const last = A.logLines({ kind: "resign", seat: 2, result: 2 }, view, nick);
    assert.equal(last.at(-1), "Nikt nie ugrał Złotego Asa — gramy od zera.");
    assert.equal(A.goldenEnd(view, 1), ""); // not the last golden hand
  });

  it("says after the last golden hand that a made one keeps the scores", () => {
    const made = result({ declarer: 1, made: true, delta: [20, 240, 40], scores: [-220, 0, 280] });
    const view = {
      players: 3,
      results: [resigned(0, [-240, 120, 120]), made, resigned(2, [-120, 240, 40])],
    };
    assert.equal(A.goldenEnd(view, 2), "Złoty As ugrany — wyniki zostają.");
    assert.match(
      A.resultText(made, nick),
      /^Koniec rozdania ze Złotym Asem\. Bartek, kontrakt 120 w ciemno: ugrane/,
    );
  });

  it("ends a game without a barrel (V16) with who reached the target and how a tie went", () => {
    const game = { status: "finished" };
    const view = (scores, tieBreak, winner) => ({
      target: 1000,
      barrel: null,
      scores,
      outcome: { reason: "points", winner, loser: null },
      results: [result({ golden: false, scores, tie_break: tieBreak })],
    });
    assert.equal(
      A.outcomeText(game, view([1010, 940, 700], null, 0), nick),
      "Wygrywa Ala: 1010 pkt, gra do 1000.",
    );
    assert.equal(
      A.outcomeText(game, view([1010, 1030, 700], "highest", 1), nick),
      "Wygrywa Bartek: 1030 pkt, gra do 1000. Do 1000 doszli: Ala, Bartek. Wygrywa najwyższy wynik.",
    );
    assert.match(
      A.outcomeText(game, view([1020, 1020, 700], "order", 1), nick),
      /Przy równym wyniku wygrywa pierwszy w kolejności od gracza na musie\.$/,
    );
    const barrel = { ...view([1010, 940, 700], null, 0), barrel: 800 };
    assert.equal(
      A.outcomeText(game, barrel, nick),
      "Wygrywa Ala: ugrany kontrakt dał 1000 punktów.",
    );
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

describe("the words of another language", () => {
  it("rebuilds the card faces and names when the words change", async () => {
    const { site } = await import("./site.mjs");
    const { setWords } = await import("../../src/tysiac/web/static/js/words.js");
    const { LABELS } = await import("../../src/tysiac/web/static/js/cards.js");
    assert.equal(LABELS.Q, "D");
    const english = {
      ...site.words,
      "card.face.Q": "Q",
      "card.face.J": "J",
      "card.rank.Q": "queen",
      "card.suit.H": "hearts",
      "card.name": "{rank} of {suit}",
    };
    try {
      setWords(english, "en", ["pl", "en"]);
      assert.equal(LABELS.Q, "Q");
      assert.equal(LABELS.J, "J");
      assert.equal(A.cardName("QH"), "queen of hearts");
    } finally {
      setWords(site.words, site.lang, site.languages);
    }
    assert.equal(LABELS.Q, "D");
    assert.equal(A.cardName("QH"), "dama kier");
  });
});
