// After a hand: its summary (who played what, the points from cards and melds, the
// change of each score, the musik nobody took), shown at once when the hand is over
// and opened again on request until the next hand ends.
import { $, el } from "../dom.js";
import { goldenEnd, resultText, signed } from "../a11y.js";
import * as S from "../state.js";
import { ORDINAL, cardImage, nickText, region, setAttr, setText, show } from "./parts.js";
import { t } from "../words.js";

export function draw(state) {
  const view = S.view(state);
  const h = view?.hand;
  const result = view?.results[view.results.length - 1];
  const over = Boolean(h && h.phase === "over");
  const visibleNow =
    Boolean(result) && (over || state.summaryOpen) && state.snap.game.status === "playing";
  show($("summary"), visibleNow);
  const opener = $("summary-open");
  show(opener, Boolean(result) && !over && state.snap?.game.status === "playing");
  setText(opener, t(state.summaryOpen ? "table.summary.close" : "table.summary.open"));
  setAttr(opener, "aria-expanded", String(Boolean(state.summaryOpen)));
  if (!visibleNow) return;
  const nicks = state.snap.game.seats.map((s) => s.nick);
  region(
    "summary",
    [view.results.length, over, over && h.musiks, nicks, view.awaiting_deal],
    () => {
      $("summary").replaceChildren(...summaryParts(state, result, over));
    },
  );
}

function summaryParts(state, result, over) {
  const { game, view } = state.snap;
  const h = view.hand;
  const nick = (seat) => S.nickOf(state, seat);
  const heading = el(
    "h2",
    { id: "summary-title" },
    over ? t("table.summary.title") : t("table.summary.title.nth", { number: view.results.length }),
  );
  // V15: after the last golden hand, whether the scores went back to zero or stand.
  const goldenLine = goldenEnd(view, view.results.indexOf(result));
  const golden = goldenLine
    ? el("p", { class: `golden-end${result.reset ? " golden-reset" : ""}` }, goldenLine)
    : "";
  if (result.end !== "played") {
    // A void, redealt, bombed or resigned hand: what happened and who scored (V6, V7,
    // V13, V15).
    return [heading, el("p", { class: "summary-head" }, resultText(result, nick)), golden];
  }
  const d = result.declarer;
  const total = (i) => result.points[i] + result.melds[i];
  const rows = game.seats.map(({ seat }) => {
    const out = seat === result.sitting_out;
    const role = seat === d ? t("table.summary.declarer") : out ? t("table.chip.sitting_out") : "";
    return el(
      "tr",
      {},
      el(
        "th",
        { scope: "row", class: "nick-cell" },
        nickText(nick(seat)),
        role ? el("span", { class: "role" }, role) : "",
      ),
      el("td", {}, out ? "—" : result.points[seat]),
      el("td", {}, out ? "—" : result.melds[seat]),
      el("td", {}, out ? "—" : total(seat)),
      el("td", {}, signed(result.delta[seat])),
    );
  });
  const melds = game.seats
    .filter(({ seat }) => result.melds[seat] > 0)
    .map(({ seat }) => t("table.summary.meld", { nick: nick(seat), value: result.melds[seat] }));
  const unused =
    over && h.musiks.length > 1 ? h.musiks.findIndex((m, i) => i !== h.musik_taken && m.cards) : -1;
  const columns = [
    "table.summary.player",
    "table.summary.points",
    "table.summary.melds",
    "table.scores.total",
    "table.summary.change",
  ].map((key) => t(key));
  return [
    heading,
    el(
      "p",
      { class: "summary-head" },
      `${t(result.golden ? "table.summary.head.golden" : "table.summary.head", { nick: nick(d), contract: result.contract })} `,
      el(
        "strong",
        { class: result.made ? "made" : "failed" },
        t(result.made ? "result.made" : "result.failed"),
      ),
      ` ${t("table.summary.tail", { points: total(d), delta: signed(result.delta[d]) })}`,
    ),
    golden,
    el(
      "p",
      {},
      t("table.summary.melds.line", {
        melds: melds.length ? melds.join(", ") : t("table.summary.melds.none"),
      }),
    ),
    el(
      "div",
      { class: "scroll-x", role: "region", "aria-label": t("table.summary.table"), tabindex: "0" },
      el(
        "table",
        { class: "table summary-table" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            columns.map((name) => el("th", { scope: "col" }, name)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    ),
    unused >= 0
      ? el(
          "div",
          { class: "musik" },
          el(
            "p",
            { class: "label" },
            t("table.summary.unused", { ordinal: ORDINAL[unused].toLowerCase() }),
          ),
          el(
            "span",
            { class: "pile pile-open" },
            h.musiks[unused].cards.map((c) => cardImage(c, "card-musik")),
          ),
        )
      : "",
    view.awaiting_deal && over ? el("p", { id: "next-deal", class: "note" }) : "",
  ];
}
