// The table page's state: one plain object, changed only by the pure functions here
// (each returns a new object). The server's snapshot is the whole truth about the
// game; the rest is this page's own: the connection, a half-made choice of cards,
// which card has the keyboard focus, open panels. No DOM here: what the page drew
// before (for motion and announcements) comes in as a plain object too.
import { cardsToPick, counted, outcomeText } from "./a11y.js";
import { limit } from "./site.js";
import { t } from "./words.js";

export function initialState(code, stored) {
  return {
    code,
    stored, // {seat, token, ...} from localStorage, or null: a spectator
    snap: null, // the last `state` message: {v, game, view, chat, log}
    connection: "connecting",
    closedCode: null,
    deadline: null, // Date.now() at which game.time_left_ms runs out
    busy: false, // a move was sent; no answer yet
    selection: { key: "", give: [], discard: [] },
    focusCard: null,
    showLastTrick: false,
    trickUntil: null, // Date.now() until which the trick just completed stays on the table
    summaryOpen: false, // the last hand's summary, opened again during the next hand
    moreBids: false, // the bid (or contract) buttons beyond the first few are shown
    drawer: null, // on a narrow screen: the open side panel, "scores" | "log" | "chat"
    chatSeen: 0, // the last chat line's seq this page has shown on screen
    confirmSurrender: false,
    chatHidden: Boolean(stored?.chatOff),
    error: "",
    notice: "", // "Już siedzisz przy tym stole jako Marek." (from the home page)
    copyNote: "", // "Skopiowano link."
    joinError: "", // why joining from this page was refused
    chatError: "", // why the last chat line was refused
    reported: [], // seq of the chat lines this page reported
  };
}

export const you = (state) => state.snap?.game.you ?? null;
export const view = (state) => state.snap?.view ?? null;
export const hand = (state) => state.snap?.view?.hand ?? null;
export const legal = (state) => state.snap?.view?.legal ?? {};
export const isPlayer = (state) => you(state) !== null;

export function nickOf(state, seat) {
  return state.snap?.game.seats[seat]?.nick ?? t("seat.name", { number: seat + 1 });
}

/** A computer player's level by the catalogue (level.<level>): "mocny". */
export const levelName = (level) => t(`level.${level}`);

/** A seat's name in the move log and the announcements: a computer player's with its
 * level, "Komputer 1 (mocny)". */
export function speakerOf(state, seat) {
  const level = state.snap?.game.seats[seat]?.bot;
  return level
    ? t("seat.bot", { nick: nickOf(state, seat), level: levelName(level) })
    : nickOf(state, seat);
}

const selectionKey = (snap) => `${snap.view?.hand_number}:${snap.view?.hand?.phase}`;

// The server keeps the last 100 log entries and chat lines (/api/site limits.kept); a state
// after the first on a connection (`delta`) carries only those that came since, to add to
// the ones held.
const KEPT = limit("kept", Infinity);
const added = (held, fresh, key) => {
  const newest = held.at(-1)?.[key] ?? 0;
  return [...held, ...fresh.filter((entry) => entry[key] > newest)].slice(-KEPT);
};

export function withSnapshot(state, message, now) {
  const { v, game, view: gameView } = message;
  const held = message.delta && state.snap ? state.snap : null;
  const log = held ? added(held.log, message.log, "v") : message.log;
  const chat = held && game.chat ? added(held.chat, message.chat, "seq") : message.chat;
  const snap = { v, game, view: gameView, chat, log };
  const key = selectionKey(snap);
  const selection = key === state.selection.key ? state.selection : { key, give: [], discard: [] };
  // "Ostatnia lewa" stays open until the next card is played.
  const before = state.snap?.view?.hand;
  const after = gameView?.hand;
  const played = (hand) =>
    hand ? hand.trick.length + hand.tricks.reduce((a, b) => a + b, 0) * 100 : -1;
  const keepLast =
    state.showLastTrick &&
    Boolean(after?.last_trick) &&
    played(before) === played(after) &&
    state.snap.view.hand_number === gameView.hand_number;
  const newHand = state.snap?.view?.hand_number !== gameView?.hand_number;
  const samePhase = !newHand && before?.phase === after?.phase;
  return {
    ...state,
    snap,
    // A state with no new move on the same connection (a seat came online, a chat line)
    // is not the answer to the move sent: its controls stay off until that answer (a
    // newer state or an error) comes. A new connection's first state ends the wait.
    busy: state.busy && Boolean(message.delta) && v === state.snap?.v,
    error: "",
    deadline: game.time_left_ms === null ? null : now + game.time_left_ms,
    selection,
    showLastTrick: keepLast,
    trickUntil: game.trick_shown_ms ? now + game.trick_shown_ms : null,
    summaryOpen: state.summaryOpen && !newResult(state, gameView),
    moreBids: state.moreBids && samePhase && state.snap?.view?.to_move === gameView?.to_move,
    confirmSurrender: state.confirmSurrender && game.status === "playing" && game.you !== null,
  };
}

