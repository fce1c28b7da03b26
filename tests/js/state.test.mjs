// The table page's pure state functions (state.js): snapshots, the own hand, and the
// bookkeeping of what the page drew before (motion, the move log, the turn's notice).
import "./site.mjs"; // first: the server's answer to the page's /api/site
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as S from "../../src/tysiac/web/static/js/state.js";
import { message, stateAfter } from "./fixtures.mjs";

describe("positions", () => {
  it("puts you at the bottom, the next player on your left, then across, then right", () => {
    assert.deepEqual(S.positions(4, 1), { 1: "bottom", 2: "left", 3: "top", 0: "right" });
    assert.deepEqual(S.positions(3, 2), { 2: "bottom", 0: "left", 1: "right" });
    assert.deepEqual(S.positions(2, 0), { 0: "bottom", 1: "top" });
  });

  it("shows a spectator the table from seat 0", () => {
    assert.deepEqual(S.positions(3, null), { 0: "bottom", 1: "left", 2: "right" });
  });
});

describe("withSnapshot", () => {
  it("adds a delta's log entries and chat lines to those held, keeping the last 100", () => {
    const log = Array.from({ length: 100 }, (_, i) => ({ v: i + 1, kind: "pass", seat: 0 }));
    const first = stateAfter([message({ log, chat: [{ seq: 1, seat: 1, text: "hej" }] }), 0]);
    const delta = {
      ...message({
        v: 2,
        log: [
          { v: 100, kind: "pass", seat: 0 },
          { v: 101, kind: "pass", seat: 1 },
        ],
        chat: [{ seq: 2, seat: 1, text: "cześć" }],
      }),
      delta: true,
    };
    const next = S.withSnapshot(first, delta, 10);
    assert.equal(next.snap.log.length, 100);
    assert.deepEqual([next.snap.log[0].v, next.snap.log.at(-1).v], [2, 101]);
    assert.deepEqual(
      next.snap.chat.map((line) => line.seq),
      [1, 2],
    );
  });

  it("keeps a sent move's controls off until a newer state answers it", () => {
    const sent = S.withBusy(stateAfter([message({ v: 4 }), 0]));
    const presence = S.withSnapshot(sent, { ...message({ v: 4 }), delta: true }, 1);
    assert.equal(presence.busy, true);
    const answer = S.withSnapshot(presence, { ...message({ v: 5 }), delta: true }, 2);
    assert.equal(answer.busy, false);
    const reconnected = S.withSnapshot(sent, message({ v: 4 }), 3);
    assert.equal(reconnected.busy, false);
    assert.equal(S.withError(presence, "").busy, false);
  });

  it("counts the move's deadline and the taken trick's moment from the time received", () => {
    const state = stateAfter([
      message({ game: { time_left_ms: 30_000, trick_shown_ms: 1500 } }),
      1000,
    ]);
    assert.equal(state.deadline, 31_000);
    assert.equal(state.trickUntil, 2500);
    assert.equal(S.secondsLeft(state, 21_500), 10);
    assert.equal(S.secondsLeft(state, 40_000), 0);
  });

  it("drops a half-made choice of cards when the phase changes", () => {
    const give = { give: { to: [1, 2], cards: ["AH", "9S", "KD"] } };
    let state = stateAfter([message({ hand: { phase: "give" }, view: { legal: give } }), 0]);
    state = S.activateCard(state, "9S").state;
    assert.deepEqual(state.selection.give, ["9S"]);
    state = S.withSnapshot(
      state,
      message({ v: 2, hand: { phase: "give" }, view: { legal: give } }),
      1,
    );
    assert.deepEqual(state.selection.give, ["9S"]);
    state = S.withSnapshot(state, message({ v: 3, hand: { phase: "play" } }), 2);
    assert.deepEqual(state.selection.give, []);
  });
});

