// The minimal client of Tysiąc: one module for both pages (index.html and game.html).
// No framework, no build step. The server decides every rule; this page only shows
// the state it gets and offers the moves listed in `view.legal`. See docs/protocol.md.

const NAME_KEY = "tysiac-name";
const seatKey = (code) => `tysiac-online:${code}`;

// --- small helpers --------------------------------------------------------------

/** Build an element: el("p", {class: "x", onclick: fn}, "text", child, ...). */
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const $ = (id) => document.getElementById(id);

function showError(text) {
  $("error").textContent = text || "";
}

/** The canonical game code, as the server spells it (security.normalise_code). */
function normaliseCode(text) {
  return text.toUpperCase().replace(/[\s-]/g, "");
}

function loadSeat(code) {
  try {
    const seat = JSON.parse(localStorage.getItem(seatKey(code)) || "null");
    return seat && typeof seat.token === "string" ? seat : null;
  } catch {
    return null;
  }
}

function remember(seated, nick) {
  localStorage.setItem(seatKey(seated.code), JSON.stringify({ seat: seated.seat, token: seated.token }));
  localStorage.setItem(NAME_KEY, nick);
}

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("Brak połączenia z serwerem.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // not JSON: the server always answers JSON, so a proxy or the network spoke
  }
  if (!response.ok) {
    throw new Error(data?.error?.message || `Błąd serwera (${response.status}).`);
  }
  return data;
}

// --- cards (R2, R3) -------------------------------------------------------------

const RANKS = { 9: ["9", "dziewiątka"], J: ["W", "walet"], Q: ["D", "dama"], K: ["K", "król"], T: ["10", "dziesiątka"], A: ["A", "as"] };
const SUITS = { S: ["♠", "pik"], C: ["♣", "trefl"], D: ["♦", "karo"], H: ["♥", "kier"] };
const MARRIAGE = { S: 40, C: 60, D: 80, H: 100 };

const cardLabel = (code) => RANKS[code[0]][0] + SUITS[code[1]][0];
const cardName = (code) => `${RANKS[code[0]][1]} ${SUITS[code[1]][1]}`;
const suitText = (suit) => `${SUITS[suit][0]} ${SUITS[suit][1]}`;
const isRed = (code) => code[1] === "H" || code[1] === "D";

/** A card as text: "D♥", read aloud as "dama kier"; `meld` adds " meld." (R21). */
function cardNode(code, meld = false) {
  const name = meld ? `${cardName(code)}, meldunek ${MARRIAGE[code[1]]}` : cardName(code);
  return el("span", { class: isRed(code) ? "red" : null, title: name, "aria-label": name },
    cardLabel(code) + (meld ? " meld." : ""));
}

function cardList(codes, melds = []) {
  if (!codes.length) return ["—"];
  return codes.flatMap((code, i) => [i ? " " : "", cardNode(code, melds.includes(code))]);
}

// --- index page -------------------------------------------------------------------