/** Another hand ended since the summary was opened: the one it showed is old. */
function newResult(state, gameView) {
  return (gameView?.results.length ?? 0) !== (state.snap?.view?.results.length ?? 0);
}

/** Whether the trick just completed is still shown instead of the one being played. */
export function showingTakenTrick(state, now) {
  const h = hand(state);
  return Boolean(h?.last_trick) && state.trickUntil !== null && now < state.trickUntil;
}

/** The panel a narrow screen shows over the table, or null. */
export const withDrawer = (state, drawer) => ({
  ...state,
  drawer,
  chatSeen: drawer === "chat" || state.drawer === "chat" ? lastChatSeq(state) : state.chatSeen,
});

export const lastChatSeq = (state) => state.snap?.chat.at(-1)?.seq ?? 0;

/** Chat lines that came while the chat was not on screen. */
export function unreadChat(state, chatOnScreen) {
  if (chatOnScreen || state.chatHidden || !state.snap) return 0;
  return state.snap.chat.filter((line) => line.seq > state.chatSeen && line.seat !== you(state))
    .length;
}

export const withConnection = (state, connection, closedCode = null) => ({
  ...state,
  connection,
  closedCode,
});
export const withError = (state, error) => ({ ...state, error, busy: false });
export const withBusy = (state) => ({ ...state, busy: true, error: "" });
export const withSeat = (state, stored) => ({ ...state, stored });
export const withFocusCard = (state, code) => ({ ...state, focusCard: code });
export const toggled = (state, key) => ({ ...state, [key]: !state[key] });
export const withFlag = (state, key, value) => ({ ...state, [key]: value });

/** Which kind of card choice the hand is in: "play", "give", "discard" or null. */
export function handMode(state) {
  const moves = legal(state);
  if (moves.play) return "play";
  if (moves.give) return "give";
  if (moves.discard) return "discard";
  return null;
}

/** The opponent who gets the next card chosen, in the order of legal.give.to. */
export function nextRecipient(state) {
  const give = legal(state).give;
  if (!give) return null;
  return give.to[state.selection.give.length] ?? null;
}

// The hand is shown by suit (kier, karo, trefl, pik), each suit from its strongest card
// (A 10 K D W 9): an order for the eye only, every rule comes with the view.
const SUIT_ORDER = "HDCS";
const RANK_ORDER = "ATKQJ9";
const handOrder = (a, b) =>
  SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) ||
  RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);

/**
 * Per card of the own hand, in display order: {code, meld, pressed, enabled}; `meld` is
 * the marriage value the card would score if led (hand.meld_values), else null.
 */
export function handCards(state) {
  const h = hand(state);
  if (!h?.cards) return [];
  const moves = legal(state);
  const mode = handMode(state);
  const { give, discard } = state.selection;
  return [...h.cards].sort(handOrder).map((code) => {
    let enabled = false;
    let pressed = null;
    if (state.busy) {
      // a move is on its way: no card does anything until the server answers
      pressed = mode === "give" || mode === "discard" ? state.selection[mode].includes(code) : null;
    } else if (mode === "play") {
      enabled = moves.play.includes(code);
    } else if (mode === "give") {
      pressed = give.includes(code);
      enabled = pressed || (moves.give.cards.includes(code) && give.length < moves.give.to.length);
    } else if (mode === "discard") {
      pressed = discard.includes(code);
      enabled =
        pressed || (moves.discard.cards.includes(code) && discard.length < moves.discard.count);
    }
    return { code, meld: h.meld_values[code] ?? null, pressed, enabled };
  });
}

/**
 * A hand card was activated. Returns {state, action}: the action to send (a play),
 * or a new selection (give, discard), or nothing when the card may not be used now.
 */
export function activateCard(state, code) {
  const card = handCards(state).find((c) => c.code === code);
  const next = { ...state, focusCard: code };
  if (!card || !card.enabled || state.busy) return { state: next, action: null };
  const mode = handMode(state);
  if (mode === "play") return { state: next, action: { type: "play", card: code } };
  const list = state.selection[mode];
  const chosen = list.includes(code) ? list.filter((c) => c !== code) : [...list, code];
  return {
    state: { ...next, error: "", selection: { ...state.selection, [mode]: chosen } },
    action: null,
  };
}

export const resetSelection = (state) => ({
  ...state,
  error: "",
  selection: { ...state.selection, give: [], discard: [] },
});

