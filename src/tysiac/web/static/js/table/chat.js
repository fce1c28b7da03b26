// The chat. Its log holds exactly the snapshot's lines, which are the last ones the
// server keeps: a line's node is made once (a screen reader hears it once), a report
// only changes its button, and lines the server no longer sends are removed, so the log
// never outgrows it.
import { $, el } from "../dom.js";
import { setText, show } from "./parts.js";
import { has, t } from "../words.js";

const drawnLines = new Map(); // seq -> {node, you}: a line in the log, drawn for seat `you`

export function draw(state) {
  const game = state.snap?.game;
  show($("chat"), Boolean(game?.chat));
  show($("tab-chat"), Boolean(game?.chat));
  if (!game?.chat) return;
  show($("chat-body"), !state.chatHidden);
  show($("chat-off"), state.chatHidden);
  setText($("chat-toggle"), state.chatHidden ? t("table.chat.show") : t("table.chat.hide"));
  show($("chat-form"), game.can_chat);
  setText($("chat-error"), state.chatError);
  // The server's reason by its key, worded in the page's language (its Polish text else).
  const note = game.chat_note_key && has(game.chat_note_key) ? t(game.chat_note_key) : null;
  setText($("chat-note"), note ?? (game.chat_note || ""));
  const lines = state.snap.chat;
  const box = $("chat-log");
  const sent = new Set(lines.map((line) => line.seq));
  for (const [seq, entry] of drawnLines) {
    if (sent.has(seq) && entry.you === game.you) continue;
    entry.node.remove();
    drawnLines.delete(seq);
  }
  let added = false;
  let previous = null;
  for (const line of lines) {
    const reported = state.reported.includes(line.seq);
    let entry = drawnLines.get(line.seq);
    if (entry) {
      const button = entry.node.querySelector("button");
      if (button) setReport(button, line, reported);
    } else {
      entry = { node: chatLine(game, line, reported), you: game.you };
      drawnLines.set(line.seq, entry);
      added = true;
    }
    const next = previous ? previous.nextElementSibling : box.firstElementChild;
    if (next !== entry.node) box.insertBefore(entry.node, next);
    previous = entry.node;
  }
  // Whatever follows the lines goes: the placeholder, once the first line came.
  const after = () => (previous ? previous.nextElementSibling : box.firstElementChild);
  if (lines.length) while (after()) after().remove();
  else if (!box.firstElementChild) box.append(el("p", { class: "muted" }, t("table.chat.empty")));
  if (added) box.scrollTop = box.scrollHeight; // the log scrolls, never the page
}

/** The line just sent went out: the field is emptied for the next one. */
export function clearInput() {
  $("chat-text").value = "";
}

function setReport(button, line, reported) {
  const label = t(reported ? "table.chat.reported.label" : "table.chat.report.label", {
    nick: line.nick,
  });
  if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
  setText(button, t(reported ? "table.chat.reported" : "table.chat.report"));
  if (button.disabled !== reported) button.disabled = reported;
}

function chatLine(game, line, reported) {
  const time = new Date(line.at).toLocaleTimeString(t("table.chat.locale"), {
    hour: "2-digit",
    minute: "2-digit",
  });
  let report = "";
  if (game.you !== null && line.seat !== game.you) {
    report = el("button", {
      class: "link-button",
      type: "button",
      "data-intent": "report",
      "data-seq": String(line.seq),
    });
    setReport(report, line, reported);
  }
  return el(
    "p",
    { "data-seq": String(line.seq) },
    el("span", { class: "muted" }, `${time} `),
    el("strong", {}, line.nick),
    `: ${line.text} `,
    report,
  );
}