function initIndex() {
  const create = $("create-form");
  const join = $("join-form");
  const field = (form, name) => form.elements.namedItem(name);
  const nick = localStorage.getItem(NAME_KEY) || "";
  field(create, "nick").value = nick;
  field(join, "nick").value = nick;

  const syncPublic = () => {
    const isPublic = field(create, "public").checked;
    field(create, "move_seconds").disabled = isPublic;
    if (isPublic) field(create, "move_seconds").value = "60";
    $("move-time-note").hidden = !isPublic;
  };
  field(create, "public").addEventListener("change", () => {
    // The server's default: chat on in private games, off in public ones.
    field(create, "chat").checked = !field(create, "public").checked;
    syncPublic();
  });
  syncPublic();

  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const isPublic = field(create, "public").checked;
    const body = {
      nick: field(create, "nick").value,
      players: Number(field(create, "players").value),
      public: isPublic,
      chat: field(create, "chat").checked,
      short: field(create, "short").checked,
      move_seconds: isPublic ? 60 : Number(field(create, "move_seconds").value),
    };
    const name = field(create, "name").value;
    if (name.trim()) body.name = name;
    try {
      const seated = await api("POST", "/api/games", body);
      remember(seated, body.nick);
      location.href = `/g/${seated.code}`;
    } catch (error) {
      showError(error.message);
    }
  });

  const joinGame = async (code, nickname) => {
    showError("");
    try {
      const seated = await api("POST", `/api/games/${encodeURIComponent(code)}/join`, { nick: nickname });
      remember(seated, nickname);
      location.href = `/g/${seated.code}`;
    } catch (error) {
      showError(error.message);
    }
  };

  join.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = normaliseCode(field(join, "code").value);
    if (!code) {
      showError("Wpisz kod gry.");
      return;
    }
    joinGame(code, field(join, "nick").value);
  });

  const entry = (game, waiting) => {
    const held = loadSeat(game.code);
    const title = game.name ? `${game.name} (${game.code})` : `Gra ${game.code}`;
    const tags = [game.short ? "krótka" : null, game.chat ? "czat" : null].filter(Boolean);
    const text = `${title} — ${game.nicks.join(", ")} (${game.nicks.length}/${game.players})` +
      (tags.length ? ` [${tags.join(", ")}]` : "") + " ";
    let action;
    if (held) {
      action = el("a", { href: `/g/${game.code}` }, "Wróć do gry");
    } else if (waiting) {
      action = el("button", {
        type: "button",
        onclick: () => {
          const nickname = field(join, "nick").value || field(create, "nick").value;
          if (!nickname.trim()) {
            showError("Wpisz nick w formularzu „Dołącz po kodzie”.");
            field(join, "nick").focus();
            return;
          }
          joinGame(game.code, nickname);
        },
      }, "Dołącz");
    } else {
      action = el("a", { href: `/g/${game.code}` }, "Oglądaj");
    }
    return el("li", {}, text, action);
  };

  const refresh = async () => {
    if (document.hidden) return;
    try {
      const games = await api("GET", "/api/games");
      $("waiting").replaceChildren(...(games.waiting.length
        ? games.waiting.map((g) => entry(g, true)) : [el("li", { class: "muted" }, "Brak.")]));
      $("playing").replaceChildren(...(games.playing.length
        ? games.playing.map((g) => entry(g, false)) : [el("li", { class: "muted" }, "Brak.")]));
      $("list-updated").textContent = `Odświeżono ${new Date().toLocaleTimeString("pl-PL")}.`;
    } catch (error) {
      $("list-updated").textContent = `Nie udało się pobrać listy: ${error.message}`;
    }
  };
  refresh();
  setInterval(refresh, 5000);
  document.addEventListener("visibilitychange", refresh);
}

// --- game page --------------------------------------------------------------------

const PHASES = {
  bidding: "licytacja",
  musik: "wybór musiku",
  give: "rozdawanie kart przeciwnikom",
  discard: "odkładanie dwóch kart",
  declare: "deklaracja",
  play: "rozgrywka",
  over: "koniec rozdania",
};
const STATUSES = { waiting: "czeka na graczy", playing: "trwa", finished: "zakończona", cancelled: "anulowana" };
const CANCELLED = {
  not_filled: "nie zebrał się komplet graczy w ciągu godziny",
  not_finished: "gra nie skończyła się w ciągu doby",
};

