// The middle of the table: the contract, the trump, the melds, the musiks while they
// lie there, and the trick: the one being played, or for a moment the one just taken
// (all its cards, the winner marked, then sliding to the winner), or the last one on
// request. The motion comes from state.js (tableMotion), as `ui.motion`.
import { $, el } from "../dom.js";
import { SUITS, counted, meldName } from "../a11y.js";
import { suitIcon } from "../cards.js";
import * as S from "../state.js";
import { ORDINAL, backs, cardImage, nickText, region } from "./parts.js";
import { t } from "../words.js";

export function draw(state, ui) {
  if (!ui.motion) return;
  const { view, game } = state.snap;
  const { taken, sliding } = ui.motion;
  const shownFacts = [
    view.hand,
    state.showLastTrick,
    taken,
    sliding,
    view.hand_number,
    game.seats.map((s) => s.nick),
    game.you,
  ];
  region("center", shownFacts, () => {
    $("center").replaceChildren(...centerParts(state, ui.motion));
  });
}

function contractText(h, nick) {
  if (h.declarer === null && h.bid === null) return t("table.contract.none");
  if (h.declarer === null)
    return t(h.blind !== null ? "table.contract.highest.blind" : "table.contract.highest", {
      value: h.bid,
      nick: nick(h.bidder),
    });
  if (h.contract === null)
    return t("table.contract.declarer", { nick: nick(h.declarer), value: h.bid });
  return t("table.contract", { nick: nick(h.declarer), value: h.contract });
}

function centerParts(state, motion) {
  const { view } = state.snap;
  const h = view.hand;
  const nick = (seat) => S.nickOf(state, seat);
  const parts = [];
  if (h.golden) parts.push(goldenBanner(state));
  parts.push(
    el(
      "p",
      { class: "center-info" },
      el("span", { class: "wide-only" }, t("table.hand_number", { number: view.hand_number })),
      el("span", {}, contractText(h, nick)),
      el(
        "span",
        { class: "trump" },
        `${t("table.trump")} `,
        h.trump ? [suitIcon(h.trump), ` ${SUITS[h.trump]}`] : t("table.trump.none"),
      ),
    ),
  );
  if (h.melds.length) {
    parts.push(
      el(
        "p",
        { class: "center-melds" },
        `${t("table.melds")} `,
        h.melds.map((m, i) =>
          el(
            "span",
            { class: "meld" },
            i ? ", " : "",
            `${nick(m.seat)}: `,
            m.suit ? [suitIcon(m.suit), " "] : "",
            meldName(m),
          ),
        ),
      ),
    );
  }
  if (S.MUSIK_PHASES.includes(h.phase)) parts.push(musiks(h, motion.turning));
  if (h.phase !== "play" && !motion.lastOne) return parts;
  parts.push(trick(state, motion));
  return parts;
}

/**
 * V15: "Złoty As: rozdanie 2 z 3 — gra Ola, 120 w ciemno". The golden hands are counted
 * when one ends (counters.golden), so while one is played it is the next of them.
 */
function goldenBanner(state) {
  const { view } = state.snap;
  const h = view.hand;
  const number = view.counters.golden + (h.phase === "over" ? 0 : 1);
  return el(
    "p",
    { class: "golden-banner" },
    t("table.golden", { number, count: view.players, nick: S.nickOf(state, h.declarer) }),
  );
}

function musiks(h, turning) {
  return el(
    "div",
    { class: "musiks" },
    h.musiks.map((musik, i) => {
      const title =
        h.musiks.length > 1 ? t("table.musik.nth", { ordinal: ORDINAL[i] }) : t("table.musik");
      const takenMusik = h.musik_taken === i ? ` ${t("table.musik.taken")}` : "";
      const faceDown = counted("count.face_down", musik.count);
      const hidden = t("table.musik.hidden", { title, cards: faceDown });
      const cards = musik.cards
        ? el(
            "span",
            { class: "pile pile-open" },
            musik.cards.map((c) => cardImage(c, `card-musik${turning ? " turn-up" : ""}`)),
          )
        : backs(musik.count, hidden, "pile-musik");
      return el("div", { class: "musik" }, el("p", { class: "label" }, title + takenMusik), cards);
    }),
  );
}

function trick(state, { taken, sliding, lastOne, fresh }) {
  const { game, view } = state.snap;
  const h = view.hand;
  const nick = (seat) => S.nickOf(state, seat);
  const place = S.positions(game.players, game.you);
  const cards = lastOne ? h.last_trick.cards : h.trick;
  const winner = lastOne ? h.last_trick.winner : h.winning;
  let title = t("table.trick");
  if (lastOne)
    title =
      state.showLastTrick && !taken
        ? t("table.trick.last", { nick: nick(winner) })
        : t("table.trick.taken", { nick: nick(winner) });
  const asked = state.showLastTrick && !taken ? " trick-last" : "";
  const slide = sliding ? ` collect-${place[winner]}` : "";
  return el(
    "div",
    { class: `trick${asked}${lastOne ? " trick-taken" : ""}${slide}` },
    el("p", { class: "label" }, title),
    el(
      "ol",
      { class: `trick-cards trick-${game.players}` },
      cards.map((p, i) =>
        el(
          "li",
          {
            class: `played${p.seat === winner ? " played-win" : ""}${i === fresh ? " arrive" : ""}`,
            "data-pos": place[p.seat],
          },
          cardImage(p.card),
          nickText(nick(p.seat), "span"),
          p.seat === winner
            ? el(
                "span",
                { class: "chip chip-win" },
                t(lastOne ? "table.chip.takes" : "table.chip.wins"),
              )
            : "",
        ),
      ),
    ),
    cards.length
      ? ""
      : el(
          "p",
          { class: "empty" },
          h.to_move === null ? "" : t("table.trick.lead", { nick: nick(h.to_move) }),
        ),
  );
}
