// The only module that touches the table page's DOM. draw() is batched per animation
// frame; each region is redrawn only when what it shows has changed, and the hand is
// updated card by card, so a focused control stays put. When a focused element does
// go away (a played card, a finished choice), focus moves to its neighbour or to the
// region that held it: it is never dropped on the page body.
import { $, el } from "./dom.js";
import { cardBack, cardFace, suitIcon } from "./cards.js";
import {
  BACK, SUITS, announce, cardName, cardsCount, cardsToPick, durationText, logLine, logLines, meldName, num, outcomeText, plural,
  resultText, signed,
} from "./a11y.js";
import { changedOptions, optionsLine } from "./options.js";
import * as S from "./state.js";

const PHASE_NAME = {
  blind: "gra w ciemno?",
  bidding: "licytacja",
  musik: "wybór musiku",
  give: "oddawanie kart",
  discard: "odkładanie kart",
  declare: "deklaracja",
  play: "rozgrywka",
  over: "koniec rozdania",
};
const YOUR_MOVE = {
  blind: () => "grasz w ciemno czy oglądasz karty?",
  bidding: () => "licytuj albo pasuj",
  musik: () => "wybierz musik",
  give: () => "oddaj karty przeciwnikom",
  discard: (moves) => `odłóż ${cardsToPick(moves.discard?.count ?? 0)}`,
  declare: () => "zadeklaruj, za ile grasz",
  play: () => "zagraj kartę",
};
const ORDINAL = ["Pierwszy", "Drugi"];
const FIRST_BIDS = 3; // bid or contract buttons shown before "Więcej"
const WIDE = matchMedia("(min-width: 62em)"); // the side column stands beside the table
const CALM = matchMedia("(prefers-reduced-motion: reduce)");
const COLLECT_MS = 320; // a taken trick slides toward its winner

const clockText = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
const secondsText = (s) => `${s} ${plural(s, "sekunda", "sekundy", "sekund")}`;

