// The deal review's pure part (review/model.js): the place the URL names, the keys'
// moves, a step's words and the verdicts' words, by the catalogue.
import "./site.mjs"; // first: the server's answer to the page's /api/site
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as M from "../../src/tysiac/web/static/js/review/model.js";

const steps = (n) => Array.from({ length: n }, () => ({}));
const HANDS = [{ steps: steps(5) }, { steps: steps(30) }, { steps: steps(1) }];
const NICKS = ["Ala", "Bartek", "Ola"];
const nickOf = (seat) => NICKS[seat];
const REVIEW = {
  players: 3,
  target: 1000,
  options: {},
  hands: [
    {
      dealer: 0,
      result: {
        end: "played",
        dealer: 0,
        declarer: 1,
        contract: 120,
        points: [20, 100, 0],
        melds: [0, 40, 0],
        made: true,
        delta: [20, 120, 0],
        scores: [20, 120, 0],
      },
    },
  ],
};

describe("review place", () => {
  it("reads hand and step from the query, counted from 1 and from 0", () => {
    assert.deepEqual(M.place("?rozdanie=2&krok=12", HANDS), { hand: 1, step: 12 });
    assert.deepEqual(M.place("", HANDS), { hand: 0, step: 0 });
    assert.deepEqual(M.place("?rozdanie=x&krok=-3", HANDS), { hand: 0, step: 0 });
  });

  it("clamps a place out of range", () => {
    assert.deepEqual(M.place("?rozdanie=9&krok=9", HANDS), { hand: 2, step: 0 });
    assert.deepEqual(M.place("?rozdanie=1&krok=99", HANDS), { hand: 0, step: 4 });
    assert.deepEqual(M.place("?rozdanie=0", HANDS), { hand: 0, step: 0 });
  });

  it("writes the query the page reads back", () => {
    const at = { hand: 1, step: 7 };
    assert.equal(M.query(at), "?rozdanie=2&krok=7");
    assert.deepEqual(M.place(M.query(at), HANDS), at);
  });

  it("moves by the keys, never past either end", () => {
    const at = { hand: 1, step: 3 };
    assert.deepEqual(M.moved(at, "ArrowRight", HANDS), { hand: 1, step: 4 });
    assert.deepEqual(M.moved(at, "ArrowLeft", HANDS), { hand: 1, step: 2 });
    assert.deepEqual(M.moved(at, "Home", HANDS), { hand: 1, step: 0 });
    assert.deepEqual(M.moved(at, "End", HANDS), { hand: 1, step: 29 });
    assert.deepEqual(M.moved(at, "PageUp", HANDS), { hand: 0, step: 0 });
    assert.deepEqual(M.moved(at, "ArrowDown", HANDS), { hand: 2, step: 0 });
    assert.deepEqual(M.moved({ hand: 0, step: 0 }, "ArrowLeft", HANDS), { hand: 0, step: 0 });
    assert.deepEqual(M.moved({ hand: 2, step: 0 }, "PageDown", HANDS), { hand: 2, step: 0 });
    assert.deepEqual(M.moved({ hand: 0, step: 4 }, "ArrowRight", HANDS), { hand: 0, step: 4 });
    assert.equal(M.moved(at, "a", HANDS), null);
  });
});

describe("review words", () => {
  it("writes cards short, with the suits' signs", () => {
    assert.equal(M.cardLabel("TS"), "10♠");
    assert.equal(M.cardLabel("QH"), "D♥");
  });

  it("says a step's event with every card shown", () => {
    const say = (event) => M.stepText(event, nickOf, REVIEW);
    assert.equal(say({ kind: "bid", seat: 1, value: 110 }), "Bartek licytuje 110.");
    assert.equal(say({ kind: "give", seat: 0, cards: { 2: "9H" } }), "Ala daje graczowi Ola: 9♥.");
    assert.equal(
      say({ kind: "play", seat: 2, card: "KH", meld: { seat: 2, suit: "H", value: 100 } }),
      "Ola gra K♥ — meldunek 100.",
    );
    assert.equal(say({ kind: "discard", seat: 1, cards: ["9S", "JS"] }), "Bartek odkłada: 9♠, W♠.");
    assert.match(
      say({ kind: "play", seat: 0, card: "AH", took: 0 }),
      /^Ala gra A♥\. Lewę bierze Ala\.$/,
    );
    assert.match(
      say({ kind: "play", seat: 0, card: "AH", result: 0 }),
      /Koniec rozdania\. Bartek, kontrakt 120/,
    );
    assert.match(
      say({ kind: "timeout", seat: 2, move: { kind: "play", seat: 2, card: "9S" } }),
      /^Ola: czas minął, ruch wykonał serwer\. Ola gra 9♠\.$/,
    );
    assert.match(say({ kind: "dealt", dealer: 0 }), /Rozdaje Ala/);
  });

  it("says a card's verdict by sign and words, not by colour", () => {
    const card = (mark, loss, best) => ({ mark, loss, best_cards: best });
    assert.equal(M.markText(card("best", 0, ["AS"])), "✓ najlepsza");
    assert.equal(M.markText(card("inaccuracy", 5, ["TS"])), "?! −5 pkt (lepsza: 10♠)");
    assert.equal(M.markText(card("mistake", 20, ["AS", "KS"])), "?? −20 pkt (lepsza: A♠, K♠)");
    assert.equal(M.markText(card("contract", 10, ["AS"])), "✗ oddany kontrakt (lepsza: A♠)");
  });

  it("says the hand at the start of play, and lists its mistakes worst first", () => {
    const analysis = {
      declarer: 1,
      contract: 120,
      open: { step: 5, best: 135, makeable: true, bid: "room" },
      cards: [
        { step: 5, seat: 1, card: "AS", mark: "best", loss: 0, best_cards: ["AS"] },
        { step: 6, seat: 2, card: "9S", mark: "inaccuracy", loss: 5, best_cards: ["TS"] },
        { step: 7, seat: 0, card: "KS", mark: "contract", loss: 20, best_cards: ["AH"] },
      ],
      mistakes: [2, 1],
    };
    const said = M.openText(analysis);
    assert.equal(
      said.open,
      "Z otwartymi kartami rozgrywający mógł ugrać najwyżej 135 przy kontrakcie 120 — kontrakt do zrobienia.",
    );
    assert.match(said.bid, /więcej/);
    assert.deepEqual(
      M.mistakes(analysis, nickOf).map((m) => [m.step, m.text]),
      [
        [7, "Krok 7: Ala, K♠ — ✗ oddany kontrakt (lepsza: A♥)"],
        [6, "Krok 6: Ola, 9♠ — ?! −5 pkt (lepsza: 10♠)"],
      ],
    );
    assert.equal(M.stepVerdict(analysis, 6).card, "9S");
    assert.equal(M.stepVerdict(analysis, 4), null);
    assert.equal(M.stepVerdict(null, 4), null);
  });

  it("names the table's barrel for the score sheet", () => {
    assert.equal(M.barrelOf({ target: 1000, options: {} }), 800);
    assert.equal(M.barrelOf({ target: 500, options: {} }), 300);
    assert.equal(M.barrelOf({ target: 1000, options: { barrel: "off" } }), null);
  });
});
