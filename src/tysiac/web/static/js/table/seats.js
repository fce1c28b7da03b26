// The seats around the table: you at the bottom (#me), the opponents in the order they
// sit (#seats), each with the score, the tricks taken, the cards held and chips for what
// concerns that seat now (dealer, bid, contract, barrel, a computer player...).
import { $, el } from "../dom.js";
import { cardsCount, num } from "../a11y.js";
import * as S from "../state.js";
import { backs, botLabel, chip, nickText, region, show } from "./parts.js";
import { t } from "../words.js";

const SIDE = ["left", "top", "right"];

export function draw(state) {
  const shown = S.tableShown(state);
  show($("table"), shown);
  if (!shown) return;
  const { game, view } = state.snap;
  const place = S.positions(game.players, game.you);
  const bottom = Number(Object.keys(place).find((seat) => place[seat] === "bottom"));
  const h = view.hand;
  const shownFacts = [
    game.seats,
    game.you,
    view.scores,
    view.on_barrel,
    view.timeouts,
    view.to_move,
    h.phase,
    h.dealer,
    h.sitting_out,
    h.mus,
    h.mus_bid,
    h.declarer,
    h.contract,
    h.bid,
    h.auction,
    h.counts,
    h.tricks,
    h.blind,
    h.golden,
    view.counters,
  ];
  region("seats", shownFacts, () => {
    const others = game.seats
      .map((s) => s.seat)
      .filter((seat) => seat !== bottom)
      .sort((a, b) => SIDE.indexOf(place[a]) - SIDE.indexOf(place[b]));
    $("seats").dataset.players = String(game.players);
    $("seats").replaceChildren(...others.map((seat) => seatPanel(state, seat, place[seat])));
    $("me").replaceChildren(seatPanel(state, bottom, "bottom"));
  });
}

function seatChips(state, seat) {
  const { view } = state.snap;
  const h = view.hand;
  const info = state.snap.game.seats[seat];
  const out = h?.sitting_out === seat; // R7: the server says who sits the hand out
  const chips = [];
  if (h) {
    if (seat === h.dealer) chips.push(chip(t("table.chip.dealer"), "chip-dealer"));
    if (out) chips.push(chip(t("table.chip.sitting_out"), "chip-out"));
    if (h.phase === "bidding" && !out) {
      const mine = h.auction.filter((a) => a.seat === seat);
      const last = mine[mine.length - 1];
      if (last) {
        chips.push(
          last.bid === null
            ? chip(t("table.chip.pass"), "chip-pass")
            : chip(t("table.chip.bid", { value: last.bid }), "chip-bid"),
        );
      } else if (seat === h.mus && h.mus_bid !== null)
        chips.push(chip(t("table.chip.mus", { value: h.mus_bid }), "chip-mus"));
    }
    if (seat === h.blind) chips.push(chip(t("table.chip.blind"), "chip-declarer"));
    else if (h.golden && seat === h.declarer)
      chips.push(chip(t("table.chip.golden", { value: h.contract }), "chip-declarer chip-golden"));
    else if (seat === h.declarer) {
      const role = h.contract
        ? t("table.chip.contract", { value: h.contract })
        : t("table.chip.declarer", { value: h.bid });
      chips.push(chip(role, "chip-declarer"));
    }
  }
  const { counters, options } = view;
  if (view.on_barrel[seat]) {
    // V10: one sitter, three tries.
    const tries =
      options?.barrel === "880" && counters?.barrel === seat
        ? t("table.chip.barrel.tries", { tries: counters.tries })
        : t("table.chip.barrel");
    chips.push(chip(tries, "chip-barrel"));
  }
  if (options?.bolts && counters?.bolts[seat])
    chips.push(chip(t("table.chip.bolts", { count: counters.bolts[seat] }), "chip-warn"));
  if (options?.bomb === "free" && counters?.bombs[seat])
    chips.push(chip(t("table.chip.bomb_used"), ""));
  if (info.bot) chips.push(chip(botLabel(info.bot), "chip-bot"));
  if (!info.connected) chips.push(chip(t("table.chip.disconnected"), "chip-off"));
  if (view.timeouts[seat])
    chips.push(chip(t("table.chip.timeouts", { count: view.timeouts[seat] }), "chip-warn"));
  return chips;
}

function seatPanel(state, seat, pos) {
  const { game, view } = state.snap;
  const h = view.hand;
  const info = game.seats[seat];
  const own = seat === game.you;
  const out = h?.sitting_out === seat;
  const turn = view.to_move === seat;
  const count = h && !own && !out ? h.counts[seat] : 0;
  const facts = [
    el("span", { class: "nowrap" }, t("table.points", { points: num(view.scores[seat]) })),
  ];
  if (h && h.phase !== "bidding" && !out)
    facts.push(el("span", { class: "nowrap" }, t("table.seat.tricks", { count: h.tricks[seat] })));
  const cards = count
    ? el(
        "span",
        { class: "seat-cards" },
        backs(Math.min(count, 3), cardsCount(count), "pile-fan"),
        el("span", { class: "count", "aria-hidden": "true" }, String(count)),
      )
    : "";
  const clock = turn
    ? el(
        "span",
        { class: "chip chip-turn" },
        el("span", { class: "sr-only" }, `${t("table.seat.turn")} `),
        el("span", { "data-clock": "", class: "seat-clock" }),
      )
    : "";
  const separated = facts.flatMap((f, i) =>
    i ? [el("span", { class: "sep", "aria-hidden": "true" }, "·"), f] : [f],
  );
  return el(
    own || pos === "bottom" ? "div" : "li",
    {
      class: ["seat", `seat-${pos}`, turn && "seat-turn", own && "seat-own", out && "seat-out"]
        .filter(Boolean)
        .join(" "),
      "data-seat": String(seat),
    },
    el(
      "p",
      { class: "seat-name" },
      el("span", { class: `dot${info.connected ? " dot-on" : ""}`, "aria-hidden": "true" }),
      nickText(info.nick ?? t("table.seat.free"), "strong"),
      own ? el("span", { class: "you" }, ` ${t("table.seat.you")}`) : "",
      el(
        "span",
        { class: "sr-only" },
        t(info.connected ? "table.seat.connected" : "table.seat.disconnected"),
      ),
      clock,
      cards,
    ),
    el("p", { class: "seat-line" }, separated),
    el("p", { class: "chips" }, seatChips(state, seat)),
  );
}