/** The `give` action once each opponent has a card, else null. */
export function giveAction(state) {
  const give = legal(state).give;
  const chosen = state.selection.give;
  if (!give || chosen.length !== give.to.length) return null;
  return {
    type: "give",
    cards: Object.fromEntries(give.to.map((seat, i) => [String(seat), chosen[i]])),
  };
}

/** How many cards the player still has to choose to lay down (legal.discard.count), or null. */
export function discardsLeft(state) {
  const discard = legal(state).discard;
  return discard ? discard.count - state.selection.discard.length : null;
}

/** The `discard` action once legal.discard.count cards are chosen, else null. */
export function discardAction(state) {
  return discardsLeft(state) === 0
    ? { type: "discard", cards: [...state.selection.discard] }
    : null;
}

/** Seconds left of the pending move (or the pause between hands), or null. */
export function secondsLeft(state, now) {
  return state.deadline === null ? null : Math.max(0, Math.ceil((state.deadline - now) / 1000));
}

// --- the table as this page draws it ---

/**
 * Where each seat sits as seen from this page: you at the bottom, the next player on
 * your left, then across, then on your right (play goes clockwise, R5). A spectator
 * sees the table from seat 0.
 */
export function positions(players, you) {
  const base = you ?? 0;
  const around = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"] }[players];
  const place = { [base]: "bottom" };
  around.forEach((pos, i) => (place[(base + 1 + i) % players] = pos));
  return place;
}

/** The table (seats, trick) is shown: a hand is on it and the game goes on. */
export const tableShown = (state) => Boolean(hand(state)) && state.snap.game.status === "playing";

/** The own hand and the move controls are shown: the table is, and this page holds a seat. */
export const controlsShown = (state) => tableShown(state) && you(state) !== null;

/**
 * The card of the own hand that holds the tab stop (its index in `cards`): the one
 * chosen by key or click (`focusCard`), else the one that has the focus, else (on a new
 * turn to play) the first playable, else the same place as before (`previous`).
 */
export function tabStop(cards, { focusCard, focusedCode, mode, previous }) {
  let current = cards.findIndex((c) => c.code === focusCard);
  if (current < 0) current = cards.findIndex((c) => c.code === focusedCode);
  if (current < 0 && mode === "play" && !focusedCode) current = cards.findIndex((c) => c.enabled);
  if (current < 0) current = Math.min(previous, cards.length - 1);
  return Math.max(0, current);
}

// --- what the page drew before: motion and what is said ---

// Motion and announcements depend on what this page drew before. That memory is one
// plain object; the functions below take it with the state and return what to draw
// now together with the memory to keep.
export const initialMarks = () => ({
  warned: "", // the turn told "zostało N sekund": "v:seat|N"
  logV: null, // the newest log entry drawn; null before the first state
  collecting: null, // {key, until}: a taken trick on its way to its winner
  drawnTrick: { key: "", length: 0 }, // the trick being played, as last drawn
  openedMusik: "", // the hand whose musik was last drawn face up
  revealedGolden: null, // the golden hand (V15) whose cards this page turned up
});

export const COLLECT_MS = 320; // a taken trick slides toward its winner

/**
 * The motion of the table at `now`, or null when no table is shown:
 *  - `taken`: the trick just completed is still shown (its moment, game.trick_shown_ms);
 *  - `sliding`: when that moment ends it slides to its winner for COLLECT_MS, unless
 *    `calm` (reduced motion) or the hand is no longer in play;
 *  - `lastOne`: the trick drawn is the last taken one (taken, sliding, asked for, or the
 *    hand is over), not the one being played;
 *  - `fresh`: the index of the card that travels in from its player: only the card just
 *    played, once (-1: none);
 *  - `turning`: a musik face up turns over: once, when it is first shown open;
 *  - `revealing`: the golden declarer's own cards (V15), dealt unseen, turn face up:
 *    once, when that hand is first drawn on their page.
 */
