// The side column (scores, move log, chat): beside the table on a wide screen; on a
// narrow one a drawer over the table, opened from the top bar's tabs, the chat's tab
// with the count of lines that came while the chat was not on screen.
import { $ } from "../dom.js";
import * as S from "../state.js";
import { setAttr, setText, show } from "./parts.js";
import { t } from "../words.js";

const WIDE = matchMedia("(min-width: 62em)"); // the side column stands beside the table

/** Call `redraw` when the page crosses the width where the column and drawer swap
 * (a window resized, a tablet turned): no new state may come to redraw it. */
export function onLayoutChange(redraw) {
  WIDE.addEventListener("change", redraw);
}

export function draw(state) {
  const wide = WIDE.matches;
  const drawer = wide ? null : state.drawer;
  const side = $("side");
  show($("drawer-tabs"), !wide && Boolean(state.snap));
  side.classList.toggle("drawer", !wide);
  side.classList.toggle("open", Boolean(drawer));
  document.body.classList.toggle("drawer-open", Boolean(drawer));
  for (const panel of side.querySelectorAll("[data-panel]"))
    panel.classList.toggle("current", panel.dataset.panel === drawer);
  for (const name of ["scores", "log", "chat"]) {
    setAttr($(`tab-${name}`), "aria-expanded", String(drawer === name));
  }
  const unread = S.unreadChat(state, wide || drawer === "chat");
  show($("unread"), unread > 0);
  setText($("unread"), unread ? String(unread) : "");
  setAttr($("tab-chat"), "aria-label", unread ? t("table.drawer.unread", { count: unread }) : null);
}
