// The table page (/g/CODE): wires the socket, the state, the renderer and the input.
// The server decides every rule: the page offers exactly the moves in view.legal.
import { $ } from "./dom.js";
import { joinGame, normaliseCode } from "./api.js";
import { cardsToPick, eventText, initLive, logLine } from "./a11y.js";
import { initPwa } from "./pwa.js";
import { bindInput } from "./input.js";
import { createRenderer } from "./render.js";
import "./settings.js"; // the "Aa" button, wired as soon as it loads
import { openSocket } from "./socket.js";
import { play as playSound } from "./sound.js";
import { site } from "./site.js";
import * as S from "./state.js";
import * as store from "./store.js";
import { errorText, lang, t } from "./words.js";

initPwa();
initLive($("turn"), $("announcer"));

function codeFromPath() {
  const raw = location.pathname.split("/")[2] || "";
  try {
    return normaliseCode(decodeURIComponent(raw));
  } catch {
    return normaliseCode(raw);
  }
}

const code = codeFromPath();
const renderer = createRenderer({ nick: store.getNick(), onWarning: () => playSound("warning") });
let state = S.withFlag(S.initialState(code, store.loadSeat(code)), "notice", store.takeNotice());

function update(next) {
  state = next;
  renderer.schedule(state);
}

const nickOf = (seat) => S.nickOf(state, seat);

const say = logLine;

// The computer levels the server has, by their names (level.<level>), in the host's list.
function showLevels(select, levels) {
  const chosen = select.value || "medium"; // the level chosen at first
  select.replaceChildren(
    ...levels.map((level) => {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = t(`level.${level}`);
      return option;
    }),
  );
  if (levels.includes(chosen)) select.value = chosen;
}
if (site) showLevels($("add-bot-level"), site.levels);

// --- the socket ---

/** Sounds for what a new state brought (never for the first state of the page). */
function soundFor(before, after) {
  if (!before) return;
  const since = before.log?.at(-1)?.v ?? 0;
  const fresh = (after.log ?? []).filter((entry) => entry.v > since);
  const played = fresh.some((e) => e.kind === "play" || e.move?.kind === "play");
  if (fresh.some((e) => e.took !== undefined && e.took !== null)) playSound("trick");
  else if (played) playSound("card");
  const you = after.game.you;
  const yours = (snap) => you !== null && snap.view?.to_move === you;
  if (yours(after) && !yours(before)) playSound("turn");
}

const handlers = {
  state(message) {
    const before = state.snap;
    update(S.withSnapshot(state, message, Date.now()));
    soundFor(before, state.snap);
    const { game } = state.snap;
    if (game.status === "finished" || game.status === "cancelled") store.markEnded(code);
    if (game.rematch && game.you !== null) carrySeat(game.rematch);
  },
  // What happened in the game comes again in the state that follows, in its `log`: the
  // page draws "Przebieg gry" from there, so a reload shows the same lines. Only what
  // the chat tells (it turned off) is said from here.
  event(message) {
    for (const event of message.events) {
      if (event.kind === "chat" || event.kind === "chat_rejected") say(eventText(event, nickOf));
    }
  },
  error(message) {
    const { code: kind, field } = message.error;
    const text = errorText(message.error);
    if (kind === "deleted") store.markEnded(code);
    if (field === "text") {
      // A refusal of a chat line (the field of the chat message), shown beside the chat.
      // Kept beside the chat until the next message: a state that follows does not hide it.
      update(S.withFlag(state, "chatError", text));
      say(text);
      return;
    }
    // A stale move is followed by a fresh state: nothing to tell.
    update(S.withError(state, kind === "stale" ? "" : text));
  },
  pong() {},
  reported(message) {
    update(S.withFlag(state, "reported", [...state.reported, message.seq]));
    say(t("table.chat.reported.note"));
  },
  deleted(message) {
    store.markEnded(code);
    // Worded by its key (the operator's reason as written), else the server's words.
    update(S.withError(state, errorText(message) || t("table.deleted")));
  },
};

const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = openSocket({
  // The page's language: the server words what it must in it (the error's `message`).
  url: `${scheme}://${location.host}/ws/${encodeURIComponent(code)}?lang=${lang()}`,
  hello: () => state.stored?.token ?? null,
  handlers,
  onStatus: (status, closeCode) => {
    if (status === "retrying" && state.connection === "open") say(t("connection.retrying"));
    update(S.withConnection(state, status, closeCode ?? null));
  },
  onClose: (closeCode) => {
    if (closeCode === 4403 && state.stored) {
      // This browser's key is not valid for this game: watch as a spectator.
      store.removeSeat(code);
      update(S.withSeat(state, null));
      return "now";
    }
    if (closeCode === 4404 || closeCode === 4410) store.markEnded(code);
    if (closeCode === 4503) return "retry"; // the store was too busy: the same hello will do
    return null;
  },
  onProtocolError: (error) => {
    console.error(error);
    update(S.withError(state, t("connection.not_understood")));
  },
});

/** A rematch keeps every seat and token: copy this browser's key to the new code. */
function carrySeat(rematchCode) {
  if (state.stored && !store.loadSeat(rematchCode)) {
    const { ended, chatOff, ...entry } = state.stored;
    store.saveSeat(rematchCode, { ...entry, joined: new Date().toISOString() });
  }
}

