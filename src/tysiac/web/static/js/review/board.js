// The review's table: every seat with its cards face up, the musiks while they lie on
// the table, the declarer's discards, the trick in the middle, the trump, the contract
// and the points. Drawn anew for each step from the step's frame (review/frames.py).
import { el } from "../dom.js";
import { SUITS } from "../a11y.js";
import { suitIcon } from "../cards.js";
import { cardImage, chip, nickText } from "../table/parts.js";
import { t } from "../words.js";

/** The table at `frame` of `hand` (its number, dealer and steps), seats named by `nickOf`. */
export function board(frame, hand, players, nickOf) {
  const seats = [];
  for (let seat = 0; seat < players; seat++) seats.push(seatBox(frame, hand, seat, nickOf));
  return [el("div", { class: "review-seats" }, seats), middle(frame, nickOf)];
}

function seatBox(frame, hand, seat, nickOf) {
  const nick = nickOf(seat);
  const cards = frame.held[seat] ?? [];
  const out = players4SittingOut(frame, hand, seat);
  const chips = [
    seat === hand.dealer ? chip(t("table.chip.dealer"), "chip-dealer") : null,
    seat === frame.declarer
      ? chip(t("table.chip.declarer", { value: frame.contract ?? frame.bid }), "chip-declarer")
      : null,
    seat === frame.to_move ? chip(t("review.seat.to_move"), "chip-turn") : null,
    out ? chip(t("table.chip.sitting_out")) : null,
  ];
  const label = t("review.seat.cards", { nick });
  return el(
    "section",
    { class: `review-seat${seat === frame.to_move ? " review-seat-turn" : ""}`, "data-seat": seat },
    el("h3", { class: "review-seat-name" }, nickText(nick), el("span", { class: "chips" }, chips)),
    el(
      "p",
      { class: "review-seat-won" },
      t("review.seat.won", {
        points: frame.won[seat],
        melds: frame.melds[seat],
        tricks: frame.tricks[seat],
      }),
    ),
    cards.length
      ? el(
          "ul",
          { class: "review-cards", "aria-label": label },
          cards.map((card) => el("li", {}, cardImage(card, "card-review"))),
        )
      : el("p", { class: "muted review-none" }, t("review.seat.none")),
  );
}

/** R7: with four players the dealer is dealt no cards (the frame holds none for it). */
const players4SittingOut = (frame, hand, seat) =>
  frame.held.length === 4 && seat === hand.dealer && frame.held[seat].length === 0;

function contractText(frame, nickOf) {
  if (frame.contract !== null && frame.declarer !== null)
    return t("review.contract", { nick: nickOf(frame.declarer), contract: frame.contract });
  if (frame.declarer !== null)
    return t("review.contract.declarer", { nick: nickOf(frame.declarer), bid: frame.bid });
  return t("review.contract.none", { bid: frame.bid ?? "—" });
}

function middle(frame, nickOf) {
  const parts = [
    el(
      "p",
      { class: "center-info" },
      el("span", {}, contractText(frame, nickOf)),
      el(
        "span",
        { class: "trump" },
        `${t("table.trump")} `,
        frame.trump ? [suitIcon(frame.trump), ` ${SUITS[frame.trump]}`] : t("table.trump.none"),
      ),
    ),
  ];
  // Each musik while it lies on the table (a taken one is empty), named by its place
  // when there are two.
  const musiks = frame.musik ?? [];
  musiks.forEach((cards, i) => {
    if (!cards.length) return;
    const title = musiks.length > 1 ? t("review.musik.nth", { number: i + 1 }) : t("review.musik");
    parts.push(pile(title, cards));
  });
  if (frame.discarded?.length) parts.push(pile(t("review.discarded"), frame.discarded));
  parts.push(trick(frame, nickOf));
  return el("div", { class: "review-middle" }, parts);
}

function pile(title, cards) {
  return el(
    "div",
    { class: "review-pile" },
    el("p", { class: "label" }, title),
    el(
      "ul",
      { class: "review-cards", "aria-label": title },
      cards.map((card) => el("li", {}, cardImage(card, "card-review"))),
    ),
  );
}

function trick(frame, nickOf) {
  const shown = frame.trick ?? [];
  const title = t("review.trick");
  if (!shown.length)
    return el(
      "div",
      { class: "review-pile review-trick" },
      el("p", { class: "label" }, title),
      el("p", { class: "muted" }, t("review.trick.empty")),
    );
  return el(
    "div",
    { class: "review-pile review-trick" },
    el("p", { class: "label" }, title),
    el(
      "ol",
      { class: "review-cards review-played", "aria-label": title },
      shown.map(([seat, card]) =>
        el(
          "li",
          { class: seat === frame.event.took ? "played-win" : null },
          cardImage(card, "card-review card-trick"),
          nickText(nickOf(seat)),
          seat === frame.event.took ? chip(t("table.chip.takes"), "chip-win") : null,
        ),
      ),
    ),
  );
}