describe("the own hand", () => {
  it("shows the cards by suit (kier, karo, trefl, pik), each from its strongest", () => {
    const state = stateAfter([
      message({ hand: { cards: ["9S", "QC", "TH", "KD", "AH", "AS"] } }),
      0,
    ]);
    assert.deepEqual(
      S.handCards(state).map((c) => c.code),
      ["AH", "TH", "KD", "QC", "AS", "9S"],
    );
  });

  it("enables exactly the legal cards to play, and plays one on activation", () => {
    const state = stateAfter([message({ view: { legal: { play: ["AH", "TH"] } } }), 0]);
    const enabled = S.handCards(state)
      .filter((c) => c.enabled)
      .map((c) => c.code);
    assert.deepEqual(enabled, ["AH", "TH"]);
    assert.deepEqual(S.activateCard(state, "TH").action, { type: "play", card: "TH" });
    assert.equal(S.activateCard(state, "9S").action, null);
    assert.equal(S.activateCard(S.withBusy(state), "TH").action, null);
  });

  it("builds the give action once each opponent has a card, in the order of legal.give.to", () => {
    let state = stateAfter([
      message({
        hand: { phase: "give" },
        view: { legal: { give: { to: [2, 1], cards: ["AH", "9S"] } } },
      }),
      0,
    ]);
    assert.equal(S.nextRecipient(state), 2);
    state = S.activateCard(state, "9S").state;
    assert.equal(S.giveAction(state), null);
    assert.equal(S.nextRecipient(state), 1);
    state = S.activateCard(state, "AH").state;
    assert.deepEqual(S.giveAction(state), { type: "give", cards: { 2: "9S", 1: "AH" } });
    assert.ok(S.handCards(state).every((c) => c.enabled === c.pressed)); // no third card
  });

  it("counts the cards still to lay down", () => {
    let state = stateAfter([
      message({
        hand: { phase: "discard" },
        view: { legal: { discard: { count: 2, cards: ["AH", "9S", "KD"] } } },
      }),
      0,
    ]);
    assert.equal(S.discardsLeft(state), 2);
    state = S.activateCard(state, "KD").state;
    assert.equal(S.discardsLeft(state), 1);
    assert.equal(S.discardAction(state), null);
    state = S.activateCard(state, "AH").state;
    assert.deepEqual(S.discardAction(state), { type: "discard", cards: ["KD", "AH"] });
    assert.deepEqual(S.resetSelection(state).selection.discard, []);
  });
});

describe("tabStop", () => {
  const cards = [
    { code: "AH", enabled: false },
    { code: "TH", enabled: true },
    { code: "KD", enabled: true },
  ];

  it("prefers the card chosen, then the focused one, then the first playable", () => {
    assert.equal(
      S.tabStop(cards, { focusCard: "KD", focusedCode: "AH", mode: "play", previous: 0 }),
      2,
    );
    assert.equal(
      S.tabStop(cards, { focusCard: null, focusedCode: "AH", mode: "play", previous: 2 }),
      0,
    );
    assert.equal(
      S.tabStop(cards, { focusCard: null, focusedCode: null, mode: "play", previous: 0 }),
      1,
    );
  });

  it("otherwise keeps the place it had, within the hand", () => {
    assert.equal(
      S.tabStop(cards, { focusCard: null, focusedCode: null, mode: null, previous: 2 }),
      2,
    );
    assert.equal(
      S.tabStop(cards, { focusCard: null, focusedCode: null, mode: null, previous: 7 }),
      2,
    );
    assert.equal(S.tabStop([], { focusCard: null, focusedCode: null, mode: null, previous: 3 }), 0);
  });
});

describe("tableMotion", () => {
  const taken = {
    cards: [
      { seat: 1, card: "AH" },
      { seat: 2, card: "9H" },
      { seat: 0, card: "TH" },
    ],
    winner: 1,
  };
  const afterTrick = message({
    hand: { tricks: [0, 1, 0], last_trick: taken, to_move: 1 },
    game: { trick_shown_ms: 1500 },
  });

  it("shows a taken trick for its moment, then slides it to the winner for COLLECT_MS", () => {
    const state = stateAfter([afterTrick, 1000]);
    let marks = S.initialMarks();
    let step = S.tableMotion(marks, state, 1100, false);
    assert.deepEqual(
      [step.motion.taken, step.motion.sliding, step.motion.lastOne],
      [true, false, true],
    );
    marks = step.marks;
    step = S.tableMotion(marks, state, 2600, false);
    assert.deepEqual(
      [step.motion.taken, step.motion.sliding, step.motion.lastOne],
      [false, true, true],
    );
    marks = step.marks;
    step = S.tableMotion(marks, state, 2600 + S.COLLECT_MS, false);
    assert.deepEqual(
      [step.motion.taken, step.motion.sliding, step.motion.lastOne],
      [false, false, false],
    );
  });

  it("does not slide under reduced motion", () => {
    const state = stateAfter([afterTrick, 1000]);
    const { marks } = S.tableMotion(S.initialMarks(), state, 1100, true);
    assert.equal(S.tableMotion(marks, state, 2600, true).motion.sliding, false);
  });

  it("lets only the card just played travel in, once", () => {
    const one = [{ seat: 0, card: "AH" }];
    const two = [...one, { seat: 1, card: "9H" }];
    let step = S.tableMotion(
      S.initialMarks(),
      stateAfter([message({ hand: { trick: one } }), 0]),
      0,
      false,
    );
    assert.equal(step.motion.fresh, 0);
    step = S.tableMotion(
      step.marks,
      stateAfter([message({ hand: { trick: one } }), 0]),
      250,
      false,
    );
    assert.equal(step.motion.fresh, -1);
    step = S.tableMotion(
      step.marks,
      stateAfter([message({ hand: { trick: two } }), 0]),
      500,
      false,
    );
    assert.equal(step.motion.fresh, 1);
  });

  it("turns a musik face up once, when it is first shown open", () => {
    const open = message({
      hand: { phase: "musik", musiks: [{ count: 3, cards: ["AH", "KH", "9C"] }] },
    });
    let step = S.tableMotion(S.initialMarks(), stateAfter([open, 0]), 0, false);
    assert.equal(step.motion.turning, true);
    step = S.tableMotion(step.marks, stateAfter([open, 0]), 250, false);
    assert.equal(step.motion.turning, false);
  });

  it("turns the golden declarer's cards face up once, on their page only (V15)", () => {
    const golden = (you) =>
      stateAfter([
        message({
          game: { you },
          hand: { phase: "give", golden: true, declarer: 0, cards: ["AH", "KH", "QH"] },
        }),
        0,
      ]);
    let step = S.tableMotion(S.initialMarks(), golden(0), 0, false);
    assert.equal(step.motion.revealing, true);
    step = S.tableMotion(step.marks, golden(0), 250, false);
    assert.equal(step.motion.revealing, false);
    assert.equal(S.tableMotion(S.initialMarks(), golden(1), 0, false).motion.revealing, false);
  });

  it("is null without a table, leaving the marks as they were", () => {
    const marks = S.initialMarks();
    const waiting = stateAfter([message({ game: { status: "waiting" }, view: { hand: null } }), 0]);
    assert.deepEqual(S.tableMotion(marks, waiting, 0, false), { marks, motion: null });
  });
});