function sendMove(action) {
  if (state.busy || !state.snap) return;
  if (socket.send({ type: "move", v: state.snap.v, action })) {
    update(S.withBusy(state));
    renderer.flush(state); // at once: a second press must find the controls already off
  } else update(S.withError(state, t("connection.move_not_sent")));
}

// --- intents from input.js ---

async function copyLink() {
  const link = `${location.origin}/g/${code}`;
  let done = false;
  try {
    await navigator.clipboard.writeText(link);
    done = true;
  } catch {
    // no clipboard access: the link stays on screen to copy by hand
  }
  update(
    S.withFlag(state, "copyNote", done ? t("table.share.copied") : t("table.share.not_copied")),
  );
  setTimeout(() => update(S.withFlag(state, "copyNote", "")), 4000);
}

async function join(nick) {
  update(S.withFlag(state, "joinError", ""));
  try {
    const seated = await joinGame(code, nick);
    store.setNick(nick.trim());
    const entry = {
      seat: seated.seat,
      token: seated.token,
      nick: nick.trim(),
      joined: new Date().toISOString(),
    };
    store.saveSeat(seated.code, entry);
    update(S.withSeat(state, entry));
    socket.reconnect();
  } catch (error) {
    // Shown under the nick field, which gets the focus back.
    update(S.withFlag(state, "joinError", error.message));
    renderer.flush(state);
    $("join-nick").focus();
  }
}

const act = {
  move: (intent) => sendMove(intent.action),
  card(intent) {
    const { state: next, action } = S.activateCard(state, intent.code);
    update(next);
    if (action) sendMove(action);
    renderer.flush(state);
  },
  "focus-card"(intent) {
    update(S.withFocusCard(state, intent.code));
    renderer.flush(state);
  },
  give() {
    const action = S.giveAction(state);
    if (action) sendMove(action);
    else
      update(S.withError(state, t("table.give.first", { nick: nickOf(S.nextRecipient(state)) })));
  },
  discard() {
    const action = S.discardAction(state);
    if (action) sendMove(action);
    else
      update(
        S.withError(
          state,
          t("table.discard.first", { cards: cardsToPick(S.legal(state).discard?.count ?? 0) }),
        ),
      );
  },
  reset: () => update(S.resetSelection(state)),
  "last-trick": () => update(S.toggled(state, "showLastTrick")),
  summary: () => update(S.toggled(state, "summaryOpen")),
  "more-bids": () => update(S.toggled(state, "moreBids")),
  drawer(intent) {
    update(S.withDrawer(state, state.drawer === intent.panel ? null : intent.panel));
    renderer.flush(state);
    // A log drawn while its drawer was closed could not scroll: show its newest lines.
    for (const log of [$("log"), $("chat-log")]) log.scrollTop = log.scrollHeight;
    if (state.drawer) $("drawer-close").focus();
  },
  "drawer-close"() {
    const was = state.drawer;
    if (!was) return;
    update(S.withDrawer(state, null));
    renderer.flush(state);
    $(`tab-${was}`).focus();
  },
  "surrender-ask": () => update(S.withFlag(state, "confirmSurrender", true)),
  "surrender-no": () =>
    state.confirmSurrender && update(S.withFlag(state, "confirmSurrender", false)),
  "surrender-yes"() {
    update(S.withFlag(state, "confirmSurrender", false));
    sendMove({ type: "surrender" });
  },
  rematch() {
    if (!socket.send({ type: "rematch" })) update(S.withError(state, t("connection.none")));
  },
  "add-bot"(intent) {
    if (!socket.send({ type: "add_bot", level: intent.level }))
      update(S.withError(state, t("connection.none")));
  },
  "remove-bot"(intent) {
    if (!socket.send({ type: "remove_bot", seat: intent.seat }))
      update(S.withError(state, t("connection.none")));
  },
  "copy-link": copyLink,
  share: () =>
    navigator
      .share?.({
        title: t("table.share.title"),
        text: t("table.share.text", { code }),
        url: `${location.origin}/g/${code}`,
      })
      .catch(() => {}),
  "toggle-chat"() {
    update(S.toggled(state, "chatHidden"));
    store.updateSeat(code, { chatOff: state.chatHidden });
  },
  chat(intent) {
    const text = intent.text.trim();
    if (!text) return;
    update(S.withFlag(state, "chatError", ""));
    if (socket.send({ type: "chat", text })) renderer.clearChatInput();
    else update(S.withError(state, t("connection.chat_not_sent")));
  },
  join: (intent) => join(intent.nick),
  report(intent) {
    if (state.reported.includes(intent.seq)) return;
    if (!socket.send({ type: "report", seq: intent.seq }))
      update(S.withError(state, t("connection.none")));
  },
  wake: () => socket.wake(),
};

bindInput((intent) => {
  const handler = act[intent.type];
  if (!handler) throw new Error(`unknown intent: ${intent.type}`); // a bug here, not the player's
  handler(intent);
});

setInterval(() => renderer.tick(state, Date.now()), 250);
renderer.schedule(state);
