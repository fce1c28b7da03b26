// The table page's state: one plain object, changed only by the pure functions here
// (each returns a new object). The server's snapshot is the whole truth about the
// game; the rest is this page's own: the connection, a half-made choice of cards,
// which card has the keyboard focus, open panels.
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
  return level ? `${nickOf(state, seat)} (${levelName(level)})` : nickOf(state, seat);
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
  const played = (hand) => (hand ? hand.trick.length + hand.tricks.reduce((a, b) => a + b, 0) * 100 : -1);
  const keepLast = state.showLastTrick && Boolean(after?.last_trick) && played(before) === played(after) &&
    state.snap.view.hand_number === gameView.hand_number;
  const newHand = state.snap?.view?.hand_number !== gameView?.hand_number;
  const samePhase = !newHand && before?.phase === after?.phase;
  return {
    ...state,
    snap,
    busy: false,
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
  return state.snap.chat.filter((line) => line.seq > state.chatSeen && line.seat !== you(state)).length;
}

export const withConnection = (state, connection, closedCode = null) => ({ ...state, connection, closedCode });
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
  SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);

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
      enabled = pressed || (moves.discard.cards.includes(code) && discard.length < moves.discard.count);
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
  return { state: { ...next, error: "", selection: { ...state.selection, [mode]: chosen } }, action: null };
}

export const resetSelection = (state) => ({ ...state, error: "", selection: { ...state.selection, give: [], discard: [] } });

/** The `give` action once each opponent has a card, else null. */
export function giveAction(state) {
  const give = legal(state).give;
  const chosen = state.selection.give;
  if (!give || chosen.length !== give.to.length) return null;
  return { type: "give", cards: Object.fromEntries(give.to.map((seat, i) => [String(seat), chosen[i]])) };
}

/** How many cards the player still has to choose to lay down (legal.discard.count), or null. */
export function discardsLeft(state) {
  const discard = legal(state).discard;
  return discard ? discard.count - state.selection.discard.length : null;
}

/** The `discard` action once legal.discard.count cards are chosen, else null. */
export function discardAction(state) {
  return discardsLeft(state) === 0 ? { type: "discard", cards: [...state.selection.discard] } : null;
}

/** Seconds left of the pending move (or the pause between hands), or null. */
export function secondsLeft(state, now) {
  return state.deadline === null ? null : Math.max(0, Math.ceil((state.deadline - now) / 1000));
}