function initGame() {
  let code = location.pathname.split("/")[2] || "";
  try {
    code = normaliseCode(decodeURIComponent(code));
  } catch {
    code = normaliseCode(code);
  }
  const G = {
    code,
    seat: loadSeat(code), // {seat, token} or null: a spectator
    socket: null,
    state: null,
    deleted: false,
    stopped: false,
    retries: 0,
    retryTimer: null,
    deadline: null, // Date.now() when the move time runs out
    busy: false, // a move was sent and no state or error came back yet
    selection: { key: null, give: {}, discard: [] },
    actionsDrawn: null,
  };
  $("link").textContent = `${location.origin}/g/${code}`;

  const nickOf = (seat) => G.state?.game.seats[seat]?.nick ?? `miejsce ${seat + 1}`;

  // --- the socket ---

  function connect() {
    clearTimeout(G.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(code)}`);
    G.socket = socket;
    $("connection").textContent = "Łączenie…";
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      socket.send(JSON.stringify({ type: "hello", token: G.seat ? G.seat.token : null }));
    });
    socket.addEventListener("message", (event) => {
      if (socket === G.socket) onMessage(JSON.parse(event.data));
    });
    socket.addEventListener("close", (event) => {
      if (socket === G.socket) onClose(event);
    });
    // A connection that never opened: browsers follow "error" with "close", some
    // runtimes do not. onClose clears G.socket, so it runs once either way.
    socket.addEventListener("error", () => {
      if (socket === G.socket && !opened) onClose({ code: 1006 });
    });
  }

  function reconnectNow() {
    const old = G.socket;
    G.socket = null;
    if (old) old.close();
    connect();
  }

  function onClose(event) {
    G.socket = null;
    G.busy = false;
    if (G.deleted) {
      $("connection").textContent = "Gra została usunięta z serwera.";
      return;
    }
    if (event.code === 4403 && G.seat) {
      // The stored token is not valid for this game: watch as a spectator instead.
      localStorage.removeItem(seatKey(code));
      G.seat = null;
      connect();
      return;
    }
    if (event.code >= 4000) {
      // unknown game, bad request: trying again would give the same answer
      $("connection").textContent = "Połączenie odrzucone przez serwer.";
      return;
    }
    const delay = Math.min(30000, 1000 * 2 ** G.retries) + Math.random() * 500;
    G.retries += 1;
    $("connection").textContent = `Rozłączono. Ponowna próba za ${Math.round(delay / 1000)} s…`;
    G.retryTimer = setTimeout(connect, delay);
  }

  function send(message) {
    if (!G.socket || G.socket.readyState !== WebSocket.OPEN) {
      showError("Brak połączenia z serwerem. Łączę ponownie…");
      return false;
    }
    showError("");
    G.socket.send(JSON.stringify(message));
    return true;
  }

  function move(action) {
    if (G.busy || !G.state) return;
    if (send({ type: "move", v: G.state.v, action })) {
      G.busy = true;
      renderActions();
    }
  }

  function onMessage(message) {
    switch (message.type) {
      case "state":
        G.state = message;
        G.retries = 0;
        G.busy = false;
        G.deadline = message.game.time_left_ms === null ? null : Date.now() + message.game.time_left_ms;
        $("connection").textContent = "Połączono.";
        render();
        break;
      case "event":
        for (const event of message.events) logEvent(event);
        break;
      case "error":
        showError(message.error.message);
        G.busy = false;
        renderActions();
        break;
      case "deleted":
        G.deleted = true;
        showError("Gra została usunięta z serwera.");
        break;
      default: // "pong"
        break;
    }
  }

  // --- the event log ---

  function eventText(event) {
    const who = event.seat === undefined ? "" : (event.nick ?? nickOf(event.seat));
    switch (event.kind) {
      case "joined": return `${who} siada przy stole.`;
      case "started": return "Gra się zaczyna.";
      case "dealt": return `Nowe rozdanie, rozdaje ${nickOf(event.dealer)}.`;
      case "bid": return `${who} licytuje ${event.value}.`;
      case "pass": return `${who} pasuje.`;
      case "musik": return `${who} bierze musik ${event.index + 1}.`;
      case "give": return `${who} oddaje po karcie przeciwnikom.`;
      case "discard": return `${who} odkłada dwie karty.`;
      case "declare": return `${who} gra za ${event.value}.`;
      case "play": return [`${who} zagrywa `, cardNode(event.card), "."];
      case "surrender": return `${who} poddaje grę.`;
      case "timeout":
        if (event.walkover) return `${who}: czas minął trzeci raz z rzędu — przegrana walkowerem.`;
        return [`${who}: czas minął, za gracza zagrał serwer: `,
          event.move ? eventText(event.move) : "ruch automatyczny."];
      case "cancelled": return "Gra została anulowana.";
      case "rematch": return "Założono rewanż.";
      case "chat": return null; // shown in the chat list
      default: return `(${event.kind})`;
    }
  }

  function logEvent(event) {
    const text = eventText(event);
    if (text === null) return;
    const log = $("log");
    log.append(el("li", {}, text));
    while (log.children.length > 30) log.firstElementChild.remove();
  }

  // --- rendering ---

  function render() {
    const { game, view } = G.state;
    const you = game.you;
    document.title = `Tysiąc — ${game.name || game.code}`;
    $("title").textContent = game.name ? `${game.name} (${game.code})` : `Gra ${game.code}`;

    const bits = [
      `Gra: ${STATUSES[game.status] || game.status}`,
      `do ${game.short ? 500 : 1000} (beczka ${game.short ? 300 : 800})`,
      `${game.players} graczy`,
      game.public ? "publiczna" : "prywatna",
      `czas na ruch ${game.move_seconds} s`,
    ];
    if (view && view.hand_number) {
      bits.push(`rozdanie nr ${view.hand_number}` + (view.hand?.phase === "over" ? " (zakończone)" : ""));
    }
    bits.push(you === null ? "oglądasz jako widz" : `grasz jako ${nickOf(you)}`);
    $("status").textContent = `${bits.join(" · ")}.`;

    $("join-form").hidden = !(game.status === "waiting" && you === null && !G.seat);
    renderPlayers();
    renderHandInfo();
    renderHandSummary();
    renderOwn();
    renderActions();
    renderResults();
    renderChat();
    renderEnd();
    tick();
  }

  function renderPlayers() {
    const { game, view } = G.state;
    const hand = view?.hand;
    const rows = game.seats.map((s) => {
      const i = s.seat;
      const roles = [];
      if (hand) {
        if (i === hand.dealer) roles.push("rozdaje");
        if (!hand.active.includes(i)) roles.push("pauzuje");
        if (i === hand.mus && hand.phase === "bidding") roles.push("na musie");
        if (i === hand.declarer) roles.push("rozgrywa");
      }
      if (view && i === view.to_move) roles.push("RUCH");
      if (i === game.you) roles.push("to Ty");
      let score = "—";
      if (view) {
        score = String(view.scores[i]);
        if (view.on_barrel[i]) score += " (na beczce)";
        if (view.timeouts[i]) score += ` · spóźnienia: ${view.timeouts[i]}`;
      }
      return el("tr", { class: view && i === view.to_move ? "turn" : null },
        el("td", {}, i + 1),
        el("td", {}, s.nick ?? el("span", { class: "muted" }, "(wolne)")),
        el("td", {}, s.nick === null ? "—" : s.connected ? "tak" : "nie"),
        el("td", {}, score),
        el("td", {}, hand ? hand.counts[i] : "—"),
        el("td", {}, hand ? hand.tricks[i] : "—"),
        el("td", {}, hand ? hand.points[i] : "—"),
        el("td", {}, roles.join(", ")));
    });
    $("players").tBodies[0].replaceChildren(...rows);
  }

  function renderHandInfo() {
    const view = G.state.view;
    const hand = view?.hand;
    const box = $("hand-info");
    if (!hand) {
      box.replaceChildren();
      return;
    }
    const lines = [el("p", {}, `Faza: ${PHASES[hand.phase] || hand.phase}.`)];
    if (hand.phase === "bidding") {
      const auction = [`${nickOf(hand.mus)}: 100 (na musie)`,
        ...hand.auction.map((a) => `${nickOf(a.seat)}: ${a.bid === null ? "pas" : a.bid}`)];
      lines.push(el("p", {}, `Licytacja: ${auction.join(", ")}. Najwyżej: ${hand.bid} (${nickOf(hand.bidder)}).`));
    }
    if (hand.declarer !== null) {
      lines.push(el("p", {}, `Rozgrywa: ${nickOf(hand.declarer)} (licytacja ${hand.bid}` +
        (hand.contract === null ? ")." : `, gra za ${hand.contract}).`)));
    }
    const noTrump = hand.phase === "over" ? "brak (nikt nie meldował)" : "brak (nikt jeszcze nie meldował)";
    lines.push(el("p", {}, "Atut: ", hand.trump ? suitText(hand.trump) : noTrump, "."));
    if (hand.melds.length) {
      lines.push(el("p", {}, "Meldunki: ",
        hand.melds.map((m) => `${nickOf(m.seat)} ${suitText(m.suit)} ${m.value}`).join(", "), "."));
    }
    hand.musiks.forEach((musik, i) => {
      const name = hand.musiks.length > 1 ? `Musik ${i + 1}` : "Musik";
      const taken = hand.musik_taken === i ? " (wzięty)" : "";
      lines.push(el("p", {}, `${name}${taken}: `,
        musik.cards ? cardList(musik.cards) : `zakryty, ${musik.count} karty`));
    });
    const played = (plays) => plays.flatMap((p, i) => [i ? ", " : "", `${nickOf(p.seat)}: `, cardNode(p.card)]);
    if (hand.phase !== "over") {
      lines.push(el("p", {}, "Na stole: ",
        hand.trick.length ? played(hand.trick) : "pusto",
        hand.winning !== null ? ` — bierze ${nickOf(hand.winning)}` : "", "."));
    }
    if (hand.last_trick) {
      lines.push(el("p", {}, hand.phase === "over" ? "Ostatnia lewa: " : "Poprzednia lewa: ",
        played(hand.last_trick.cards), ` — bierze ${nickOf(hand.last_trick.winner)}.`));
    }
    box.replaceChildren(...lines);
  }

  /**
   * The finished hand, shown while the server pauses before the next deal
   * (view.awaiting_deal) and after the hand that ended the game. Its result is
   * view.results[-1]: taken from the state, the whole truth, not from the events.
   */
  function renderHandSummary() {
    const { game, view } = G.state;
    const box = $("hand-summary");
    const hand = view?.hand;
    const result = view?.results[view.results.length - 1];
    if (!hand || hand.phase !== "over" || !result) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const total = (i) => result.points[i] + result.melds[i];
    const declarer = result.declarer;
    const lines = [
      el("h3", {}, `Koniec rozdania nr ${view.hand_number}`),
      el("p", { class: "turn" }, `${nickOf(declarer)} grał(a) za ${result.contract}: `,
        result.made ? "kontrakt ugrany" : "kontrakt nieugrany",
        ` (${total(declarer)} pkt), ${result.made ? "+" : "−"}${result.contract}.`),
    ];
    const melded = hand.melds.length
      ? hand.melds.map((m) => `${nickOf(m.seat)} ${suitText(m.suit)} ${m.value}`).join(", ")
      : "nikt nie meldował";
    lines.push(el("p", {}, `Meldunki: ${melded}.`));
    const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
    const head = el("tr", {}, ["Gracz", "Punkty z kart", "Meldunki", "Razem", "Zmiana", "Wynik"]
      .map((title) => el("th", { scope: "col" }, title)));
    const rows = game.seats.map((s) => {
      const i = s.seat;
      const out = game.players === 4 && i === result.dealer;
      const role = i === declarer ? " (rozgrywał(a))" : out ? " (pauzował(a))" : "";
      return el("tr", {},
        el("th", { scope: "row" }, `${nickOf(i)}${role}`),
        el("td", {}, out ? "—" : result.points[i]),
        el("td", {}, out ? "—" : result.melds[i]),
        el("td", {}, out ? "—" : total(i)),
        el("td", {}, signed(result.delta[i])),
        el("td", {}, result.scores[i]));
    });
    lines.push(el("table", {}, el("thead", {}, head), el("tbody", {}, rows)));
    if (view.awaiting_deal) {
      lines.push(el("p", { id: "next-deal" }));
    }
    box.replaceChildren(...lines);
    box.hidden = false;
  }

  function renderOwn() {
    const { game, view } = G.state;
    const hand = view?.hand;
    $("own").hidden = game.you === null || !hand;
    if (game.you === null || !hand) return;
    if (!hand.cards.length && !hand.active.includes(game.you)) {
      $("cards").textContent = "W tym rozdaniu pauzujesz (rozdajesz).";
    } else {
      $("cards").replaceChildren(...cardList(hand.cards, hand.meld_cards));
    }
    const extra = [];
    if (hand.received) extra.push(el("p", {}, "Karta od rozgrywającego: ", cardNode(hand.received), "."));
    if (hand.given) {
      extra.push(el("p", {}, "Oddane karty: ", Object.entries(hand.given)
        .flatMap(([seat, card], i) => [i ? ", " : "", `${nickOf(Number(seat))}: `, cardNode(card)]), "."));
    }
    if (hand.discarded) extra.push(el("p", {}, "Odłożone karty: ", cardList(hand.discarded), "."));
    $("own-extra").replaceChildren(...extra);
  }

  function renderActions() {
    const box = $("actions");
    if (!G.state) return;
    const { game, view } = G.state;
    const legal = view?.legal ?? {};
    const hand = view?.hand;
    const key = `${view?.hand_number}:${hand?.phase}`;
    if (G.selection.key !== key) G.selection = { key, give: {}, discard: [] };
    const drawn = JSON.stringify([G.state.v, G.busy, G.selection, game.you]);
    if (drawn === G.actionsDrawn) return; // keep focus when nothing changed
    G.actionsDrawn = drawn;

    if (game.you === null || !view || game.status !== "playing") {
      box.replaceChildren(el("p", { class: "muted" }, game.you === null ? "Oglądasz grę." : "Brak ruchów."));
      return;
    }
    if (!Object.keys(legal).length) {
      let text = view.to_move === null ? "Czekaj." : `Czekaj: ruch ma ${nickOf(view.to_move)}.`;
      if (view.awaiting_deal) text = "Rozdanie skończone. Za chwilę serwer rozda karty.";
      box.replaceChildren(el("p", {}, text));
      return;
    }
    const disabled = G.busy;
    const button = (label, action, extra = {}) =>
      el("button", { type: "button", disabled, onclick: () => move(action), ...extra }, label);
    const cardButton = (code, onclick, pressed, off = false, meld = false) =>
      el("button", {
        type: "button",
        disabled: disabled || off,
        "aria-pressed": pressed === undefined ? null : String(pressed),
        "aria-label": meld ? `${cardName(code)}, meldunek ${MARRIAGE[code[1]]}` : cardName(code),
        onclick,
      }, cardNode(code, meld));
    const parts = [el("p", { class: "turn" }, "Twój ruch!")];

    if (legal.bid || legal.pass) {
      parts.push(el("p", {}, "Licytuj: ", (legal.bid || []).map((value) =>
        button(String(value), { type: "bid", value })),
      legal.pass ? button("Pas", { type: "pass" }) : null));
    }
    if (legal.musik) {
      parts.push(el("p", {}, "Wybierz musik: ",
        legal.musik.map((index) => button(`Musik ${index + 1}`, { type: "musik", index }))));
    }
    if (legal.give) {
      const chosen = G.selection.give;
      for (const opponent of legal.give.to) {
        parts.push(el("p", {}, `Karta dla ${nickOf(opponent)}: `, legal.give.cards.map((code) => {
          const takenByOther = Object.entries(chosen).some(([o, c]) => c === code && Number(o) !== opponent);
          return cardButton(code, () => {
            chosen[opponent] = chosen[opponent] === code ? undefined : code;
            if (chosen[opponent] === undefined) delete chosen[opponent];
            renderActions();
          }, chosen[opponent] === code, takenByOther);
        })));
      }
      const complete = legal.give.to.every((o) => chosen[o]);
      parts.push(el("p", {}, el("button", {
        type: "button",
        disabled: disabled || !complete,
        onclick: () => move({ type: "give", cards: Object.fromEntries(legal.give.to.map((o) => [String(o), chosen[o]])) }),
      }, "Oddaj karty")));
    }
    if (legal.discard) {
      const chosen = G.selection.discard;
      parts.push(el("p", {}, "Wybierz dwie karty do odłożenia: ", legal.discard.map((code) =>
        cardButton(code, () => {
          const at = chosen.indexOf(code);
          if (at >= 0) chosen.splice(at, 1);
          else if (chosen.length < 2) chosen.push(code);
          renderActions();
        }, chosen.includes(code), !chosen.includes(code) && chosen.length >= 2))));
      parts.push(el("p", {}, el("button", {
        type: "button",
        disabled: disabled || chosen.length !== 2,
        onclick: () => move({ type: "discard", cards: [...chosen] }),
      }, "Odłóż")));
    }
    if (legal.declare) {
      parts.push(el("p", {}, "Za ile grasz? ",
        legal.declare.map((value) => button(String(value), { type: "declare", value }))));
    }
    if (legal.play) {
      const leading = hand.trick.length === 0;
      parts.push(el("p", {}, "Zagraj kartę: ", legal.play.map((code) =>
        cardButton(code, () => move({ type: "play", card: code }), undefined, false,
          leading && hand.meld_cards.includes(code)))));
    }
    box.replaceChildren(...parts);
  }

  function renderResults() {
    const { game, view } = G.state;
    if (!view || !view.results.length) {
      $("results").replaceChildren();
    } else {
      const head = el("tr", {}, el("th", {}, "Nr"), el("th", {}, "Rozgrywający"), el("th", {}, "Gra za"),
        el("th", {}, "Ugrane?"), game.seats.map((s) => el("th", {}, s.nick)));
      const rows = view.results.map((r, n) => el("tr", {},
        el("td", {}, n + 1), el("td", {}, nickOf(r.declarer)), el("td", {}, r.contract),
        el("td", {}, r.made ? "tak" : "nie"),
        r.scores.map((score, i) => {
          const detail = `${r.points[i]} pkt` + (r.melds[i] ? ` + meldunki ${r.melds[i]}` : "");
          const delta = r.delta[i] >= 0 ? `+${r.delta[i]}` : String(r.delta[i]);
          return el("td", {}, i === r.dealer && game.players === 4 ? `pauza → ${score}` : `${delta} (${detail}) → ${score}`);
        })));
      $("results").replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, rows)));
    }
    const outcome = view?.outcome;
    let text = "";
    if (game.status === "cancelled") {
      text = `Gra anulowana: ${CANCELLED[game.cancelled] || game.cancelled}.`;
    } else if (outcome) {
      const winner = outcome.winner === null ? "nikt" : nickOf(outcome.winner);
      const loser = outcome.loser === null ? "" : nickOf(outcome.loser);
      text = {
        points: `Koniec gry. Wygrywa ${winner}!`,
        walkover: `${loser} przegrywa walkowerem (trzy razy skończył się czas). Wygrywa ${winner}.`,
        surrender: `${loser} poddaje grę. Wygrywa ${winner}.`,
        cancelled: "Gra anulowana.",
      }[outcome.reason] || `Koniec gry (${outcome.reason}).`;
    }
    $("outcome").textContent = text;
  }

  function renderChat() {
    const { game, chat } = G.state;
    $("chat").hidden = !game.chat;
    if (!game.chat) return;
    $("chat-list").replaceChildren(...chat.map((line) => el("li", {},
      `[${new Date(line.at).toLocaleTimeString("pl-PL", { hour: "2-digit", minute: "2-digit" })}] `,
      el("strong", {}, line.nick), `: ${line.text}`)));
    $("chat-form").hidden = !game.can_chat;
    let note = "";
    if (!game.can_chat) {
      note = game.you === null ? "Widzowie nie mogą pisać na czacie."
        : "W grze publicznej możesz pisać po swoim pierwszym ruchu.";
    }
    $("chat-note").textContent = note;
  }

  function renderEnd() {
    const { game } = G.state;
    const player = game.you !== null;
    $("surrender").hidden = !(player && game.status === "playing");
    $("rematch").hidden = !(player && game.status === "finished" && !game.rematch);
    const link = $("rematch-link");
    link.hidden = !game.rematch;
    if (game.rematch) {
      link.href = `/g/${game.rematch}`;
      copySeatTo(game.rematch);
    }
  }

  /** The rematch keeps each player's seat and token: carry this browser's key over. */
  function copySeatTo(rematchCode) {
    if (G.state?.game.you !== null && G.seat && !loadSeat(rematchCode)) {
      localStorage.setItem(seatKey(rematchCode), JSON.stringify(G.seat));
    }
  }

  function tick() {
    const view = G.state?.view;
    const box = $("timer");
    const left = G.deadline === null ? 0 : Math.max(0, Math.ceil((G.deadline - Date.now()) / 1000));
    const next = $("next-deal");
    if (view?.awaiting_deal && G.deadline !== null) {
      // the pause after a hand: game.time_left_ms counts down to the next deal
      box.textContent = "";
      if (next) {
        next.textContent = left > 0 ? `Następne rozdanie za ${left} s.` : "Rozdawanie następnego rozdania…";
      }
      return;
    }
    if (!view || view.to_move === null || G.deadline === null) {
      box.textContent = "";
      return;
    }
    const who = view.to_move === G.state.game.you ? "Twój czas" : `Czas na ruch (${nickOf(view.to_move)})`;
    box.textContent = left > 0
      ? `${who}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`
      : `${who}: minął, ruch wykona serwer.`;
  }

  // --- controls that stay on the page ---

  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.elements.namedItem("text");
    if (input.value.trim() && send({ type: "chat", text: input.value })) input.value = "";
  });
  $("surrender").addEventListener("click", () => {
    if (confirm("Na pewno poddać grę? Gra skończy się dla całego stołu.")) move({ type: "surrender" });
  });
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("rematch-link").addEventListener("click", () => {
    if (G.state?.game.rematch) copySeatTo(G.state.game.rematch);
  });
  const joinForm = $("join-form");
  joinForm.elements.namedItem("nick").value = localStorage.getItem(NAME_KEY) || "";
  joinForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const nick = joinForm.elements.namedItem("nick").value;
    try {
      const seated = await api("POST", `/api/games/${encodeURIComponent(code)}/join`, { nick });
      remember(seated, nick);
      G.seat = { seat: seated.seat, token: seated.token };
      joinForm.hidden = true;
      reconnectNow();
    } catch (error) {
      showError(error.message);
    }
  });

  setInterval(tick, 250);
  setInterval(() => {
    if (G.socket?.readyState === WebSocket.OPEN) G.socket.send(JSON.stringify({ type: "ping" }));
  }, 30000);
  connect();
}

if (document.body.dataset.page === "game") initGame();
else initIndex();
