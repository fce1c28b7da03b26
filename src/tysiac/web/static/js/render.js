// Draws the table page from the state: each region of the page is a module of table/
// with draw(state, ui), where `ui` holds what this frame shows beside the state (the
// motion, the log's news, the turn's text), worked out by the pure functions of
// state.js from what the page drew before (`marks`). A draw is batched per animation
// frame; each region is redrawn only when what it shows has changed, and the hand card
// by card, so a focused control stays put. When a focused element does go away (a
// played card, a finished choice), focus moves to its neighbour or to the region that
// held it: it is never dropped on the page body.
import { $ } from "./dom.js";
import * as S from "./state.js";
import * as chat from "./table/chat.js";
import * as clock from "./table/clock.js";
import * as controls from "./table/controls.js";
import * as drawer from "./table/drawer.js";
import * as end from "./table/end.js";
import * as hand from "./table/hand.js";
import * as head from "./table/head.js";
import * as lobby from "./table/lobby.js";
import * as log from "./table/log.js";
import * as scores from "./table/scores.js";
import * as seats from "./table/seats.js";
import * as summary from "./table/summary.js";
import * as surrender from "./table/surrender.js";
import * as trick from "./table/trick.js";

// In this order: the summary makes the countdown's node before the clock fills it.
const REGIONS = [
  head,
  lobby,
  end,
  seats,
  trick,
  summary,
  controls,
  hand,
  scores,
  log,
  chat,
  drawer,
  surrender,
];
const CALM = matchMedia("(prefers-reduced-motion: reduce)");

const visible = (node) => node.getClientRects().length > 0;

export function createRenderer({ nick = "", onWarning = () => {} } = {}) {
  if (!$("join-nick").value) $("join-nick").value = nick; // one typed meanwhile stays
  let marks = S.initialMarks();
  let frame = 0;
  let pending = null;
  let drawn = null; // the state last drawn
  drawer.onLayoutChange(() => drawn && schedule(drawn));

  /** Draw at once (a key moved the focus: the next key must find it there). */
  function flush(state) {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    draw(state);
  }

  function schedule(state) {
    pending = state;
    if (!frame) {
      frame = requestAnimationFrame(() => {
        frame = 0;
        draw(pending);
      });
    }
  }

  /** The table's motion at `now`; the marks move on. */
  function motion(state, now) {
    const next = S.tableMotion(marks, state, now, CALM.matches);
    marks = next.marks;
    return next.motion;
  }

  function draw(state) {
    drawn = state;
    const focused = document.activeElement;
    const keepKey = focused?.dataset?.key;
    const ancestors = [];
    for (let node = focused; node && node !== document.body; node = node.parentElement)
      ancestors.push(node);

    const log = S.logNews(marks.logV, state.snap?.log);
    marks = { ...marks, logV: log.logV };
    const now = Date.now();
    const ui = { motion: motion(state, now), log };
    for (const part of REGIONS) part.draw(state, ui);
    tick(state, Date.now());

    // Lost: the focused element went away and the browser put focus on the body
    // (a dialog that closed hands it back to its opener by itself).
    const current = document.activeElement;
    const gone = !focused?.isConnected || !visible(focused) || focused.disabled;
    if (
      focused &&
      focused !== document.body &&
      gone &&
      (!current || current === document.body || current === focused)
    ) {
      restoreFocus(keepKey, ancestors);
    }
  }

  /** Every quarter second: the clock, the turn announcement, the taken trick. */
  function tick(state, now) {
    const turn = S.turnNotice(marks.warned, state, now);
    marks = { ...marks, warned: turn.warned };
    if (turn.warn) onWarning();
    const ui = { motion: motion(state, now), turn };
    clock.draw(state, ui);
    trick.draw(state, ui);
  }

  return { schedule, flush, tick, clearChatInput: chat.clearInput };
}

/** Focus the same control again, else the nearest region that held the lost one. */
function restoreFocus(key, ancestors) {
  if (key) {
    const same = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (same && visible(same) && !same.disabled) return same.focus();
  }
  for (const node of ancestors) {
    if (!node.isConnected || !visible(node)) continue;
    if (node.id === "hand") {
      const current = node.querySelector('[tabindex="0"]');
      if (current) return current.focus();
      continue;
    }
    if (node.id === "moves") {
      const first = node.querySelector("button:not([disabled])");
      return (first || node).focus();
    }
    // A region takes the focus where it is: the page does not jump to it.
    if (node.hasAttribute("tabindex")) return node.focus({ preventScroll: true });
  }
  const region = ["end", "summary", "controls"].map($).find((node) => visible(node));
  (region || $("main")).focus({ preventScroll: true });
}
