// What a screen reader hears: the Polish names of cards (R2) and the two live regions
// of the table page, present from the start: role="status" (whose turn, time running
// short) and role="log" "Przebieg gry" (bids, plays, tricks, melds, hand results).

export const RANKS = {
  9: "dziewiątka",
  J: "walet",
  Q: "dama",
  K: "król",
  T: "dziesiątka",
  A: "as",
};
export const SUITS = { S: "pik", C: "trefl", D: "karo", H: "kier" };
export const BACK = "zakryta karta";

/**
 * "dama kier"; with the marriage value it would score if led (the view's
 * hand.meld_values): "dama kier, meldunek 100" (R21).
 */
export function cardName(code, meldValue = null) {
  const name = `${RANKS[code[0]]} ${SUITS[code[1]]}`;
  if (meldValue && code[0] === "A") return `${name}, cztery asy, ${meldValue}`; // V12
  return meldValue ? `${name}, meldunek ${meldValue}` : name;
}

/** A meld as said: "kier 100", or "cztery asy 200" (V12: no suit). */
export const meldName = (meld) =>
  meld.suit ? `${SUITS[meld.suit]} ${meld.value}` : `cztery asy ${meld.value}`;

/** Polish plural: plural(5, "karta", "karty", "kart") → "kart". */
export function plural(n, one, few, many) {
  if (n === 1) return one;
  const tens = n % 100;
  const units = n % 10;
  return units >= 2 && units <= 4 && (tens < 12 || tens > 14) ? few : many;
}

/** A move time as people say it: "1 minuta", "2 minuty", "45 sekund". */
export function durationText(seconds) {
  if (seconds % 60) return `${seconds} ${plural(seconds, "sekunda", "sekundy", "sekund")}`;
  const minutes = seconds / 60;
  return `${minutes} ${plural(minutes, "minuta", "minuty", "minut")}`;
}

export const cardsCount = (n) => `${n} ${plural(n, "karta", "karty", "kart")}`;
/** "wybierz 2 karty", "jeszcze 1 kartę": the accusative. */
export const cardsToPick = (n) => `${n} ${plural(n, "kartę", "karty", "kart")}`;
export const pointsText = (n) => `${n} ${plural(Math.abs(n), "punkt", "punkty", "punktów")}`;
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
/** A number with the typographic minus (U+2212) when negative: "−40". */
export const num = (n) => (n < 0 ? `−${-n}` : String(n));

const CANCELLED = {
  not_filled: "nie zebrał się komplet graczy w ciągu godziny",
  not_finished: "gra nie skończyła się w ciągu doby",
};

/** One line of "Przebieg gry" for a server event, or null (chat has its own log). */
export function eventText(event, nickOf) {
  const who = event.seat === undefined ? "" : (event.nick ?? nickOf(event.seat));
  switch (event.kind) {
    case "joined":
      return `${who} siada przy stole.`;
    case "started":
      return "Komplet graczy. Gra się zaczyna.";
    case "dealt":
      return `Nowe rozdanie. Rozdaje ${nickOf(event.dealer)}.`;
    case "bid":
      return `${who} licytuje ${event.value}.`;
    case "pass":
      return `${who}: pas.`;
    case "musik":
      return `${who} bierze ${event.index === 0 ? "pierwszy" : "drugi"} musik.`;
    case "give":
      return `${who} oddaje karty przeciwnikom.`;
    case "discard":
      return `${who} odkłada karty.`;
    case "declare":
      return `${who} gra za ${event.value}.`;
    case "play":
      return `${who}: ${cardName(event.card)}.`;
    case "surrender":
      return `${who} poddaje grę.`;
    case "bomb":
      return `${who} rzuca bombę: nie gra tego rozdania.`;
    case "redeal":
      return `${who} prosi o nowe rozdanie (słabe karty).`;
    case "blind":
      return `${who} gra w ciemno za 120.`;
    case "look":
      return `${who} ogląda karty.`;
    case "timeout":
      if (event.walkover) return `${who}: czas minął trzeci raz z rzędu, przegrana walkowerem.`;
      return `${who}: czas minął, ruch wykonał serwer. ${event.move ? eventText(event.move, nickOf) : ""}`.trim();
    case "cancelled":
      return `Gra anulowana: ${CANCELLED[event.reason] || event.reason}.`;
    case "rematch":
      return "Założono rewanż.";
    case "rematch_of":
      return `Rewanż za grę ${event.code}. Gra zacznie się, gdy wrócą wszyscy gracze, najpóźniej za minutę.`;
    case "arrived":
      return `${who} wraca do stołu.`;
    case "chat":
      return null;
    case "chat_rejected":
      return event.chat_open
        ? null
        : "Czat w tej grze wyłączył się po dwóch odrzuconych wiadomościach.";
    default:
      throw new Error(`unknown event kind: ${event.kind}`);
  }
}

