// A table page's state as the server's snapshots make it, for the tests of the pure
// client modules: three players, this page at seat 0, a hand in play.
import "./site.mjs"; // first: the server's answer to the page's /api/site
import { initialState, withSnapshot } from "../../src/tysiac/web/static/js/state.js";

export function seats(players = 3) {
  return Array.from({ length: players }, (_, seat) => ({
    seat,
    nick: ["Ala", "Bartek", "Celina", "Darek"][seat],
    connected: true,
    bot: null,
  }));
}

export function handView(hand = {}) {
  return {
    phase: "play",
    dealer: 2,
    trick: [],
    tricks: [0, 0, 0],
    last_trick: null,
    winning: null,
    musiks: [{ count: 3, cards: null }],
    cards: ["AH", "9S", "KD", "TH", "QC"],
    meld_values: {},
    counts: [5, 5, 5],
    to_move: 0,
    ...hand,
  };
}

/** A `state` message: the game, the view (hand and legal moves overridable), the log. */
export function message({ v = 1, game = {}, view = {}, hand = {}, log = [], chat = [] } = {}) {
  return {
    v,
    game: {
      code: "ABCDEF",
      name: "",
      status: "playing",
      players: 3,
      you: 0,
      seats: seats(3),
      time_left_ms: null,
      trick_shown_ms: 0,
      chat: true,
      ...game,
    },
    view: {
      hand_number: 1,
      to_move: 0,
      legal: {},
      results: [],
      scores: [0, 0, 0],
      awaiting_deal: false,
      hand: handView(hand),
      ...view,
    },
    chat,
    log,
  };
}

/** The page's state after `messages`, each received at its `now` (ms). */
export function stateAfter(...steps) {
  let state = initialState("ABCDEF", { seat: 0, token: "t" });
  for (const [msg, now] of steps) state = withSnapshot(state, msg, now);
  return state;
}
