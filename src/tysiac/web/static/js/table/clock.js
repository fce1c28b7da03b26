// The status line (whose turn it is, read out by screen readers), the clocks (the top
// bar's and the one on the seat to move), and the countdown to the next hand. The text
// comes from state.js's turnNotice, as `ui.turn`; redrawn every quarter second.
import { $ } from "../dom.js";
import { announce } from "../a11y.js";
import { setText } from "./parts.js";

export function draw(state, ui) {
  const { turn, clock, nextDeal } = ui.turn;
  const next = nextDeal === null ? null : $("next-deal");
  if (next) setText(next, nextDeal);
  announce(turn);
  setText($("clock"), clock);
  for (const node of document.querySelectorAll("[data-clock]")) setText(node, clock);
}