export function tableMotion(marks, state, now, calm) {
  if (!tableShown(state)) return { marks, motion: null };
  const gameView = state.snap.view;
  const h = gameView.hand;
  const tricksKey = `${gameView.hand_number}:${h.tricks.join(",")}`;
  const taken = showingTakenTrick(state, now);
  let { collecting, drawnTrick, openedMusik } = marks;
  const takenKey = h.last_trick ? tricksKey : "";
  if (taken) collecting = { key: takenKey, until: null };
  else if (
    collecting?.key === takenKey &&
    collecting.until === null &&
    h.phase === "play" &&
    !calm
  ) {
    collecting = { key: takenKey, until: now + COLLECT_MS };
  }
  const sliding = Boolean(
    collecting &&
    collecting.key === takenKey &&
    collecting.until !== null &&
    now < collecting.until,
  );
  const lastOne =
    Boolean(h.last_trick) && (taken || sliding || state.showLastTrick || h.phase === "over");
  let fresh = -1;
  if (h.phase === "play" && !lastOne) {
    if (drawnTrick.key !== tricksKey || h.trick.length > drawnTrick.length)
      fresh = h.trick.length - 1;
    drawnTrick = { key: tricksKey, length: h.trick.length };
  }
  let turning = false;
  if (MUSIK_PHASES.includes(h.phase) && h.musiks.some((m) => m.cards)) {
    const openKey = `${gameView.hand_number}:${h.musiks.map((m) => Boolean(m.cards)).join(",")}`;
    turning = openKey !== openedMusik;
    openedMusik = openKey;
  }
  let { revealedGolden } = marks;
  let revealing = false;
  if (h.golden && h.declarer === state.snap.game.you && h.phase === "give" && h.cards) {
    revealing = revealedGolden !== gameView.hand_number;
    revealedGolden = gameView.hand_number;
  }
  return {
    marks: { ...marks, collecting, drawnTrick, openedMusik, revealedGolden },
    motion: { taken, sliding, lastOne, fresh, turning, revealing },
  };
}

/** The phases in which the musiks lie on the table. */
export const MUSIK_PHASES = ["blind", "bidding", "musik", "give", "discard", "declare"];

/**
 * What the move log brings since `logV` (the newest entry drawn, null before the first
 * state): `draw`, whether it changed; `sayAfter`, the entries newer than this are told to
 * the announcer (none from the first state: those are only shown); `logV`, to keep.
 */
export function logNews(logV, entries) {
  if (!entries) return { logV, draw: false, sayAfter: Infinity };
  const newest = entries.length ? entries[entries.length - 1].v : 0;
  return { logV: newest, draw: logV === null || newest !== logV, sayAfter: logV ?? Infinity };
}

// What this page's player is to do now, by phase; what the others are doing is the
// phase's name (phase.<phase>).
const YOUR_MOVE = {
  blind: "turn.move.blind",
  bidding: "turn.move.bidding",
  musik: "turn.move.musik",
  give: "turn.move.give",
  discard: "turn.move.discard",
  declare: "turn.move.declare",
  play: "turn.move.play",
};
const yourMove = (phase, moves) =>
  moves.resign // V15: the golden declarer gives, or resigns
    ? t("turn.move.give.golden")
    : t(YOUR_MOVE[phase], { cards: cardsToPick(moves.discard?.count ?? 0) });

export const clockText = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/**
 * The status line at `now` (`turn`: whose turn it is, or what the game waits for), the
 * `clock`, and `nextDeal` (the countdown to the next hand, or null). With ten seconds or
 * fewer left, a turn is told "zostało N sekund" once, N as it was then; `warned` is the
 * turn so told ("v:seat|N"), to keep; `warn` is true at that moment on this page's turn.
 */
export function turnNotice(warned, state, now) {
  const game = state.snap?.game;
  const gameView = view(state);
  const left = secondsLeft(state, now);
  const nick = (seat) => speakerOf(state, seat);
  let turn = "";
  let clock = "";
  let nextDeal = null;
  let warn = false;
  if (!game) {
    turn = state.connection === "closed" ? "" : t("turn.connecting");
  } else if (game.status === "waiting") {
    const taken = game.seats.filter((s) => s.nick !== null).length;
    if (game.rematch_of) {
      const back = game.seats.filter((s) => s.connected).length;
      turn = t("turn.rematch", { back, players: game.players });
      if (left !== null) clock = clockText(left);
    } else turn = t("turn.waiting", { taken, players: game.players });
  } else if (game.status === "finished" || game.status === "cancelled") {
    turn = t("turn.over", { outcome: outcomeText(game, gameView, nick) });
  } else if (gameView?.awaiting_deal) {
    turn = t("turn.hand_over");
    nextDeal = left ? counted("count.next_deal", left) : t("turn.dealing");
  } else if (gameView && gameView.to_move !== null) {
    const phase = gameView.hand.phase;
    turn =
      gameView.to_move === game.you
        ? t("turn.yours", { move: yourMove(phase, legal(state)) })
        : t("turn.theirs", { who: nick(gameView.to_move), phase: t(`phase.${phase}`) });
    const key = `${state.snap.v}:${gameView.to_move}`;
    if (left !== null && left <= 10 && left > 0 && !warned.startsWith(`${key}|`)) {
      warned = `${key}|${left}`;
      warn = gameView.to_move === game.you;
    }
    if (warned.startsWith(`${key}|`)) {
      const n = Number(warned.split("|")[1]);
      turn = counted("count.time_left", n, { turn: turn.slice(0, -1) });
    }
    if (left !== null) clock = left > 0 ? clockText(left) : "0:00";
  }
  return { turn, clock, nextDeal, warned, warn };
}