/**
 * The lines of "Przebieg gry" for one entry of the server's log (snapshot `log`): the
 * event itself, then what it brought about: a trick taken, a marriage, a hand's result.
 */
export function logLines(entry, view, nickOf) {
  const lines = [];
  const text = eventText(entry, nickOf);
  if (text) lines.push(text);
  if (entry.meld) {
    const { seat, suit, value } = entry.meld;
    lines.push(
      suit
        ? `${nickOf(seat)} melduje ${SUITS[suit]} za ${value}. Atut: ${SUITS[suit]}.`
        : `${nickOf(seat)} melduje cztery asy za ${value}.`,
    );
  }
  if (entry.took !== undefined && entry.took !== null)
    lines.push(`Lewę bierze ${nickOf(entry.took)}.`);
  if (entry.result !== undefined && entry.result !== null && view?.results[entry.result]) {
    lines.push(resultText(view.results[entry.result], nickOf));
  }
  return lines;
}

const ENDS = {
  void: "Koniec rozdania: wszyscy spasowali, rozdanie przepada.",
  redeal: "Nowe rozdanie: ktoś miał za słabe karty. Nikt nie dostaje punktów.",
};

export function resultText(r, nickOf) {
  if (ENDS[r.end]) return ENDS[r.end];
  if (r.end === "bomb") {
    const changes = r.delta.map(
      (d, seat) => `${nickOf(seat)} ${signed(d)}, razem ${num(r.scores[seat])}`,
    );
    return `Bomba: ${nickOf(r.declarer)} nie gra rozdania. ${changes.join("; ")}.`;
  }
  const total = r.points[r.declarer] + r.melds[r.declarer];
  const head = `Koniec rozdania. ${nickOf(r.declarer)}, kontrakt ${r.contract}: ${r.made ? "ugrane" : "nieugrane"} (${pointsText(total)}).`;
  const changes = r.delta.map(
    (d, seat) => `${nickOf(seat)} ${signed(d)}, razem ${num(r.scores[seat])}`,
  );
  return `${head} ${changes.join("; ")}.`;
}

export function outcomeText(game, view, nickOf) {
  if (game.status === "cancelled")
    return `Gra anulowana: ${CANCELLED[game.cancelled] || "czas minął"}.`;
  const outcome = view?.outcome;
  if (!outcome) return "";
  const winner = outcome.winner === null ? "nikt" : nickOf(outcome.winner);
  const loser = outcome.loser === null ? "" : nickOf(outcome.loser);
  switch (outcome.reason) {
    case "points":
      return `Wygrywa ${winner}: ugrany kontrakt dał ${view.target} punktów.`;
    case "walkover":
      return `Wygrywa ${winner}. ${loser} przegrywa walkowerem: trzy razy z rzędu minął czas na ruch.`;
    case "surrender":
      return `Wygrywa ${winner}. ${loser} poddaje grę.`;
    case "cancelled":
      return "Gra anulowana.";
    default:
      return `Wygrywa ${winner}.`;
  }
}

// --- the live regions ------------------------------------------------------------

const ANNOUNCED = 20; // lines kept in the announcer: it is heard, not read
let statusNode = null;
let logNode = null;

/**
 * `status`: whose turn it is. `log`: the announcer, an always-present live region
 * (visually hidden) that hears every move, even while "Przebieg gry" is in a closed
 * drawer on a phone; the visible log itself is not live, so nothing is heard twice.
 */
export function initLive(status, log) {
  statusNode = status;
  logNode = log;
}

/** Say whose turn it is; repeated text is not repeated aloud. */
export function announce(text) {
  if (statusNode && statusNode.textContent !== text) statusNode.textContent = text;
}

export function logLine(text) {
  if (!logNode || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  logNode.append(line);
  while (logNode.childElementCount > ANNOUNCED) logNode.firstElementChild.remove();
}
