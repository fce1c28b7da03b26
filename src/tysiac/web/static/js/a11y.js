// What a screen reader hears: the names of cards (R2, the catalogue's card.*), the lines
// of the move log (log.*), and the two live regions of the table page, present from the
// start: role="status" (whose turn, time running short) and role="log" "Przebieg gry"
// (bids, plays, tricks, melds, hand results). Pure but for the live regions' nodes.

import "./site.js"; // the words first: the names below are taken from them
import { counted, onWords, pluralForm, t } from "./words.js";

const RANK_CODES = "9JQKTA";
const SUIT_CODES = "SCDH";
/** The ranks' and suits' names by code (card.rank.<rank>, card.suit.<suit>). */
// Built from the words, and again when they change (another language).
export const RANKS = {};
export const SUITS = {};
export let BACK = "";
onWords(() => {
  for (const r of RANK_CODES) RANKS[r] = t(`card.rank.${r}`);
  for (const s of SUIT_CODES) SUITS[s] = t(`card.suit.${s}`);
  BACK = t("card.back");
});

/**
 * "dama kier"; with the marriage value it would score if led (the view's
 * hand.meld_values): "dama kier, meldunek 100" (R21).
 */
export function cardName(code, meldValue = null) {
  const name = t("card.name", { rank: RANKS[code[0]], suit: SUITS[code[1]] });
  if (meldValue && code[0] === "A") return t("card.meld.aces", { card: name, value: meldValue }); // V12
  return meldValue ? t("card.meld", { card: name, value: meldValue }) : name;
}

/** A meld as said: "kier 100", or "cztery asy 200" (V12: no suit). */
export const meldName = (meld) =>
  meld.suit
    ? t("meld.suit", { suit: SUITS[meld.suit], value: meld.value })
    : t("meld.aces", { value: meld.value });

/** Polish plural: plural(5, "karta", "karty", "kart") → "kart". */
export const plural = (n, one, few, many) => ({ one, few, many })[pluralForm(n, "pl")];

export { counted, pluralForm };

/** A move time as people say it: "1 minuta", "2 minuty", "45 sekund". */
export function durationText(seconds) {
  if (seconds % 60) return counted("count.seconds", seconds);
  return counted("count.minutes", seconds / 60);
}

export const cardsCount = (n) => counted("count.cards", n);
/** "wybierz 2 karty", "jeszcze 1 kartę": the accusative. */
export const cardsToPick = (n) => counted("count.cards_to_pick", n);
export const pointsText = (n) => counted("count.points", n);
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
/** A number with the typographic minus (U+2212) when negative: "−40". */
export const num = (n) => (n < 0 ? `−${-n}` : String(n));

const CANCELLED = {
  not_filled: "log.cancelled.not_filled",
  not_finished: "log.cancelled.not_finished",
};
/** Why a game was cancelled, or the reason's code. */
const cancelledWhy = (reason, fallback = reason) =>
  CANCELLED[reason] ? t(CANCELLED[reason]) : fallback;

// The events each said by one key, with the player's name as {who}.
const SAID = {
  joined: "log.joined",
  started: "log.started",
  pass: "log.pass",
  give: "log.give",
  discard: "log.discard",
  surrender: "log.surrender",
  bomb: "log.bomb",
  resign: "log.resign",
  redeal: "log.redeal",
  blind: "log.blind",
  look: "log.look",
  rematch: "log.rematch",
  arrived: "log.arrived",
};

/**
 * One line of "Przebieg gry" for a server event, or null (chat has its own log).
 * `view` (the game's view, for the number of players) may be null.
 */
export function eventText(event, nickOf, view = null) {
  const who = event.seat === undefined ? "" : (event.nick ?? nickOf(event.seat));
  if (SAID[event.kind]) return t(SAID[event.kind], { who });
  switch (event.kind) {
    case "dealt":
      // V15: a golden hand says whose it is and which of the N (one a player) it is.
      return event.golden
        ? t("log.dealt.golden", {
            dealer: nickOf(event.dealer),
            number: event.golden,
            count: view?.players ?? event.golden,
            who: nickOf(event.declarer),
          })
        : t("log.dealt", { dealer: nickOf(event.dealer) });
    case "bid":
      return t("log.bid", { who, value: event.value });
    case "musik":
      return t(event.index === 0 ? "log.musik.first" : "log.musik.second", { who });
    case "declare":
      return t("log.declare", { who, value: event.value });
    case "play":
      return t("log.play", { who, card: cardName(event.card) });
    case "timeout":
      if (event.walkover) return t("log.timeout.walkover", { who });
      return t("log.timeout", {
        who,
        move: event.move ? eventText(event.move, nickOf) : "",
      }).trim();
    case "cancelled":
      return t("log.cancelled", { why: cancelledWhy(event.reason) });
    case "rematch_of":
      return t("log.rematch_of", { code: event.code });
    case "chat":
      return null;
    case "chat_rejected":
      return event.chat_open ? null : t("log.chat_rejected");
    default:
      throw new Error(`unknown event kind: ${event.kind}`);
  }
}