function show(node, visible) {
  if (node.hidden === visible) node.hidden = !visible;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function setAttr(node, name, value) {
  if (value === null) node.removeAttribute(name);
  else if (node.getAttribute(name) !== value) node.setAttribute(name, value);
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
/** A computer player's chip: "komputer (średni)". */
export const botLabel = (level) => `komputer (${S.levelName(level)})`;

/** A nick cut with an ellipsis when long: whole on hover (title) and to screen readers. */
const nickText = (nick, tag = "span") => el(tag, { class: "nick", title: nick }, nick);

/**
 * Where each seat sits as seen from this page: you at the bottom, the next player on
 * your left, then across, then on your right (play goes clockwise, R5). A spectator
 * sees the table from seat 0.
 */
export function positions(players, you) {
  const base = you ?? 0;
  const around = { 2: ["top"], 3: ["left", "right"], 4: ["left", "top", "right"] }[players];
  const place = { [base]: "bottom" };
  around.forEach((pos, i) => (place[(base + 1 + i) % players] = pos));
  return place;
}

export function createRenderer({ nick = "", onWarning = () => {} } = {}) {
  $("join-nick").value = nick;
  const memo = new Map();
  let frame = 0;
  let pending = null;
  let handIndex = 0; // where the keyboard focus was in the hand, for when its card goes
  let warned = ""; // the turn that was told "zostało N sekund"
  let logV = null; // the last log entry drawn; null before the first state
  let collecting = null; // {key, until}: a taken trick on its way to its winner
  let drawnTrick = { key: "", length: 0 }; // the trick being played, as last drawn
  let openedMusik = ""; // the hand whose musik was last drawn face up

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

    const missing = drawMissing(state);
    drawHead(state, missing);
    drawLobby(state);
    drawEnd(state);
    drawTable(state, Date.now());
    drawSummary(state);
    drawControls(state);
    drawScores(state);
    drawLog(state);
    drawChat(state);
    drawDrawer(state);
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
        const first = node.querySelector("button:not([disabled])");
        return (first || node).focus();
      }
      // A region takes the focus where it is: the page does not jump to it.
      if (node.hasAttribute("tabindex")) return node.focus({ preventScroll: true });
    }
    const region = ["end", "summary", "controls"].map($).find((node) => visible(node));
    (region || $("main")).focus({ preventScroll: true });
  }

  // --- an unknown or deleted game: one message and the way home ---

  function drawMissing(state) {
    const missing = state.connection === "closed" && (state.closedCode === 4404 || state.closedCode === 4410);
    show($("missing"), missing);
    document.body.classList.toggle("game-missing", missing);
    if (missing) {
      // A removed game says why (the server's message); an unknown code, what to check.
      setText($("missing-title"), state.closedCode === 4410 ? "Ta gra została usunięta" : "Nie ma takiej gry");
      setText($("missing-text"), state.closedCode === 4410
        ? state.error || `Gra ${state.code} została usunięta z serwera.`
        : `Nie ma gry o kodzie ${state.code}. Mogła już się skończyć i zniknąć z serwera albo kod ma literówkę.`);
    }
    return missing;
  }

  // --- head: title, connection, error ---

  function drawHead(state, missing) {
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
      closed: "Połączenie zamknięte.",
    }[state.connection];
    setText($("conn"), missing ? "" : state.connection === "open" && !state.snap ? "Łączenie…" : conn);
    setText($("error"), missing ? "" : state.error);
    setText($("notice"), state.notice);
    show($("notice"), Boolean(state.notice));
  }

  // --- waiting for players ---

  function optionsText(game) {
    const parts = [`${game.players} graczy`, game.short ? "krótka gra" : "gra do 1000",
      `czas na ruch: ${durationText(game.move_seconds)}`, game.public ? "publiczna" : "prywatna",
      game.chat ? "z czatem" : "bez czatu"];
    return `${parts.join(" · ")}. ${optionsLine(game.options)}.`;
  }

  function drawLobby(state) {
    const game = state.snap?.game;
    const waiting = game?.status === "waiting";
    show($("lobby"), Boolean(waiting));
    const spectator = Boolean(game) && game.you === null && !(waiting && !state.stored);
    show($("spectator"), spectator);
    if (!waiting) return;
    const seated = game.you !== null;
    const rematch = Boolean(game.rematch_of);
    setText($("lobby-title"), rematch ? "Rewanż: czekamy, aż wrócą gracze" : game.name ? `${game.name}: czekamy na graczy` : "Czekamy na graczy");
    setText($("lobby-options"), optionsText(game));
    // The invited player sees the join form first; the share box is for those seated.
    show($("join-form"), !seated && !state.stored);
    setText($("join-error"), state.joinError);
    setAttr($("join-nick"), "aria-invalid", state.joinError ? "true" : null);
    setAttr($("join-nick"), "aria-describedby", state.joinError ? "join-error" : null);
    show($("share-box"), seated && !rematch);
    const link = `${location.origin}/g/${game.code}`;
    setText($("code"), game.code);
    setText($("link"), link);
    if ($("link").getAttribute("href") !== link) $("link").href = link;
    show($("share"), typeof navigator.share === "function");
    setText($("copy-note"), state.copyNote);
    const host = game.you === 0 && !rematch;
    show($("add-bot-box"), host && game.seats.some((s) => s.nick === null));
    region("lobby-seats", [game.seats, game.you, rematch], () => {
      $("lobby-seats").replaceChildren(...game.seats.map((s) => {
        let status = "";
        if (s.bot) {
          return el("li", {}, `${s.seat + 1}. `, nickText(s.nick, "strong"), " ", chip(botLabel(s.bot), "chip-bot"),
            host ? el("button", { type: "button", class: "button button-small", "data-intent": "remove-bot", "data-seat": String(s.seat) },
              "Usuń", el("span", { class: "sr-only" }, ` ${s.nick}`)) : "");
        }
        if (s.nick !== null && rematch) status = s.connected ? chip("już przy stole", "chip-ok") : chip("jeszcze poza stołem", "chip-off");
        else if (s.nick !== null) status = s.connected ? chip("połączony", "chip-ok") : chip("rozłączony", "chip-off");
        return el("li", { class: s.nick === null ? "free" : "" },
          `${s.seat + 1}. `,
          s.nick === null ? "wolne miejsce" : nickText(s.nick, "strong"),
          s.seat === game.you ? " (Ty)" : "",
          " ",
          status);
      }));
    });
  }

  // --- the table: seats around it, musik, trump, trick ---

  function seatChips(state, seat) {
    const { view } = state.snap;
    const h = view.hand;
    const info = state.snap.game.seats[seat];
    const out = h?.sitting_out === seat; // R7: the server says who sits the hand out
    const chips = [];
    if (h) {
      if (seat === h.dealer) chips.push(chip("rozdaje", "chip-dealer"));
      if (out) chips.push(chip("pauzuje", "chip-out"));
      if (h.phase === "bidding" && !out) {
        const mine = h.auction.filter((a) => a.seat === seat);
        const last = mine[mine.length - 1];
        if (last) chips.push(chip(last.bid === null ? "pas" : `licytuje ${last.bid}`, last.bid === null ? "chip-pass" : "chip-bid"));
        else if (seat === h.mus && h.mus_bid !== null) chips.push(chip(`na musie ${h.mus_bid}`, "chip-mus"));
      }
      if (seat === h.blind) chips.push(chip("w ciemno", "chip-declarer"));
      else if (seat === h.declarer) chips.push(chip(h.contract ? `gra za ${h.contract}` : `rozgrywa, ${h.bid}`, "chip-declarer"));
    }
    const { counters, options } = view;
    if (view.on_barrel[seat]) {
      // V10: one sitter, three tries.
      const tries = options?.barrel === "880" && counters?.barrel === seat ? `, próby: ${counters.tries} z 3` : "";
      chips.push(chip(`na beczce${tries}`, "chip-barrel"));
    }
    if (options?.bolts && counters?.bolts[seat]) chips.push(chip(`błoty: ${counters.bolts[seat]}`, "chip-warn"));
    if (options?.bomb === "free" && counters?.bombs[seat]) chips.push(chip("bomba zużyta", ""));
    if (info.bot) chips.push(chip(botLabel(info.bot), "chip-bot"));
    if (!info.connected) chips.push(chip("rozłączony", "chip-off"));
    if (view.timeouts[seat]) chips.push(chip(`spóźnienia: ${view.timeouts[seat]}`, "chip-warn"));
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
    const facts = [el("span", { class: "nowrap" }, `${num(view.scores[seat])} pkt`)];
    if (h && h.phase !== "bidding" && !out) facts.push(el("span", { class: "nowrap" }, `lewy: ${h.tricks[seat]}`));
    const cards = count ? el("span", { class: "seat-cards" }, backs(Math.min(count, 3), cardsCount(count), "pile-fan"),
      el("span", { class: "count", "aria-hidden": "true" }, String(count))) : "";
    return el(own || pos === "bottom" ? "div" : "li", {
      class: `seat seat-${pos}${turn ? " seat-turn" : ""}${own ? " seat-own" : ""}${out ? " seat-out" : ""}`,
      "data-seat": String(seat),
    },
    el("p", { class: "seat-name" },
      el("span", { class: `dot${info.connected ? " dot-on" : ""}`, "aria-hidden": "true" }),
      nickText(info.nick ?? "wolne miejsce", "strong"),
      own ? el("span", { class: "you" }, " (Ty)") : "",
      el("span", { class: "sr-only" }, info.connected ? ", połączony" : ", rozłączony"),
      turn ? el("span", { class: "chip chip-turn" }, el("span", { class: "sr-only" }, "ruch, "), el("span", { "data-clock": "", class: "seat-clock" })) : "",
      cards),
    el("p", { class: "seat-line" }, facts.flatMap((f, i) => (i ? [el("span", { class: "sep", "aria-hidden": "true" }, "·"), f] : [f]))),
    el("p", { class: "chips" }, seatChips(state, seat)));
  }

  function drawTable(state, now) {
    const view = S.view(state);
    // Once the game is over, the end panel and its score sheet take the table's place.
    const shown = Boolean(view?.hand) && state.snap.game.status === "playing";
    show($("table"), shown);
    if (!shown) return;
    const { game } = state.snap;
    const place = positions(game.players, game.you);
    const bottom = Number(Object.keys(place).find((seat) => place[seat] === "bottom"));
    const h = view.hand;
    region("seats", [game.seats, game.you, view.scores, view.on_barrel, view.timeouts, view.to_move, h.phase,
      h.dealer, h.sitting_out, h.mus, h.mus_bid, h.declarer, h.contract, h.bid, h.auction, h.counts, h.tricks, h.blind,
      view.counters], () => {
      const side = ["left", "top", "right"];
      const others = game.seats.map((s) => s.seat).filter((seat) => seat !== bottom)
        .sort((a, b) => side.indexOf(place[a]) - side.indexOf(place[b]));
      $("seats").dataset.players = String(game.players);
      $("seats").replaceChildren(...others.map((seat) => seatPanel(state, seat, place[seat])));
      $("me").replaceChildren(seatPanel(state, bottom, "bottom"));
    });
    drawCenter(state, now, place);
  }

  function drawCenter(state, now, place) {
    const { view, game } = state.snap;
    const h = view.hand;
    const taken = S.showingTakenTrick(state, now);
    // When the moment of a taken trick ends, it slides to its winner before it goes.
    const takenKey = h.last_trick ? `${view.hand_number}:${h.tricks.join(",")}` : "";
    if (taken) collecting = { key: takenKey, until: null };
    else if (collecting?.key === takenKey && collecting.until === null && h.phase === "play" && !CALM.matches) {
      collecting = { key: takenKey, until: now + COLLECT_MS };
    }
    const sliding = Boolean(collecting && collecting.key === takenKey && collecting.until !== null && now < collecting.until);
    region("center", [h, state.showLastTrick, taken, sliding, view.hand_number, game.seats.map((s) => s.nick), game.you], () => {
      $("center").replaceChildren(...centerParts(state, place, taken, sliding));
    });
  }

  function centerParts(state, place, taken, sliding) {
    const { view } = state.snap;
    const h = view.hand;
    const nick = (seat) => S.nickOf(state, seat);
    const parts = [];
    let contract;
    if (h.declarer === null && h.bid === null) contract = "Nikt jeszcze nie licytował";
    else if (h.declarer === null) contract = `Najwyższa oferta: ${h.bid} (${nick(h.bidder)})${h.blind !== null ? ", w ciemno" : ""}`;
    else if (h.contract === null) contract = `Rozgrywa: ${nick(h.declarer)}, licytacja ${h.bid}`;
    else contract = `${nick(h.declarer)} gra za ${h.contract}`;
    parts.push(el("p", { class: "center-info" },
      el("span", { class: "wide-only" }, `Rozdanie ${view.hand_number}`),
      el("span", {}, contract),
      el("span", { class: "trump" }, "Atut: ", h.trump ? [suitIcon(h.trump), ` ${SUITS[h.trump]}`] : "brak")));
    if (h.melds.length) {
      parts.push(el("p", { class: "center-melds" }, "Meldunki: ", h.melds.map((m, i) =>
        el("span", { class: "meld" }, i ? ", " : "", `${nick(m.seat)}: `, m.suit ? [suitIcon(m.suit), " "] : "", meldName(m)))));
    }
    const showMusik = ["blind", "bidding", "musik", "give", "discard", "declare"].includes(h.phase);
    if (showMusik) {
      // A musik turned face up turns over once, when it is first shown open.
      const openKey = `${view.hand_number}:${h.musiks.map((m) => Boolean(m.cards)).join(",")}`;
      const turning = openKey !== openedMusik && h.musiks.some((m) => m.cards) ? " turn-up" : "";
      if (h.musiks.some((m) => m.cards)) openedMusik = openKey;
      parts.push(el("div", { class: "musiks" }, h.musiks.map((musik, i) => {
        const title = h.musiks.length > 1 ? `${ORDINAL[i]} musik` : "Musik";
        const takenMusik = h.musik_taken === i ? " (wzięty)" : "";
        const cards = musik.cards
          ? el("span", { class: "pile pile-open" }, musik.cards.map((c) => cardImage(c, `card-musik${turning}`)))
          : backs(musik.count, `${title}: ${musik.count} ${plural(musik.count, "zakryta karta", "zakryte karty", "zakrytych kart")}`, "pile-musik");
        return el("div", { class: "musik" }, el("p", { class: "label" }, title + takenMusik), cards);
      })));
    }
    // The trick on the table: the one being played, or for a moment the one just
    // taken (all its cards, the winner marked), or the last one on request.
    const lastOne = Boolean(h.last_trick) && (taken || sliding || state.showLastTrick || h.phase === "over");
    if (h.phase !== "play" && !lastOne) return parts;
    const trick = lastOne ? h.last_trick.cards : h.trick;
    const winner = lastOne ? h.last_trick.winner : h.winning;
    let title = "Na stole";
    if (lastOne) title = state.showLastTrick && !taken ? `Ostatnia lewa, bierze ją ${nick(winner)}` : `Lewa dla: ${nick(winner)}`;
    const slide = sliding ? ` collect-${place[winner]}` : "";
    // Only the card just played travels in from its player's side.
    const trickKey = `${view.hand_number}:${h.tricks.join(",")}`;
    const fresh = !lastOne && (drawnTrick.key !== trickKey || trick.length > drawnTrick.length) ? trick.length - 1 : -1;
    if (!lastOne) drawnTrick = { key: trickKey, length: trick.length };
    parts.push(el("div", { class: `trick${state.showLastTrick && !taken ? " trick-last" : ""}${lastOne ? " trick-taken" : ""}${slide}` },
      el("p", { class: "label" }, title),
      el("ol", { class: `trick-cards trick-${state.snap.game.players}` }, trick.map((p, i) =>
        el("li", { class: `played${p.seat === winner ? " played-win" : ""}${i === fresh ? " arrive" : ""}`, "data-pos": place[p.seat] },
          cardImage(p.card),
          nickText(nick(p.seat), "span"),
          p.seat === winner ? el("span", { class: "chip chip-win" }, lastOne ? "bierze" : "wygrywa") : ""))),
      trick.length ? "" : el("p", { class: "empty" }, h.to_move === null ? "" : `Wychodzi ${nick(h.to_move)}.`)));
    return parts;
  }

  // --- after a hand: its summary, shown at once and opened again until the next ends ---

  function drawSummary(state) {
    const view = S.view(state);
    const h = view?.hand;
    const result = view?.results[view.results.length - 1];
    const over = Boolean(h && h.phase === "over");
    const visibleNow = Boolean(result) && (over || state.summaryOpen) && state.snap.game.status === "playing";
    show($("summary"), visibleNow);
    const opener = $("summary-open");
    show(opener, Boolean(result) && !over && state.snap?.game.status === "playing");
    setText(opener, state.summaryOpen ? "Zamknij podsumowanie" : "Podsumowanie rozdania");
    setAttr(opener, "aria-expanded", String(Boolean(state.summaryOpen)));
    if (!visibleNow) return;
    region("summary", [view.results.length, over, over && h.musiks, state.snap.game.seats.map((s) => s.nick), view.awaiting_deal], () => {
      const { game } = state.snap;
      const nick = (seat) => S.nickOf(state, seat);
      if (result.end !== "played") {
        // A void, redealt or bombed hand: what happened and who scored (V6, V7, V13).
        $("summary").replaceChildren(
          el("h2", { id: "summary-title" }, over ? "Podsumowanie rozdania" : `Podsumowanie rozdania ${view.results.length}`),
          el("p", { class: "summary-head" }, resultText(result, nick)));
        return;
      }
      const d = result.declarer;
      const total = (i) => result.points[i] + result.melds[i];
      const rows = game.seats.map(({ seat }) => {
        const out = seat === result.sitting_out;
        const role = seat === d ? "rozgrywa" : out ? "pauzuje" : "";
        return el("tr", {},
          el("th", { scope: "row", class: "nick-cell" }, nickText(nick(seat)), role ? el("span", { class: "role" }, role) : ""),
          el("td", {}, out ? "—" : result.points[seat]),
          el("td", {}, out ? "—" : result.melds[seat]),
          el("td", {}, out ? "—" : total(seat)),
          el("td", {}, signed(result.delta[seat])));
      });
      const melds = game.seats.filter(({ seat }) => result.melds[seat] > 0).map(({ seat }) => `${nick(seat)}: ${result.melds[seat]}`);
      const unused = over && h.musiks.length > 1 ? h.musiks.findIndex((m, i) => i !== h.musik_taken && m.cards) : -1;
      $("summary").replaceChildren(
        el("h2", { id: "summary-title" }, over ? "Podsumowanie rozdania" : `Podsumowanie rozdania ${view.results.length}`),
        el("p", { class: "summary-head" }, `Rozgrywa ${nick(d)}, kontrakt ${result.contract}: `,
          el("strong", { class: result.made ? "made" : "failed" }, result.made ? "ugrane" : "nieugrane"),
          ` (${total(d)} pkt), ${signed(result.delta[d])}.`),
        el("p", {}, `Meldunki: ${melds.length ? melds.join(", ") : "nikt nie meldował"}.`),
        el("div", { class: "scroll-x", role: "region", "aria-label": "Punkty w rozdaniu", tabindex: "0" },
          el("table", { class: "table summary-table" },
            el("thead", {}, el("tr", {}, ["Gracz", "Punkty z kart", "Meldunki", "Razem", "Zmiana"].map((t) => el("th", { scope: "col" }, t)))),
            el("tbody", {}, rows))),
        unused >= 0 ? el("div", { class: "musik" }, el("p", { class: "label" }, `Niewzięty musik (${ORDINAL[unused].toLowerCase()}):`),
          el("span", { class: "pile pile-open" }, h.musiks[unused].cards.map((c) => cardImage(c, "card-musik")))) : "",
        view.awaiting_deal && over ? el("p", { id: "next-deal", class: "note" }) : "");
    });
  }

  // --- the end of the game: the ranking, how it was won, the whole score sheet ---

  function drawEnd(state) {
    const game = state.snap?.game;
    const view = S.view(state);
    const ended = game?.status === "finished" || game?.status === "cancelled";
    show($("end"), Boolean(ended));
    if (!ended) return;
    setText($("end-text"), outcomeText(game, view, (seat) => S.nickOf(state, seat)));
    show($("rematch"), game.you !== null && game.status === "finished" && !game.rematch);
    show($("rematch-link"), Boolean(game.rematch));
    if (game.rematch) $("rematch-link").href = `/g/${game.rematch}`;
    region("end", [view?.scores, view?.outcome, game.seats.map((s) => s.nick), view?.results.length], () => {
      if (!view) {
        $("ranking").replaceChildren();
        $("end-scores").replaceChildren();
        return;
      }
      const winner = view.outcome?.winner ?? null;
      const order = game.seats.map((s) => s.seat)
        .sort((a, b) => (b === winner) - (a === winner) || view.scores[b] - view.scores[a]);
      $("ranking").replaceChildren(...order.map((seat) => el("li", { class: seat === winner ? "winner" : "" },
        nickText(S.nickOf(state, seat), "strong"), ` — ${num(view.scores[seat])} pkt`,
        seat === winner ? [" ", chip("wygrywa", "chip-win")] : "",
        seat === view.outcome?.loser ? [" ", chip(view.outcome.reason === "surrender" ? "poddaje grę" : "walkower", "chip-off")] : "")));
      $("end-scores").replaceChildren(scoreTable(state));
    });
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
      prompt = to === null ? "Karty wybrane. Naciśnij „Oddaj karty”." : `Wybierz kartę, którą dostanie ${S.nickOf(state, to)}.`;
    } else if (mode === "discard") {
      const left = S.discardsLeft(state);
      const more = state.selection.discard.length ? "jeszcze " : "";
      prompt = left ? `Wybierz ${more}${cardsToPick(left)} do odłożenia` : "Karty wybrane. Naciśnij „Odłóż karty”.";
    }
    setText($("prompt"), prompt);
    show($("prompt"), Boolean(prompt));
    region("moves", [S.legal(state), state.selection, h.phase, game.seats.map((s) => s.nick), state.busy, state.moreBids], () => {
      $("moves").replaceChildren(...moveParts(state));
      // A move is on its way: nothing more to press until the server answers.
      if (state.busy) for (const node of $("moves").querySelectorAll("button")) node.disabled = true;
    });
    drawHand(state);
    let note = "";
    const faceDown = h.face_down ? h.counts[game.you] : 0;
    region("face-down", [faceDown], () => {
      $("face-down").replaceChildren(...(faceDown ? [backs(faceDown, `Twoje karty: ${cardsCount(faceDown)}, zakryte`, "pile-own")] : []));
    });
    if (faceDown) note = "Twoje karty leżą zakryte: grasz w ciemno albo najpierw zdecyduj, czy je obejrzysz.";
    else if (h.sitting_out === game.you) note = "W tym rozdaniu rozdajesz i pauzujesz.";
    else if (h.received) note = `Karta od rozgrywającego: ${cardName(h.received)}.`;
    else if (h.given) note = `Oddane: ${Object.entries(h.given).map(([s, c]) => `${S.nickOf(state, Number(s))} — ${cardName(c)}`).join(", ")}.`;
    if (h.discarded) note += `${note ? " " : ""}Odłożone: ${h.discarded.map((c) => cardName(c)).join(", ")}.`;
    setText($("hand-note"), note);
    const last = $("last-trick");
    const hasLast = Boolean(h.last_trick);
    if (last.disabled === hasLast) last.disabled = !hasLast;
    last.setAttribute("aria-pressed", String(state.showLastTrick && hasLast));
  }

  /** One-tap values: the first few as buttons, the rest behind "Więcej" (two taps). */
  function valueButtons(state, values, intent, label, verb) {
    const shown = state.moreBids ? values : values.slice(0, FIRST_BIDS);
    const button = (value, primary) => el("button", {
      type: "button", class: `button button-value${primary ? " button-primary" : ""}`, "data-intent": intent,
      "data-value": String(value), "data-key": `${intent}:${value}`, "aria-label": `${verb} ${value}`,
    }, String(value));
    return el("div", { class: "value-group", role: "group", "aria-label": label },
      el("span", { class: "value-label", "aria-hidden": "true" }, `${label}:`),
      shown.map((v, i) => button(v, i === 0)),
      values.length > FIRST_BIDS ? el("button", {
        type: "button", class: "button button-small button-more", "data-intent": "more-bids", "data-key": "more-bids",
        "aria-expanded": String(state.moreBids),
        "aria-label": state.moreBids ? "Mniej wartości" : `Więcej wartości, do ${values[values.length - 1]}`,
      }, state.moreBids ? "Mniej" : "Więcej…") : "");
  }

  function moveParts(state) {
    const moves = S.legal(state);
    const nick = (seat) => S.nickOf(state, seat);
    const parts = [];
    const button = (label, intent, props = {}) =>
      el("button", { type: "button", class: "button", "data-intent": intent, "data-key": `move:${label}`, ...props }, label);
    if (moves.blind || moves.look) {
      // V14: chosen before the cards are seen.
      parts.push(el("div", { class: "row move-row" },
        moves.blind ? button("Graj w ciemno (za 120)", "blind", { class: "button button-primary" }) : "",
        moves.look ? button("Zobacz karty", "look") : ""));
    }
    if (moves.bid || moves.pass) {
      const bids = moves.bid || [];
      parts.push(el("div", { class: "row move-row" },
        moves.pass ? button("Pas", "pass") : "",
        bids.length ? valueButtons(state, bids, "bid", "Licytuj", "Licytuj") : el("span", { class: "note" }, "Wyżej licytować nie możesz.")));
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
        el("li", {}, "Dla: ", nickText(nick(seat), "span"), " — ", chosen[i]
          ? el("strong", {}, cardName(chosen[i]))
          : [el("span", { "aria-hidden": "true" }, "…"), el("span", { class: "sr-only" }, "jeszcze nic")]))));
      parts.push(el("div", { class: "row move-row" },
        button("Oddaj karty", "give", { class: "button button-primary" }),
        button("Wybierz od nowa", "reset")));
    }
    if (moves.discard) {
      const chosen = state.selection.discard;
      parts.push(el("p", { class: "picks" }, "Do odłożenia: ", chosen.length ? el("strong", {}, chosen.map((c) => cardName(c)).join(", ")) : "jeszcze nic"));
      parts.push(el("div", { class: "row move-row" },
        button("Odłóż karty", "discard", { class: "button button-primary" }),
        button("Wybierz od nowa", "reset")));
    }
    if (moves.bomb || moves.redeal) {
      parts.push(el("div", { class: "row move-row" },
        moves.bomb ? button("Bomba: nie gram", "bomb", { class: "button button-danger" }) : "",
        moves.redeal ? button("Nowe rozdanie (słabe karty)", "redeal") : ""));
    }
    if (moves.declare) parts.push(el("div", { class: "row move-row" }, valueButtons(state, moves.declare, "declare", "Graj za", "Graj za")));
    return parts;
  }

  function drawHand(state) {
    const box = $("hand");
    const cards = S.handCards(state);
    const mode = S.handMode(state);
    show(box, cards.length > 0);
    box.style.setProperty("--n", String(Math.max(cards.length, 1)));
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
      setAttr(button, "aria-label", cardName(card.code, card.meld));
      setAttr(button, "aria-disabled", card.enabled ? null : "true");
      setAttr(button, "aria-pressed", card.pressed === null ? null : String(card.pressed));
      setAttr(button, "tabindex", i === handIndex ? "0" : "-1");
      button.classList.toggle("dim", !card.enabled && mode !== null && !state.busy);
      if (box.children[i] !== button) box.insertBefore(button, box.children[i] || null);
    });
    for (const gone of existing.values()) gone.remove();
    const focusedCard = box.contains(document.activeElement) ? document.activeElement : null;
    const target = box.children[handIndex];
    if (focusedCard && target && focusedCard !== target) target.focus();
  }

  // --- scores and history ---

  function scoreTable(state) {
    const view = S.view(state);
    const { game } = state.snap;
    const nick = (seat) => S.nickOf(state, seat);
    const head = el("tr", {}, el("th", { scope: "col" }, "Rozdanie"),
      game.seats.map((s) => el("th", { scope: "col", class: "nick-cell" }, nickText(nick(s.seat)),
        s.bot ? el("span", { class: "role" }, ` ${botLabel(s.bot)}`) : "")));
    const END = { void: "przepadło", redeal: "nowe rozdanie", bomb: "bomba" };
    const rows = view.results.map((r, n) => el("tr", {},
      r.end === "played"
        ? el("th", { scope: "row" }, `${n + 1}. `, nickText(nick(r.declarer)), ` ${r.contract} `,
          el("span", { class: `role ${r.made ? "made" : "failed"}` }, r.made ? "ugrane" : "nieugrane"))
        : el("th", { scope: "row" }, `${n + 1}. `, r.declarer === null ? "" : [nickText(nick(r.declarer)), " "],
          el("span", { class: "role" }, END[r.end] ?? r.end)),
      r.scores.map((score, seat) => el("td", {},
        el("span", { class: "score" }, num(score)), " ",
        el("span", { class: "delta" }, seat === r.sitting_out ? "pauza" : signed(r.delta[seat]))))));
    const total = el("tr", {}, el("th", { scope: "row" }, "Razem"),
      view.scores.map((score, seat) => el("td", {}, el("strong", {}, num(score)),
        view.on_barrel[seat] ? [" ", el("span", { class: "barrel" }, "na beczce")] : "")));
    return el("table", { class: "table scores" },
      el("caption", { class: "sr-only" }, `Wyniki rozdań, gra do ${view.target}, beczka od ${view.barrel}`),
      el("thead", {}, head), el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: String(1 + game.players), class: "muted" }, "Jeszcze żadne rozdanie się nie skończyło."))),
      el("tfoot", {}, total));
  }

  function drawScores(state) {
    const view = S.view(state);
    const ended = ["finished", "cancelled"].includes(state.snap?.game.status);
    show($("scores"), Boolean(view) && !ended);
    if (!view || ended) return;
    region("scores", [view.results, view.scores, view.on_barrel, state.snap.game.seats.map((s) => s.nick)], () => {
      $("score-box").replaceChildren(scoreTable(state));
    });
    region("rules", [state.snap.game.options], () => {
      const changed = changedOptions(state.snap.game.options);
      setText($("rules-line"), optionsLine(state.snap.game.options));
      $("rules-list").replaceChildren(...(changed.length
        ? changed.map((o) => el("li", {}, el("strong", {}, `${o.name}: ${o.value}.`), ` ${o.help} `,
          el("a", { href: `/zasady#${o.id.toLowerCase()}` }, "Więcej", el("span", { class: "sr-only" }, ` o zasadzie ${o.name}`))))
        : [el("li", {}, "Gramy według zwykłych zasad, bez dodatków.")]));
    });
  }

  // "Przebieg gry" holds the server's log (the snapshot's `log`): a reload or a late
  // spectator sees the same lines. Entries that come after the first state are also
  // told to the announcer; the first state's are only shown.
  function drawLog(state) {
    const entries = state.snap?.log;
    if (!entries) return;
    const box = $("log");
    const view = S.view(state);
    const nick = (seat) => S.speakerOf(state, seat);
    const newest = entries.length ? entries[entries.length - 1].v : 0;
    if (logV !== null && newest === logV) return;
    const first = logV === null;
    const drawn = new Set([...box.children].map((node) => Number(node.dataset.v)));
    let added = false;
    for (const entry of entries) {
      if (drawn.has(entry.v)) continue;
      const lines = logLines(entry, view, nick);
      for (const line of lines) {
        box.append(el("p", { "data-v": String(entry.v) }, line));
        if (!first && entry.v > logV) logLine(line);
      }
      drawn.add(entry.v);
      added = true;
    }
    // The server keeps the newest entries: older lines go as it drops them.
    const oldest = entries.length ? entries[0].v : Infinity;
    while (box.firstElementChild && Number(box.firstElementChild.dataset.v) < oldest) box.firstElementChild.remove();
    if (added) box.scrollTop = box.scrollHeight;
    logV = newest;
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
    show($("tab-chat"), Boolean(game?.chat));
    if (!game?.chat) return;
    show($("chat-body"), !state.chatHidden);
    show($("chat-off"), state.chatHidden);
    setText($("chat-toggle"), state.chatHidden ? "Pokaż czat" : "Ukryj czat");
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
    if (added) box.scrollTop = box.scrollHeight; // the log scrolls, never the page
  }

  function clearChatInput() {
    $("chat-text").value = "";
  }

  // --- the side panels: beside the table on a wide screen, a drawer on a narrow one ---

  function drawDrawer(state) {
    const wide = WIDE.matches;
    const drawer = wide ? null : state.drawer;
    const side = $("side");
    show($("drawer-tabs"), !wide && Boolean(state.snap));
    side.classList.toggle("drawer", !wide);
    side.classList.toggle("open", Boolean(drawer));
    document.body.classList.toggle("drawer-open", Boolean(drawer));
    for (const panel of side.querySelectorAll("[data-panel]")) panel.classList.toggle("current", panel.dataset.panel === drawer);
    for (const name of ["scores", "log", "chat"]) {
      setAttr($(`tab-${name}`), "aria-expanded", String(drawer === name));
    }
    const unread = S.unreadChat(state, wide || drawer === "chat");
    show($("unread"), unread > 0);
    setText($("unread"), unread ? String(unread) : "");
    setAttr($("tab-chat"), "aria-label", unread ? `Czat, nowe wiadomości: ${unread}` : null);
  }

  // --- the surrender dialog ---

  function drawDialog(state) {
    const dialog = $("surrender-dialog");
    show($("surrender"), state.snap?.game.status === "playing" && state.snap.game.you !== null);
    if (state.confirmSurrender && !dialog.open) dialog.showModal();
    if (!state.confirmSurrender && dialog.open) dialog.close();
  }

  // --- every quarter second: the clock, the turn announcement, the taken trick ---

  function tick(state, now) {
    const game = state.snap?.game;
    const view = S.view(state);
    const left = S.secondsLeft(state, now);
    const nick = (seat) => S.speakerOf(state, seat);
    let turn = "";
    let clock = "";
    if (!game) {
      turn = state.connection === "closed" ? "" : "Łączenie z grą…";
    } else if (game.status === "waiting") {
      const taken = game.seats.filter((s) => s.nick !== null).length;
      if (game.rematch_of) {
        const back = game.seats.filter((s) => s.connected).length;
        turn = `Rewanż: wróciło ${back} z ${game.players} graczy.`;
        if (left !== null) clock = clockText(left);
      } else turn = `Czekamy na graczy: ${taken} z ${game.players}.`;
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
      if (left !== null && left <= 10 && left > 0 && !warned.startsWith(`${key}|`)) {
        warned = `${key}|${left}`;
        if (view.to_move === game.you) onWarning();
      }
      if (warned.startsWith(`${key}|`)) {
        const n = Number(warned.split("|")[1]);
        turn = `${turn.slice(0, -1)} — zostało ${secondsText(n)}.`;
      }
      if (left !== null) clock = left > 0 ? clockText(left) : "0:00";
    }
    announce(turn);
    setText($("clock"), clock);
    for (const node of document.querySelectorAll("[data-clock]")) setText(node, clock);
    if (view?.hand && game.status === "playing") drawCenter(state, now, positions(game.players, game.you));
  }

  return { schedule, flush, tick, clearChatInput };
}
