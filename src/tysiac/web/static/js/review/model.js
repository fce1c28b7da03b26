// The deal review's pure part: where the page stands (hand and step, as the URL names
// them), what a step says in words (the move log's lines of a11y.js, with the cards a
// review shows in full), and the solver's verdicts as text. No DOM, no fetch.
import { LABELS } from "../cards.js";
import { eventText, logLines } from "../a11y.js";
import { t } from "../words.js";

const SUIT_SIGNS = {
  S: "review.suit.S",
  C: "review.suit.C",
  D: "review.suit.D",
  H: "review.suit.H",
};

/** A card as the review writes it: "10♠", "D♥" (the faces' letters and the suits' signs). */
export const cardLabel = (code) =>
  t("review.card", { rank: LABELS[code[0]], suit: t(SUIT_SIGNS[code[1]]) });

/**
 * The place a query names (`?rozdanie=N&krok=K`, both counted from 1 and 0) within
 * `hands` (each a list of steps): a number out of range is clamped, a missing or
 * malformed one is the first hand and its first step.
 */
export function place(search, hands) {
  const query = new URLSearchParams(search);
  const whole = (name) => {
    const text = query.get(name);
    return text !== null && /^\d+$/.test(text) ? Number(text) : null;
  };
  const hand = clamp((whole("rozdanie") ?? 1) - 1, 0, Math.max(0, hands.length - 1));
  const steps = hands[hand]?.steps.length ?? 1;
  const step = clamp(whole("krok") ?? 0, 0, steps - 1);
  return { hand, step };
}

const clamp = (n, low, high) => Math.min(Math.max(n, low), high);

/** The query naming a place: "?rozdanie=3&krok=12". */
export const query = ({ hand, step }) => `?rozdanie=${hand + 1}&krok=${step}`;

/**
 * The place a key moves to, or null when the key is not the review's: ←/→ a step,
 * Home/End the first/last step, PageUp/PageDown and ↑/↓ the previous/next hand (its
 * first step).
 */
export function moved({ hand, step }, key, hands) {
  const last = hands[hand].steps.length - 1;
  switch (key) {
    case "ArrowLeft":
      return { hand, step: Math.max(0, step - 1) };
    case "ArrowRight":
      return { hand, step: Math.min(last, step + 1) };
    case "Home":
      return { hand, step: 0 };
    case "End":
      return { hand, step: last };
    case "PageUp":
    case "ArrowUp":
      return { hand: Math.max(0, hand - 1), step: 0 };
    case "PageDown":
    case "ArrowDown":
      return { hand: Math.min(hands.length - 1, hand + 1), step: 0 };
    default:
      return null;
  }
}

/** The results of a review's hands as the score sheet has them (rules' view results):
 * R7, with four players the dealer sits the hand out. */
export function results(review) {
  const players = review.players;
  return review.hands
    .filter((h) => h.result)
    .map((h) => ({ sitting_out: players === 4 ? h.dealer : null, ...h.result }));
}

/**
 * What the step's event says: the move log's lines (a11y.js logLines) with the cards
 * that the table hides but a review shows: who gives whom which card, what the declarer
 * lays away, the card and the marriage it declares.
 */
export function stepText(event, nickOf, review) {
  const view = { players: review.players, results: results(review) };
  const who = event.seat === undefined ? "" : nickOf(event.seat);
  const own = ownText(event, who, nickOf);
  if (own === null) return logLines(event, view, nickOf).join(" ");
  const entry = { ...event, meld: undefined }; // the marriage is said with the card
  return [own, ...logLines(entry, view, nickOf).slice(1)].join(" ");
}

function ownText(event, who, nickOf) {
  switch (event.kind) {
    case "give":
      return Object.entries(event.cards ?? {})
        .map(([to, card]) =>
          t("review.event.give", { who, to: nickOf(Number(to)), card: cardLabel(card) }),
        )
        .join(" ");
    case "discard":
      return t("review.event.discard", {
        who,
        cards: (event.cards ?? []).map(cardLabel).join(", "),
      });
    case "play":
      return event.meld
        ? t("review.event.meld", { who, card: cardLabel(event.card), value: event.meld.value })
        : t("review.event.play", { who, card: cardLabel(event.card) });
    case "timeout":
      if (event.walkover || !event.move) return null;
      return t("log.timeout", {
        who,
        move: ownText(event.move, nickOf(event.move.seat), nickOf) ?? eventText(event.move, nickOf),
      });
    default:
      return null;
  }
}

const MARKS = {
  best: "review.mark.best",
  inaccuracy: "review.mark.inaccuracy",
  mistake: "review.mark.mistake",
  contract: "review.mark.contract",
};

/** A card's verdict as words with its sign: "✓ najlepsza", "?! −5 pkt (lepsza: 10♠)". */
export function markText(verdict) {
  return t(MARKS[verdict.mark], {
    loss: verdict.loss,
    better: (verdict.best_cards ?? []).map(cardLabel).join(", "),
  });
}

/** The verdict of the card a step played, or null (no card, or not analysed yet). */
export const stepVerdict = (analysis, step) =>
  analysis?.cards.find((verdict) => verdict.step === step) ?? null;

const BIDS = { short: "review.bid.short", room: "review.bid.room", exact: "review.bid.exact" };

/** The hand at the start of play, open cards: what the declarer could make, the bid. */
export function openText(analysis) {
  const open = analysis.open;
  return {
    open: t("review.open_cards", {
      best: open.best,
      contract: analysis.contract,
      verdict: t(open.makeable ? "review.open_cards.makeable" : "review.open_cards.short"),
    }),
    bid: t(BIDS[open.bid]),
  };
}

/** The hand's mistakes, worst first, each with its step and its line. */
export const mistakes = (analysis, nickOf) =>
  analysis.mistakes.map((index) => {
    const verdict = analysis.cards[index];
    return {
      step: verdict.step,
      mark: verdict.mark,
      text: t("review.mistakes.item", {
        step: verdict.step,
        who: nickOf(verdict.seat),
        card: cardLabel(verdict.card),
        mark: markText(verdict),
      }),
    };
  });

/** The barrel of a table (V16 "off": none), for the score sheet's caption. */
export function barrelOf(review) {
  const barrel = review.options?.barrel;
  if (barrel === "off") return null;
  if (barrel === "880") return 880;
  return review.target === 500 ? 300 : 800;
}
