// The moves of the own turn: what to do now (the prompt), a button for each legal move
// (bids and contracts as one-tap values), and "Ostatnia lewa". The cards themselves are
// hand.js's.
import { $, el } from "../dom.js";
import { cardName, cardsToPick } from "../a11y.js";
import { cardBack } from "../cards.js";
import * as S from "../state.js";
import { ORDINAL, nickText, region, setText, show } from "./parts.js";
import { t } from "../words.js";

const FIRST_BIDS = 3; // bid or contract buttons shown before "Więcej"

export function draw(state) {
  const active = S.controlsShown(state);
  show($("controls"), active);
  if (!active) return;
  const { game, view } = state.snap;
  const h = view.hand;
  const prompt = promptText(state);
  setText($("prompt"), prompt);
  show($("prompt"), Boolean(prompt));
  const shownFacts = [
    S.legal(state),
    state.selection,
    h.phase,
    game.seats.map((s) => s.nick),
    state.busy,
    state.moreBids,
  ];
  region("moves", shownFacts, () => {
    $("moves").replaceChildren(...moveParts(state));
    // A move is on its way: nothing more to press until the server answers.
    if (state.busy) for (const node of $("moves").querySelectorAll("button")) node.disabled = true;
  });
  const last = $("last-trick");
  const hasLast = Boolean(h.last_trick);
  if (last.disabled === hasLast) last.disabled = !hasLast;
  last.setAttribute("aria-pressed", String(state.showLastTrick && hasLast));
}

/** While cards are being chosen (to give, to lay down): which one to choose next. */
function promptText(state) {
  const mode = S.handMode(state);
  if (mode === "give") {
    const to = S.nextRecipient(state);
    return to === null
      ? t("table.prompt.give.done")
      : t("table.prompt.give", { nick: S.nickOf(state, to) });
  }
  if (mode === "discard") {
    const left = S.discardsLeft(state);
    const more = state.selection.discard.length
      ? "table.prompt.discard.more"
      : "table.prompt.discard";
    return left ? t(more, { cards: cardsToPick(left) }) : t("table.prompt.discard.done");
  }
  return "";
}

/** One-tap values: the first few as buttons, the rest behind "Więcej" (two taps). */
function valueButtons(state, values, intent, label, verb) {
  const shown = state.moreBids ? values : values.slice(0, FIRST_BIDS);
  const button = (value, primary) =>
    el(
      "button",
      {
        type: "button",
        class: `button button-value${primary ? " button-primary" : ""}`,
        "data-intent": intent,
        "data-value": String(value),
        "data-key": `${intent}:${value}`,
        "aria-label": t("table.move.value", { verb, value }),
      },
      String(value),
    );
  return el(
    "div",
    { class: "value-group", role: "group", "aria-label": label },
    el("span", { class: "value-label", "aria-hidden": "true" }, t("table.move.values", { label })),
    shown.map((v, i) => button(v, i === 0)),
    values.length > FIRST_BIDS
      ? el(
          "button",
          {
            type: "button",
            class: "button button-small button-more",
            "data-intent": "more-bids",
            "data-key": "more-bids",
            "aria-expanded": String(state.moreBids),
            "aria-label": state.moreBids
              ? t("table.move.fewer.label")
              : t("table.move.more.label", { last: values[values.length - 1] }),
          },
          state.moreBids ? t("table.move.fewer") : t("table.move.more"),
        )
      : "",
  );
}

function moveParts(state) {
  const moves = S.legal(state);
  const nick = (seat) => S.nickOf(state, seat);
  const parts = [];
  const button = (key, intent, props = {}) =>
    el(
      "button",
      {
        type: "button",
        class: "button",
        "data-intent": intent,
        "data-key": `move:${key}`,
        ...props,
      },
      t(key),
    );
  const row = (...children) => el("div", { class: "row move-row" }, ...children);
  if (moves.blind || moves.look) {
    // V14: chosen before the cards are seen.
    parts.push(
      row(
        moves.blind ? button("table.move.blind", "blind", { class: "button button-primary" }) : "",
        moves.look ? button("table.move.look", "look") : "",
      ),
    );
  }
  if (moves.bid || moves.pass) {
    const bids = moves.bid || [];
    parts.push(
      row(
        moves.pass ? button("table.move.pass", "pass") : "",
        bids.length
          ? valueButtons(state, bids, "bid", t("table.move.bid"), t("table.move.bid"))
          : el("span", { class: "note" }, t("table.move.bid.none")),
      ),
    );
  }
  if (moves.musik) parts.push(row(moves.musik.map(musikButton)));
  if (moves.give) {
    const chosen = state.selection.give;
    parts.push(
      el(
        "ul",
        { class: "picks" },
        moves.give.to.map((seat, i) =>
          el(
            "li",
            {},
            `${t("table.give.to")} `,
            nickText(nick(seat), "span"),
            " — ",
            chosen[i]
              ? el("strong", {}, cardName(chosen[i]))
              : [
                  el("span", { "aria-hidden": "true" }, "…"),
                  el("span", { class: "sr-only" }, t("table.picks.none")),
                ],
          ),
        ),
      ),
    );
    parts.push(
      row(
        button("table.move.give", "give", { class: "button button-primary" }),
        button("table.move.reset", "reset"),
      ),
    );
  }
  if (moves.discard) {
    const chosen = state.selection.discard;
    parts.push(
      el(
        "p",
        { class: "picks" },
        `${t("table.discard.chosen")} `,
        chosen.length
          ? el("strong", {}, chosen.map((c) => cardName(c)).join(", "))
          : t("table.picks.none"),
      ),
    );
    parts.push(
      row(
        button("table.move.discard", "discard", { class: "button button-primary" }),
        button("table.move.reset", "reset"),
      ),
    );
  }
  if (moves.bomb || moves.redeal || moves.resign) {
    parts.push(
      row(
        moves.bomb ? button("table.move.bomb", "bomb", { class: "button button-danger" }) : "",
        moves.redeal ? button("table.move.redeal", "redeal") : "",
        // V15: the golden declarer may give the hand up instead of giving.
        moves.resign
          ? button("table.move.resign", "resign", { class: "button button-danger" })
          : "",
      ),
    );
  }
  if (moves.declare)
    parts.push(
      row(
        valueButtons(
          state,
          moves.declare,
          "declare",
          t("table.move.declare"),
          t("table.move.declare"),
        ),
      ),
    );
  return parts;
}

function musikButton(i) {
  const pile = el(
    "span",
    { class: "pile", "aria-hidden": "true" },
    el("span", { class: "card card-small" }, cardBack()),
    el("span", { class: "card card-small" }, cardBack()),
  );
  return el(
    "button",
    {
      type: "button",
      class: "button button-musik",
      "data-intent": "musik",
      "data-index": i,
      "data-key": `musik:${i}`,
    },
    pile,
    t("table.musik.nth", { ordinal: ORDINAL[i] }),
  );
}
