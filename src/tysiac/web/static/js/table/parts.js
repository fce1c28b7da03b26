// What every region of the table page draws with: updates that touch the DOM only when
// a value changed, the memo that redraws a region only when what it shows changed, and
// the small pieces (cards, piles, chips, nicks) several regions show.
import { el } from "../dom.js";
import { cardBack, cardFace } from "../cards.js";
import { BACK, cardName } from "../a11y.js";
import { levelName } from "../state.js";
import { t } from "../words.js";

/** The musiks by place: "Pierwszy", "Drugi". */
export const ORDINAL = [t("table.ordinal.first"), t("table.ordinal.second")];

export function show(node, visible) {
  if (node.hidden === visible) node.hidden = !visible;
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

// The key each region was last drawn with, by region name (one table page a document).
const memo = new Map();

/** Redraw a region only when its key changed. */
export function region(name, key, draw) {
  const text = JSON.stringify(key);
  if (memo.get(name) === text) return;
  memo.set(name, text);
  draw();
}

/** A card picture with its name, for cards that are not buttons. */
export function cardImage(code, extraClass = "") {
  return el(
    "span",
    { class: `card ${extraClass}`, role: "img", "aria-label": code ? cardName(code) : BACK },
    code ? cardFace(code) : cardBack(),
  );
}

/** A face-down pile: "Musik: 3 zakryte karty" read once, not card by card. */
export function backs(count, label, extraClass = "") {
  const pile = el("span", { class: `pile ${extraClass}`, role: "img", "aria-label": label });
  for (let i = 0; i < count; i++) pile.append(el("span", { class: "card card-small" }, cardBack()));
  return pile;
}

export const chip = (text, kind = "") => el("span", { class: `chip ${kind}` }, text);

/** A computer player's chip: "komputer (średni)". */
export const botLabel = (level) => t("table.bot", { level: levelName(level) });

/** A nick cut with an ellipsis when long: whole on hover (title) and to screen readers. */
export const nickText = (nick, tag = "span") => el(tag, { class: "nick", title: nick }, nick);
