// The own hand: the cards as a toolbar with one tab stop, updated card by card so a
// focused card stays put (a new card is inserted, a played one removed); while the
// cards lie face down, a face-down pile instead; and a note on the hand below them.
import { $, el } from "../dom.js";
import { cardName, cardsCount } from "../a11y.js";
import { cardBack, cardFace } from "../cards.js";
import * as S from "../state.js";
import { backs, region, setAttr, setText, show } from "./parts.js";
import { t } from "../words.js";

export function draw(state, ui) {
  if (!S.controlsShown(state)) return;
  drawCards(state, Boolean(ui?.motion?.revealing));
  const { game, view } = state.snap;
  const h = view.hand;
  const faceDown = h.face_down ? h.counts[game.you] : 0;
  region("face-down", [faceDown], () => {
    $("face-down").replaceChildren(
      ...(faceDown
        ? [backs(faceDown, t("table.hand.face_down", { cards: cardsCount(faceDown) }), "pile-own")]
        : []),
    );
  });
  setText($("hand-note"), handNote(state, faceDown));
}

function handNote(state, faceDown) {
  const { game, view } = state.snap;
  const h = view.hand;
  let note = "";
  if (faceDown) note = t("table.hand.note.face_down");
  else if (S.legal(state).resign)
    note = t("table.hand.note.golden"); // V15
  else if (h.sitting_out === game.you) note = t("table.hand.note.sitting_out");
  else if (h.received) note = t("table.hand.note.received", { card: cardName(h.received) });
  else if (h.given) {
    const given = Object.entries(h.given).map(([s, c]) =>
      t("table.hand.note.given.one", { nick: S.nickOf(state, Number(s)), card: cardName(c) }),
    );
    note = t("table.hand.note.given", { cards: given.join(", ") });
  }
  if (h.discarded) {
    const discarded = t("table.hand.note.discarded", {
      cards: h.discarded.map((c) => cardName(c)).join(", "),
    });
    note += `${note ? " " : ""}${discarded}`;
  }
  return note;
}

/**
 * The cards as buttons. `revealing` (V15: the golden declarer's cards, dealt unseen, are
 * first drawn): each shows its back and turns face up (CSS; at once with reduced motion).
 */
function drawCards(state, revealing) {
  const box = $("hand");
  const cards = S.handCards(state);
  const mode = S.handMode(state);
  show(box, cards.length > 0);
  box.style.setProperty("--n", String(Math.max(cards.length, 1)));
  const focusedCode = box.contains(document.activeElement)
    ? document.activeElement.dataset.card
    : null;
  // Where the tab stop was: the card that holds it (roving tabindex), else the first.
  const previous = Math.max(
    0,
    [...box.children].findIndex((b) => b.getAttribute("tabindex") === "0"),
  );
  const stop = S.tabStop(cards, { focusCard: state.focusCard, focusedCode, mode, previous });
  const existing = new Map([...box.children].map((b) => [b.dataset.card, b]));
  cards.forEach((card, i) => {
    let button = existing.get(card.code);
    existing.delete(card.code);
    if (!button) {
      button = el("button", {
        type: "button",
        class: "card card-button",
        "data-card": card.code,
        "data-key": `card:${card.code}`,
      });
    }
    if (button.dataset.meld !== String(card.meld)) {
      button.dataset.meld = String(card.meld);
      button.replaceChildren(cardFace(card.code, { meld: card.meld !== null }));
    }
    if (revealing && !button.querySelector(".card-cover"))
      button.append(el("span", { class: "card-cover", "aria-hidden": "true" }, cardBack()));
    if (revealing) button.classList.add("reveal");
    setAttr(button, "aria-label", cardName(card.code, card.meld));
    setAttr(button, "aria-disabled", card.enabled ? null : "true");
    setAttr(button, "aria-pressed", card.pressed === null ? null : String(card.pressed));
    setAttr(button, "tabindex", i === stop ? "0" : "-1");
    button.classList.toggle("dim", !card.enabled && mode !== null && !state.busy);
    if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
  });
  for (const gone of existing.values()) gone.remove();
  const focusedCard = box.contains(document.activeElement) ? document.activeElement : null;
  const target = box.children[stop];
  if (focusedCard && target && focusedCard !== target) target.focus();
}
