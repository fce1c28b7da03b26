// The only module that touches the table page's DOM. draw() is batched per animation
// frame; each region is redrawn only when what it shows has changed, and the hand is
// updated card by card, so a focused control stays put. When a focused element does
// go away (a played card, a finished choice), focus moves to its neighbour or to the
// region that held it: it is never dropped on the page body.
import { $, el } from "./dom.js";
import { cardBack, cardFace, suitIcon } from "./cards.js";
import { BACK, SUITS, announce, cardName, cardsCount, cardsToPick, outcomeText, plural, signed } from "./a11y.js";
import * as S from "./state.js";

const PHASE_NAME = {
  bidding: "licytacja",
  musik: "wybór musiku",
  give: "oddawanie kart",
  discard: "odkładanie kart",
  declare: "deklaracja",
  play: "rozgrywka",
  over: "koniec rozdania",
};
const YOUR_MOVE = {
  bidding: () => "licytuj albo pasuj",
  musik: () => "wybierz musik",
  give: () => "oddaj karty przeciwnikom",
  discard: (moves) => `odłóż ${cardsToPick(moves.discard?.count ?? 0)}`,
  declare: () => "zadeklaruj, za ile grasz",
  play: () => "zagraj kartę",
};
const ORDINAL = ["Pierwszy", "Drugi"];

const clockText = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
const secondsText = (s) => `${s} ${plural(s, "sekunda", "sekundy", "sekund")}`;