describe("logNews", () => {
  const entries = [{ v: 3 }, { v: 5 }];

  it("shows the first state's entries without telling them", () => {
    assert.deepEqual(S.logNews(null, entries), { logV: 5, draw: true, sayAfter: Infinity });
  });

  it("tells the entries newer than those drawn, and nothing when none came", () => {
    assert.deepEqual(S.logNews(3, entries), { logV: 5, draw: true, sayAfter: 3 });
    assert.equal(S.logNews(5, entries).draw, false);
  });

  it("waits for a snapshot", () => {
    assert.deepEqual(S.logNews(null, undefined), { logV: null, draw: false, sayAfter: Infinity });
  });
});

describe("turnNotice", () => {
  const deadline = (you, toMove) =>
    stateAfter([
      message({
        game: { you, time_left_ms: 30_000 },
        view: { to_move: toMove, legal: you === toMove ? { play: ["AH"] } : {} },
      }),
      0,
    ]);

  it("says whose turn it is, with the time on the clock", () => {
    const notice = S.turnNotice("", deadline(0, 1), 0);
    assert.equal(notice.turn, "Ruch: Bartek (rozgrywka).");
    assert.equal(notice.clock, "0:30");
    assert.equal(S.turnNotice("", deadline(0, 0), 0).turn, "Twój ruch: zagraj kartę.");
  });

  it("warns once on the own turn with ten seconds left, and keeps saying how many were left", () => {
    const state = deadline(0, 0);
    const first = S.turnNotice("", state, 20_500);
    assert.equal(first.warn, true);
    assert.equal(first.turn, "Twój ruch: zagraj kartę — zostało 10 sekund.");
    const later = S.turnNotice(first.warned, state, 25_000);
    assert.equal(later.warn, false);
    assert.equal(later.turn, "Twój ruch: zagraj kartę — zostało 10 sekund.");
    assert.equal(later.clock, "0:05");
  });

  it("tells of an opponent's short time without the warning sound", () => {
    const notice = S.turnNotice("", deadline(0, 1), 22_000);
    assert.equal(notice.warn, false);
    assert.match(notice.turn, /zostało 8 sekund\.$/);
  });

  it("counts down to the next hand", () => {
    const state = stateAfter([
      message({ game: { time_left_ms: 3000 }, view: { awaiting_deal: true, to_move: null } }),
      0,
    ]);
    assert.equal(S.turnNotice("", state, 0).nextDeal, "Następne rozdanie za 3 sekundy.");
    assert.equal(S.turnNotice("", state, 5000).nextDeal, "Rozdawanie kart…");
  });

  it("counts the players while the game waits", () => {
    const seated = [
      { seat: 0, nick: "Ala", connected: true },
      { seat: 1, nick: null, connected: false },
      { seat: 2, nick: "Celina", connected: true },
    ];
    const state = stateAfter([
      message({ game: { status: "waiting", seats: seated }, view: { hand: null } }),
      0,
    ]);
    assert.equal(S.turnNotice("", state, 0).turn, "Czekamy na graczy: 2 z 3.");
  });
});

describe("unreadChat", () => {
  it("counts others' lines since the chat was last on screen", () => {
    const chat = [
      { seq: 1, seat: 1 },
      { seq: 2, seat: 0 },
      { seq: 3, seat: 2 },
    ];
    const state = stateAfter([message({ chat }), 0]);
    assert.equal(S.unreadChat(state, false), 2);
    assert.equal(S.unreadChat(state, true), 0);
    const seen = S.withDrawer(S.withDrawer(state, "chat"), null);
    assert.equal(S.unreadChat(seen, false), 0);
  });
});