/**
 * The lines of "Przebieg gry" for one entry of the server's log (snapshot `log`): the
 * event itself, then what it brought about: a trick taken, a marriage, a hand's result.
 */
export function logLines(entry, view, nickOf) {
  const lines = [];
  const text = eventText(entry, nickOf, view);
  if (text) lines.push(text);
  if (entry.meld) {
    const { seat, suit, value } = entry.meld;
    lines.push(
      suit
        ? t("log.meld", { who: nickOf(seat), suit: SUITS[suit], value })
        : t("log.meld.aces", { who: nickOf(seat), value }),
    );
  }
  if (entry.took !== undefined && entry.took !== null)
    lines.push(t("log.took", { who: nickOf(entry.took) }));
  if (entry.result !== undefined && entry.result !== null && view?.results[entry.result]) {
    lines.push(resultText(view.results[entry.result], nickOf));
    const golden = goldenEnd(view, entry.result);
    if (golden) lines.push(golden);
  }
  return lines;
}

/**
 * V15: after the last golden hand (the N-th, N the number of players), whether the
 * scores went back to zero (no golden contract made) or stand; "" after any other hand.
 */
export function goldenEnd(view, index) {
  const r = view.results[index];
  if (!r?.golden) return "";
  const nth = view.results.slice(0, index + 1).filter((x) => x.golden).length;
  if (nth !== view.players) return "";
  return t(r.reset ? "result.reset" : "result.kept");
}

const ENDS = { void: "log.result.void", redeal: "log.result.redeal" };

export function resultText(r, nickOf) {
  if (ENDS[r.end]) return t(ENDS[r.end]);
  const changes = r.delta
    .map((d, seat) =>
      t("log.result.change", { who: nickOf(seat), delta: signed(d), total: num(r.scores[seat]) }),
    )
    .join("; ");
  if (r.end === "bomb") return t("log.result.bomb", { who: nickOf(r.declarer), changes });
  if (r.end === "resign") return t("log.result.resign", { who: nickOf(r.declarer), changes });
  const total = r.points[r.declarer] + r.melds[r.declarer];
  if (r.golden)
    return t("log.result.golden", {
      who: nickOf(r.declarer),
      made: t(r.made ? "result.made" : "result.failed"),
      points: pointsText(total),
      changes,
    });
  return t("log.result", {
    who: nickOf(r.declarer),
    contract: r.contract,
    made: t(r.made ? "result.made" : "result.failed"),
    points: pointsText(total),
    changes,
  });
}

export function outcomeText(game, view, nickOf) {
  if (game.status === "cancelled")
    return t("log.cancelled", { why: cancelledWhy(game.cancelled, t("outcome.time_up")) });
  const outcome = view?.outcome;
  if (!outcome) return "";
  const winner = outcome.winner === null ? t("outcome.nobody") : nickOf(outcome.winner);
  const loser = outcome.loser === null ? "" : nickOf(outcome.loser);
  switch (outcome.reason) {
    case "points":
      if (view.barrel === null) return targetText(view, outcome.winner, nickOf); // V16
      return t("outcome.points", { winner, target: view.target });
    case "walkover":
      return t("outcome.walkover", { winner, loser });
    case "surrender":
      return t("outcome.surrender", { winner, loser });
    case "cancelled":
      return t("outcome.cancelled");
    default:
      return t("outcome.winner", { winner });
  }
}

const TIE_BREAKS = {
  highest: "outcome.tie.highest",
  declarer: "outcome.tie.declarer",
  order: "outcome.tie.order",
};

/**
 * V16 (no barrel): the winner reached the target, declarer or not; when several did,
 * who they were and how the last hand's result chose among them (its `tie_break`).
 */
function targetText(view, winner, nickOf) {
  const target = view.target;
  const lines = [
    t("outcome.target", { winner: nickOf(winner), score: num(view.scores[winner]), target }),
  ];
  const last = view.results.at(-1);
  const passed = view.scores.flatMap((score, seat) => (score >= target ? [seat] : []));
  if (passed.length > 1)
    lines.push(t("outcome.target.passed", { target, nicks: passed.map(nickOf).join(", ") }));
  if (last?.tie_break && TIE_BREAKS[last.tie_break]) lines.push(t(TIE_BREAKS[last.tie_break]));
  return lines.join(" ");
}

// --- the live regions ------------------------------------------------------------

const ANNOUNCED = 20; // lines kept in the announcer: it is heard, not read
let statusNode = null;
let logNode = null;

/**
 * `status`: whose turn it is. `log`: the announcer, an always-present live region
 * (visually hidden) that hears every move, even while "Przebieg gry" is in a closed
 * drawer on a phone; the visible log itself is not live, so nothing is heard twice.
 */
export function initLive(status, log) {
  statusNode = status;
  logNode = log;
}

/** Say whose turn it is; repeated text is not repeated aloud. */
export function announce(text) {
  if (statusNode && statusNode.textContent !== text) statusNode.textContent = text;
}

export function logLine(text) {
  if (!logNode || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  logNode.append(line);
  while (logNode.childElementCount > ANNOUNCED) logNode.firstElementChild.remove();
}