function show(node, visible) {
  if (node.hidden === visible) node.hidden = !visible;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** A card picture with its name, for cards that are not buttons. */
function cardImage(code, extraClass = "") {
  return el("span", { class: `card ${extraClass}`, role: "img", "aria-label": code ? cardName(code) : BACK },
    code ? cardFace(code) : cardBack());
}

/** A face-down pile: "Musik: 3 zakryte karty" read once, not card by card. */
function backs(count, label, extraClass = "") {
  const pile = el("span", { class: `pile ${extraClass}`, role: "img", "aria-label": label });
  for (let i = 0; i < count; i++) pile.append(el("span", { class: "card card-small" }, cardBack()));
  return pile;
}

const chip = (text, kind = "") => el("span", { class: `chip ${kind}` }, text);

export function createRenderer({ nick = "" } = {}) {
  $("join-nick").value = nick;
  const memo = new Map();
  let frame = 0;
  let pending = null;
  let handIndex = 0; // where the keyboard focus was in the hand, for when its card goes
  let warned = ""; // the turn that was told "zostało N sekund"

  /** Redraw a region only when its key changed. */
  function region(name, key, draw) {
    const text = JSON.stringify(key);
    if (memo.get(name) === text) return;
    memo.set(name, text);
    draw();
  }

  /** Draw at once (a key moved the focus: the next key must find it there). */
  function flush(state) {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    draw(state);
  }

  function schedule(state) {
    pending = state;
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      draw(pending);
    });
  }

  function draw(state) {
    const focused = document.activeElement;
    const keepKey = focused?.dataset?.key;
    const ancestors = [];
    for (let node = focused; node && node !== document.body; node = node.parentElement) ancestors.push(node);

    drawHead(state);
    drawLobby(state);
    drawTable(state);
    drawSummary(state);
    drawEnd(state);
    drawControls(state);
    drawScores(state);
    drawChat(state);
    drawDialog(state);
    tick(state, Date.now());

    // Lost: the focused element went away and the browser put focus on the body
    // (a dialog that closed hands it back to its opener by itself).
    const now = document.activeElement;
    const gone = !focused?.isConnected || !visible(focused) || focused.disabled;
    if (focused && focused !== document.body && gone && (!now || now === document.body || now === focused)) {
      restoreFocus(keepKey, ancestors);
    }
  }

  const visible = (node) => node.getClientRects().length > 0;

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
        const first = node.querySelector("button:not([disabled]), select");
        return (first || node).focus();
      }
      if (node.hasAttribute("tabindex")) return node.focus();
    }
    const region = ["end", "summary", "controls"].map($).find((node) => visible(node));
    (region || $("main")).focus();
  }

  // --- head: title, connection, error ---

  function drawHead(state) {
    const game = state.snap?.game;
    const mine = game && S.view(state)?.to_move === game.you && game.you !== null;
    const name = game ? (game.name ? `${game.name} (${game.code})` : `Gra ${game.code}`) : `Gra ${state.code}`;
    setText($("title"), name);
    const title = `${mine ? "(Twój ruch) " : ""}${name} — Tysiąc`;
    if (document.title !== title) document.title = title;
    const conn = {
      connecting: "Łączenie…",
      open: "",
      retrying: "Połączenie przerwane. Łączę ponownie…",
      closed: state.closedCode === 4404 ? "Nie ma takiej gry." : "Połączenie zamknięte.",
    }[state.connection];
    setText($("conn"), state.connection === "open" && !state.snap ? "Łączenie…" : conn);
    setText($("error"), state.error);
  }

  // --- waiting for players ---

  function drawLobby(state) {
    const game = state.snap?.game;
    const waiting = game?.status === "waiting";
    show($("lobby"), Boolean(waiting));
    const spectator = Boolean(game) && game.you === null && !(waiting && !state.stored);
    show($("spectator"), spectator);
    if (!waiting) return;
    const link = `${location.origin}/g/${game.code}`;
    setText($("code"), game.code);
    setText($("link"), link);
    if ($("link").getAttribute("href") !== link) $("link").href = link;
    show($("share"), typeof navigator.share === "function");
    setText($("copy-note"), state.notice);
    show($("join-form"), game.you === null && !state.stored);
    region("lobby-seats", [game.seats, game.you], () => {
      $("lobby-seats").replaceChildren(...game.seats.map((s) =>
        el("li", { class: s.nick === null ? "free" : "" },
          `${s.seat + 1}. `,
          s.nick === null ? "wolne miejsce" : el("strong", {}, s.nick),
          s.seat === game.you ? " (Ty)" : "",
          " ",
          s.nick !== null ? (s.connected ? chip("połączony", "chip-ok") : chip("rozłączony", "chip-off")) : "")));
    });
  }

  // --- the table: seats, musik, trump, trick ---

  function seatOrder(state) {
    const game = state.snap.game;
    const n = game.players;
    const me = game.you;
    if (me === null) return { others: [...Array(n).keys()], me: null };
    return { others: [...Array(n - 1).keys()].map((i) => (me + 1 + i) % n), me };
  }

  function seatPanel(state, seat, own) {
    const { game, view } = state.snap;
    const h = view.hand;
    const info = game.seats[seat];
    const out = h?.sitting_out === seat; // R7: the server says who sits the hand out
    const chips = [];
    if (h) {
      if (seat === h.dealer) chips.push(chip("rozdaje", "chip-dealer"));
      if (out) chips.push(chip("pauzuje", "chip-out"));
      if (seat === h.mus && h.phase === "bidding") chips.push(chip("na musie", "chip-mus"));
      if (seat === h.declarer) chips.push(chip(h.contract ? `gra za ${h.contract}` : "rozgrywa", "chip-declarer"));
    }
    if (view.on_barrel[seat]) chips.push(chip("na beczce", "chip-barrel"));
    if (!info.connected) chips.push(chip("rozłączony", "chip-off"));
    if (view.timeouts[seat]) chips.push(chip(`spóźnienia: ${view.timeouts[seat]}`, "chip-warn"));

    const lines = [];
    if (h?.phase === "bidding" && !out) {
      const mine = h.auction.filter((a) => a.seat === seat);
      const last = mine[mine.length - 1];
      let bid = seat === h.mus ? `${h.mus_bid} (mus)` : "—";
      if (last) bid = last.bid === null ? "pas" : String(last.bid);
      lines.push(el("span", {}, `Licytacja: ${bid}`));
    }
    if (h && h.phase !== "bidding" && !out) lines.push(el("span", { class: "nowrap" }, `Lewy: ${h.tricks[seat]}`));
    const turn = view.to_move === seat;
    const count = h && !own && !out && h.counts[seat] > 0 ? h.counts[seat] : 0;
    return el(own ? "div" : "li", { class: `seat${turn ? " seat-turn" : ""}${own ? " seat-own" : ""}${out ? " seat-out" : ""}` },
      el("p", { class: "seat-name" },
        el("span", { class: `dot${info.connected ? " dot-on" : ""}`, "aria-hidden": "true" }),
        el("strong", {}, info.nick ?? "wolne miejsce"),
        own ? " (Ty)" : "",
        el("span", { class: "sr-only" }, info.connected ? ", połączony" : ""),
        turn ? el("span", { class: "chip chip-turn" }, "ruch ", el("span", { "data-clock": "", class: "seat-clock" })) : "",
        chips),
      el("p", { class: "seat-line" },
        el("span", { class: "seat-score" }, el("span", { class: "nowrap" }, `Wynik: ${view.scores[seat]}`), lines.length ? " · " : "", lines),
        count ? el("span", { class: "seat-cards" }, backs(Math.min(count, 10), cardsCount(count), "pile-fan"),
          el("span", { class: "count", "aria-hidden": "true" }, cardsCount(count))) : ""));
  }

  function drawTable(state) {
    const view = S.view(state);
    show($("table"), Boolean(view?.hand));
    if (!view?.hand) return;
    const { game } = state.snap;
    const order = seatOrder(state);
    region("seats", [game.seats, game.you, view.scores, view.on_barrel, view.timeouts, view.to_move, view.hand.phase,
      view.hand.dealer, view.hand.sitting_out, view.hand.mus, view.hand.declarer, view.hand.contract, view.hand.auction, view.hand.counts, view.hand.tricks], () => {
      $("seats").replaceChildren(...order.others.map((seat) => seatPanel(state, seat, false)));
      $("me").replaceChildren(...(order.me === null ? [] : [seatPanel(state, order.me, true)]));
    });
    const h = view.hand;
    region("center", [h, state.showLastTrick, view.hand_number, game.seats.map((s) => s.nick)], () => {
      $("center").replaceChildren(...centerParts(state));
    });
  }

  function centerParts(state) {
    const { view } = state.snap;
    const h = view.hand;
    const nick = (seat) => S.nickOf(state, seat);
    const parts = [];
    let contract;
    if (h.declarer === null) contract = `Najwyższa oferta: ${h.bid} (${nick(h.bidder)})`;
    else if (h.contract === null) contract = `Rozgrywa ${nick(h.declarer)}, licytacja ${h.bid}`;
    else contract = `${nick(h.declarer)} gra za ${h.contract}`;
    parts.push(el("p", { class: "center-info" },
      el("span", {}, `Rozdanie ${view.hand_number} · ${PHASE_NAME[h.phase]}`),
      el("span", {}, contract),
      el("span", { class: "trump" }, "Atut: ", h.trump ? [suitIcon(h.trump), ` ${SUITS[h.trump]}`] : "brak")));
    if (h.melds.length) {
      parts.push(el("p", { class: "center-melds" }, "Meldunki: ", h.melds.map((m, i) =>
        el("span", { class: "meld" }, i ? ", " : "", `${nick(m.seat)} `, suitIcon(m.suit), ` ${SUITS[m.suit]} ${m.value}`))));
    }
    const showMusik = ["bidding", "musik", "give", "discard", "declare"].includes(h.phase);
    if (showMusik) {
      parts.push(el("div", { class: "musiks" }, h.musiks.map((musik, i) => {
        const title = h.musiks.length > 1 ? `${ORDINAL[i]} musik` : "Musik";
        const taken = h.musik_taken === i ? " (wzięty)" : "";
        const cards = musik.cards
          ? el("span", { class: "pile pile-open" }, musik.cards.map((c) => cardImage(c, "card-musik")))
          : backs(musik.count, `${title}: ${musik.count} ${plural(musik.count, "zakryta karta", "zakryte karty", "zakrytych kart")}`);
        return el("div", { class: "musik" }, el("p", { class: "label" }, title + taken), cards);
      })));
    }
    const showLast = Boolean(h.last_trick) && (state.showLastTrick || h.phase === "over");
    const trick = showLast ? h.last_trick.cards : h.trick;
    const winner = showLast ? h.last_trick.winner : h.winning;
    if (h.phase === "play" || showLast) {
      const title = showLast ? `Ostatnia lewa — wziął(a) ${nick(h.last_trick.winner)}` : "Na stole";
      parts.push(el("div", { class: `trick${state.showLastTrick ? " trick-last" : ""}` },
        el("p", { class: "label" }, title),
        trick.length
          ? el("ol", { class: "trick-cards" }, trick.map((p) =>
            el("li", { class: `played${p.seat === winner ? " played-win" : ""}` },
              cardImage(p.card),
              el("span", { class: "played-nick" }, nick(p.seat)),
              p.seat === winner && !showLast ? el("span", { class: "chip chip-win" }, "bierze") : "")))
          : el("p", { class: "empty" }, h.to_move === null ? "" : `Wychodzi ${nick(h.to_move)}.`)));
    }
    return parts;
  }

  // --- after a hand: its summary ---

  function drawSummary(state) {
    const view = S.view(state);
    const h = view?.hand;
    const result = view?.results[view.results.length - 1];
    const visibleNow = Boolean(h && h.phase === "over" && result);
    show($("summary"), visibleNow);
    if (!visibleNow) return;
    region("summary", [view.hand_number, view.results.length, h.musiks, state.snap.game.seats.map((s) => s.nick), view.awaiting_deal], () => {
      const { game } = state.snap;
      const nick = (seat) => S.nickOf(state, seat);
      const d = result.declarer;
      const total = (i) => result.points[i] + result.melds[i];
      const rows = game.seats.map(({ seat }) => {
        const out = seat === result.sitting_out;
        const role = seat === d ? " (rozgrywał(a))" : out ? " (pauzował(a))" : "";
        return el("tr", {},
          el("th", { scope: "row" }, nick(seat), role ? el("span", { class: "role" }, role) : ""),
          el("td", {}, out ? "—" : result.points[seat]),
          el("td", {}, out ? "—" : result.melds[seat]),
          el("td", {}, out ? "—" : total(seat)),
          el("td", {}, signed(result.delta[seat])));
      });
      const melds = h.melds.length
        ? h.melds.map((m) => `${nick(m.seat)}: ${SUITS[m.suit]} ${m.value}`).join(", ")
        : "nikt nie meldował";
      const unused = h.musiks.length > 1 ? h.musiks.findIndex((m, i) => i !== h.musik_taken && m.cards) : -1;
      $("summary").replaceChildren(
        el("h2", { id: "summary-title" }, "Podsumowanie rozdania"),
        el("p", { class: "summary-head" }, `Rozdanie ${view.hand_number}. ${nick(d)} grał(a) za ${result.contract}: `,
          el("strong", { class: result.made ? "made" : "failed" }, result.made ? "ugrane" : "nieugrane"),
          ` (${total(d)} pkt), ${signed(result.delta[d])}.`),
        el("p", {}, `Meldunki: ${melds}.`),
        el("div", { class: "scroll-x", role: "region", "aria-label": "Punkty w rozdaniu", tabindex: "0" },
          el("table", { class: "table" },
            el("thead", {}, el("tr", {}, ["Gracz", "Karty", "Meldunki", "Razem", "Zmiana"].map((t) => el("th", { scope: "col" }, t)))),
            el("tbody", {}, rows))),
        unused >= 0 ? el("div", { class: "musik" }, el("p", { class: "label" }, `Niewzięty musik (${ORDINAL[unused].toLowerCase()}):`),
          el("span", { class: "pile pile-open" }, h.musiks[unused].cards.map((c) => cardImage(c, "card-musik")))) : "",
        view.awaiting_deal ? el("p", { id: "next-deal", class: "note" }) : "");
    });
  }

  // --- the end of the game ---

  function drawEnd(state) {
    const game = state.snap?.game;
    const ended = game?.status === "finished" || game?.status === "cancelled";
    show($("end"), Boolean(ended));
    if (!ended) return;
    setText($("end-text"), outcomeText(game, S.view(state), (seat) => S.nickOf(state, seat)));
    show($("rematch"), game.you !== null && game.status === "finished" && !game.rematch);
    show($("rematch-link"), Boolean(game.rematch));
    if (game.rematch) $("rematch-link").href = `/g/${game.rematch}`;
  }

  // --- own hand and moves ---

  function drawControls(state) {
    const view = S.view(state);
    const game = state.snap?.game;
    const h = view?.hand;
    const active = Boolean(h && game.you !== null && game.status === "playing");
    show($("controls"), active);
    if (!active) return;
    const mode = S.handMode(state);
    let prompt = "";
    if (mode === "give") {
      const to = S.nextRecipient(state);
      prompt = to === null ? "Karty wybrane. Naciśnij „Oddaj karty”." : `Wybierz kartę dla ${S.nickOf(state, to)}`;
    } else if (mode === "discard") {
      const left = S.discardsLeft(state);
      const more = state.selection.discard.length ? "jeszcze " : "";
      prompt = left ? `Wybierz ${more}${cardsToPick(left)} do odłożenia` : "Karty wybrane. Naciśnij „Odłóż karty”.";
    }
    setText($("prompt"), prompt);
    show($("prompt"), Boolean(prompt));
    region("moves", [S.legal(state), state.selection, h.phase, game.seats.map((s) => s.nick), state.busy], () => {
      $("moves").replaceChildren(...moveParts(state));
      // A move is on its way: nothing more to press until the server answers.
      if (state.busy) for (const node of $("moves").querySelectorAll("button, select")) node.disabled = true;
    });
    drawHand(state);
    let note = "";
    if (h.sitting_out === game.you) note = "W tym rozdaniu rozdajesz i pauzujesz.";
    else if (h.received) note = `Od rozgrywającego dostałeś(-aś): ${cardName(h.received)}.`;
    else if (h.given) note = `Oddane: ${Object.entries(h.given).map(([s, c]) => `${S.nickOf(state, Number(s))} — ${cardName(c)}`).join(", ")}.`;
    if (h.discarded) note += `${note ? " " : ""}Odłożone: ${h.discarded.map((c) => cardName(c)).join(", ")}.`;
    setText($("hand-note"), note);
    const last = $("last-trick");
    const hasLast = Boolean(h.last_trick);
    if (last.disabled === hasLast) last.disabled = !hasLast;
    last.setAttribute("aria-pressed", String(state.showLastTrick && hasLast));
  }

  function moveParts(state) {
    const moves = S.legal(state);
    const nick = (seat) => S.nickOf(state, seat);
    const parts = [];
    const button = (label, intent, props = {}) =>
      el("button", { type: "button", class: "button", "data-intent": intent, "data-key": `move:${label}`, ...props }, label);
    if (moves.bid || moves.pass) {
      const bids = moves.bid || [];
      parts.push(el("div", { class: "row move-row" },
        moves.pass ? button("Pas", "pass") : "",
        bids.length ? [
          el("span", { class: "field-inline" },
            el("label", { for: "bid-value" }, "Oferta"),
            el("select", { id: "bid-value", "data-key": "bid-value" }, bids.map((v) => el("option", { value: v }, v)))),
          button("Licytuj", "bid", { class: "button button-primary" }),
        ] : el("span", { class: "note" }, "Wyżej licytować nie możesz.")));
    }
    if (moves.musik) {
      parts.push(el("div", { class: "row move-row" }, moves.musik.map((i) =>
        el("button", { type: "button", class: "button button-musik", "data-intent": "musik", "data-index": i, "data-key": `musik:${i}` },
          el("span", { class: "pile", "aria-hidden": "true" }, el("span", { class: "card card-small" }, cardBack()), el("span", { class: "card card-small" }, cardBack())),
          `${ORDINAL[i]} musik`))));
    }
    if (moves.give) {
      const chosen = state.selection.give;
      parts.push(el("ul", { class: "picks" }, moves.give.to.map((seat, i) =>
        el("li", {}, `Dla ${nick(seat)}: `, chosen[i] ? el("strong", {}, cardName(chosen[i])) : "—"))));
      parts.push(el("div", { class: "row move-row" },
        button("Oddaj karty", "give", { class: "button button-primary" }),
        button("Wybierz od nowa", "reset")));
    }
    if (moves.discard) {
      const chosen = state.selection.discard;
      parts.push(el("p", { class: "picks" }, "Do odłożenia: ", chosen.length ? el("strong", {}, chosen.map((c) => cardName(c)).join(", ")) : "—"));
      parts.push(el("div", { class: "row move-row" },
        button("Odłóż karty", "discard", { class: "button button-primary" }),
        button("Wybierz od nowa", "reset")));
    }
    if (moves.declare) {
      parts.push(el("div", { class: "row move-row" },
        el("span", { class: "field-inline" },
          el("label", { for: "declare-value" }, "Deklaracja"),
          el("select", { id: "declare-value", "data-key": "declare-value" }, moves.declare.map((v) => el("option", { value: v }, v)))),
        button("Deklaruj", "declare", { class: "button button-primary" })));
    }
    return parts;
  }

  function drawHand(state) {
    const box = $("hand");
    const cards = S.handCards(state);
    const mode = S.handMode(state);
    show(box, cards.length > 0);
    // The card to hold the tab stop: the one chosen by key or click, else the one that
    // has the focus, else (on a new turn to play) the first playable, else the same place.
    const focusedCode = box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
    let current = cards.findIndex((c) => c.code === state.focusCard);
    if (current < 0) current = cards.findIndex((c) => c.code === focusedCode);
    if (current < 0 && mode === "play" && !focusedCode) current = cards.findIndex((c) => c.enabled);
    if (current < 0) current = Math.min(handIndex, cards.length - 1);
    handIndex = Math.max(0, current);
    const existing = new Map([...box.children].map((b) => [b.dataset.card, b]));
    cards.forEach((card, i) => {
      let button = existing.get(card.code);
      existing.delete(card.code);
      if (!button) {
        button = el("button", { type: "button", class: "card card-button", "data-card": card.code, "data-key": `card:${card.code}` });
      }
      if (button.dataset.meld !== String(card.meld)) {
        button.dataset.meld = String(card.meld);
        button.replaceChildren(cardFace(card.code, { meld: card.meld !== null }));
      }
      const attrs = {
        "aria-label": cardName(card.code, card.meld),
        "aria-disabled": card.enabled ? null : "true",
        "aria-pressed": card.pressed === null ? null : String(card.pressed),
        tabindex: i === handIndex ? "0" : "-1",
      };
      for (const [name, value] of Object.entries(attrs)) {
        if (value === null) button.removeAttribute(name);
        else if (button.getAttribute(name) !== value) button.setAttribute(name, value);
      }
      button.classList.toggle("dim", !card.enabled && mode !== null && !state.busy);
      if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
    });
    for (const gone of existing.values()) gone.remove();
    const focusedCard = box.contains(document.activeElement) ? document.activeElement : null;
    const target = box.children[handIndex];
    if (focusedCard && target && focusedCard !== target) target.focus();
  }

  // --- scores and history ---

  function drawScores(state) {
    const view = S.view(state);
    show($("scores"), Boolean(view));
    if (!view) return;
    const { game } = state.snap;
    region("scores", [view.results, view.scores, view.on_barrel, game.seats.map((s) => s.nick)], () => {
      const nick = (seat) => S.nickOf(state, seat);
      const head = el("tr", {}, el("th", { scope: "col" }, "Rozdanie"),
        game.seats.map((s) => el("th", { scope: "col" }, nick(s.seat))));
      const rows = view.results.map((r, n) => el("tr", {},
        el("th", { scope: "row" }, `${n + 1}. ${nick(r.declarer)} ${r.contract} `,
          el("span", { class: `role ${r.made ? "made" : "failed"}` }, r.made ? "ugrane" : "nieugrane")),
        r.scores.map((score, seat) => el("td", {},
          el("span", { class: "score" }, score), " ",
          el("span", { class: "delta" }, seat === r.sitting_out ? "pauza" : signed(r.delta[seat]))))));
      const total = el("tr", {}, el("th", { scope: "row" }, "Razem"),
        view.scores.map((score, seat) => el("td", {}, el("strong", {}, score),
          view.on_barrel[seat] ? [" ", el("span", { class: "barrel" }, "na beczce")] : "")));
      $("score-box").replaceChildren(el("table", { class: "table scores" },
        el("caption", { class: "sr-only" }, `Wyniki rozdań, gra do ${view.target}, beczka od ${view.barrel}`),
        el("thead", {}, head), el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: String(1 + game.players), class: "muted" }, "Jeszcze żadne rozdanie się nie skończyło."))),
        el("tfoot", {}, total)));
    });
  }

  // --- chat ---

  // The log holds exactly the snapshot's lines, which are the last ones the server keeps:
  // a line's node is made once (a screen reader hears it once), a report only changes its
  // button, and lines the server no longer sends are removed, so the log never outgrows it.
  const chatNodes = new Map(); // seq -> {node, you}

  function setReport(button, line, reported) {
    const label = `${reported ? "Zgłoszono" : "Zgłoś"} wiadomość od ${line.nick}`;
    if (button.getAttribute("aria-label") !== label) button.setAttribute("aria-label", label);
    setText(button, reported ? "zgłoszono" : "zgłoś");
    if (button.disabled !== reported) button.disabled = reported;
  }

  function chatLine(game, line, reported) {
    const time = new Date(line.at).toLocaleTimeString("pl-PL", { hour: "2-digit", minute: "2-digit" });
    let report = "";
    if (game.you !== null && line.seat !== game.you) {
      report = el("button", { class: "link-button", type: "button", "data-intent": "report", "data-seq": String(line.seq) });
      setReport(report, line, reported);
    }
    return el("p", { "data-seq": String(line.seq) }, el("span", { class: "muted" }, `${time} `), el("strong", {}, line.nick), `: ${line.text} `, report);
  }

  function drawChat(state) {
    const game = state.snap?.game;
    show($("chat"), Boolean(game?.chat));
    if (!game?.chat) return;
    show($("chat-body"), !state.chatHidden);
    show($("chat-off"), state.chatHidden);
    setText($("chat-toggle"), state.chatHidden ? "Włącz czat" : "Wyłącz czat");
    show($("chat-form"), game.can_chat);
    setText($("chat-error"), state.chatError);
    setText($("chat-note"), game.chat_note || "");
    const lines = state.snap.chat;
    const box = $("chat-log");
    const sent = new Set(lines.map((line) => line.seq));
    for (const [seq, entry] of chatNodes) {
      if (sent.has(seq) && entry.you === game.you) continue;
      entry.node.remove();
      chatNodes.delete(seq);
    }
    let added = false;
    let previous = null;
    for (const line of lines) {
      const reported = state.reported.includes(line.seq);
      let entry = chatNodes.get(line.seq);
      if (entry) {
        const button = entry.node.querySelector("button");
        if (button) setReport(button, line, reported);
      } else {
        entry = { node: chatLine(game, line, reported), you: game.you };
        chatNodes.set(line.seq, entry);
        added = true;
      }
      const next = previous ? previous.nextElementSibling : box.firstElementChild;
      if (next !== entry.node) box.insertBefore(entry.node, next);
      previous = entry.node;
    }
    // Whatever follows the lines goes: the placeholder, once the first line came.
    const after = () => (previous ? previous.nextElementSibling : box.firstElementChild);
    if (lines.length) while (after()) after().remove();
    else if (!box.firstElementChild) box.append(el("p", { class: "muted" }, "Nikt jeszcze nic nie napisał."));
    if (added) box.scrollTop = box.scrollHeight;
  }

  function clearChatInput() {
    $("chat-text").value = "";
  }

  // --- the surrender dialog ---

  function drawDialog(state) {
    const dialog = $("surrender-dialog");
    show($("surrender"), state.snap?.game.status === "playing" && state.snap.game.you !== null);
    if (state.confirmSurrender && !dialog.open) dialog.showModal();
    if (!state.confirmSurrender && dialog.open) dialog.close();
  }

  // --- every quarter second: the clock and the turn announcement ---

  function tick(state, now) {
    const game = state.snap?.game;
    const view = S.view(state);
    const left = S.secondsLeft(state, now);
    const nick = (seat) => S.nickOf(state, seat);
    let turn = "";
    let clock = "";
    if (!game) {
      turn = state.connection === "closed" ? "" : "Łączenie z grą…";
    } else if (game.status === "waiting") {
      const taken = game.seats.filter((s) => s.nick !== null).length;
      turn = `Czekamy na graczy: ${taken} z ${game.players}.`;
    } else if (game.status === "finished" || game.status === "cancelled") {
      turn = `Koniec gry. ${outcomeText(game, view, nick)}`;
    } else if (view?.awaiting_deal) {
      turn = "Koniec rozdania. Za chwilę następne rozdanie.";
      const next = $("next-deal");
      if (next) setText(next, left ? `Następne rozdanie za ${secondsText(left)}.` : "Rozdawanie kart…");
    } else if (view && view.to_move !== null) {
      const phase = view.hand.phase;
      turn = view.to_move === game.you ? `Twój ruch: ${YOUR_MOVE[phase](S.legal(state))}.` : `Ruch: ${nick(view.to_move)} (${PHASE_NAME[phase]}).`;
      const key = `${state.snap.v}:${view.to_move}`;
      if (left !== null && left <= 10 && left > 0 && !warned.startsWith(`${key}|`)) warned = `${key}|${left}`;
      if (warned.startsWith(`${key}|`)) {
        const n = Number(warned.split("|")[1]);
        turn = `${turn.slice(0, -1)} — zostało ${secondsText(n)}.`;
      }
      if (left !== null) clock = left > 0 ? clockText(left) : "0:00";
    }
    announce(turn);
    setText($("clock"), clock);
    for (const node of document.querySelectorAll("[data-clock]")) setText(node, clock);
  }

  return { schedule, flush, tick, clearChatInput };
}
