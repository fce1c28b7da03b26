// "Przebieg gry" holds the server's log (the snapshot's `log`): a reload or a late
// spectator sees the same lines. Entries that came after the first state are also told
// to the announcer (`ui.log`, from state.js's logNews); the first state's are only shown.
import { $, el } from "../dom.js";
import { logLine, logLines } from "../a11y.js";
import * as S from "../state.js";

export function draw(state, ui) {
  if (!ui.log.draw) return;
  const entries = state.snap.log;
  const box = $("log");
  const view = S.view(state);
  const nick = (seat) => S.speakerOf(state, seat);
  const drawn = new Set([...box.children].map((node) => Number(node.dataset.v)));
  let added = false;
  for (const entry of entries) {
    if (drawn.has(entry.v)) continue;
    for (const line of logLines(entry, view, nick)) {
      box.append(el("p", { "data-v": String(entry.v) }, line));
      if (entry.v > ui.log.sayAfter) logLine(line);
    }
    drawn.add(entry.v);
    added = true;
  }
  // The server keeps the newest entries: older lines go as it drops them.
  const oldest = entries.length ? entries[0].v : Infinity;
  while (box.firstElementChild && Number(box.firstElementChild.dataset.v) < oldest)
    box.firstElementChild.remove();
  if (added) box.scrollTop = box.scrollHeight;
}
