// DOM events of the table page turned into intents: {type: ...} objects handed to
// dispatch(). Nothing here changes the page; main.js decides, render.js draws.
import { $ } from "./dom.js";

const INTENTS = {
  pass: () => ({ type: "move", action: { type: "pass" } }),
  bomb: () => ({ type: "move", action: { type: "bomb" } }),
  redeal: () => ({ type: "move", action: { type: "redeal" } }),
  resign: () => ({ type: "move", action: { type: "resign" } }),
  blind: () => ({ type: "move", action: { type: "blind" } }),
  look: () => ({ type: "move", action: { type: "look" } }),
  bid: (node) => ({ type: "move", action: { type: "bid", value: Number(node.dataset.value) } }),
  declare: (node) => ({
    type: "move",
    action: { type: "declare", value: Number(node.dataset.value) },
  }),
  "more-bids": () => ({ type: "more-bids" }),
  summary: () => ({ type: "summary" }),
  drawer: (node) => ({ type: "drawer", panel: node.dataset.panel }),
  "drawer-close": () => ({ type: "drawer-close" }),
  musik: (node) => ({ type: "move", action: { type: "musik", index: Number(node.dataset.index) } }),
  give: () => ({ type: "give" }),
  discard: () => ({ type: "discard" }),
  reset: () => ({ type: "reset" }),
  "last-trick": () => ({ type: "last-trick" }),
  "surrender-ask": () => ({ type: "surrender-ask" }),
  "surrender-yes": () => ({ type: "surrender-yes" }),
  "surrender-no": () => ({ type: "surrender-no" }),
  rematch: () => ({ type: "rematch" }),
  "add-bot": () => ({ type: "add-bot", level: $("add-bot-level").value }),
  "remove-bot": (node) => ({ type: "remove-bot", seat: Number(node.dataset.seat) }),
  "copy-link": () => ({ type: "copy-link" }),
  share: () => ({ type: "share" }),
  "toggle-chat": () => ({ type: "toggle-chat" }),
  report: (node) => ({ type: "report", seq: Number(node.dataset.seq) }),
};

const KEYS = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };

export function bindInput(dispatch) {
  document.addEventListener("click", (event) => {
    const card = event.target.closest("#hand [data-card]");
    if (card) {
      // Cards that may not be used now stay focusable but do nothing.
      dispatch(
        card.getAttribute("aria-disabled") === "true"
          ? { type: "focus-card", code: card.dataset.card }
          : { type: "card", code: card.dataset.card },
      );
      return;
    }
    const node = event.target.closest("[data-intent]");
    if (!node || node.disabled) return;
    const make = INTENTS[node.dataset.intent];
    if (!make) throw new Error(`unknown data-intent: ${node.dataset.intent}`);
    dispatch(make(node));
  });

  // The hand is a toolbar with a roving tabindex: arrows, Home and End move the focus.
  $("hand").addEventListener("keydown", (event) => {
    const buttons = [...$("hand").querySelectorAll("[data-card]")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    let to = null;
    if (event.key in KEYS) to = (at + KEYS[event.key] + buttons.length) % buttons.length;
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = buttons.length - 1;
    if (to === null) return;
    event.preventDefault();
    dispatch({ type: "focus-card", code: buttons[to].dataset.card, now: true });
  });

  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    dispatch({ type: "chat", text: $("chat-text").value });
  });

  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    dispatch({ type: "join", nick: $("join-nick").value });
  });

  // Esc closes an open side drawer (the surrender dialog handles its own Esc).
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.body.classList.contains("drawer-open"))
      dispatch({ type: "drawer-close" });
  });

  // Esc or the dialog's own close: the same as "Anuluj".
  $("surrender-dialog").addEventListener("close", () => dispatch({ type: "surrender-no" }));

  addEventListener("online", () => dispatch({ type: "wake" }));
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) dispatch({ type: "wake" });
  });
}
