// What this browser remembers (listed in the privacy policy): a seat and token per
// game (`tysiac-online:CODE`), the last nick (`tysiac-name`) and the last choices
// for a new game (`tysiac_opts`). Storage may be blocked: then nothing is kept.

const PREFIX = "tysiac-online:";
const NICK = "tysiac-name";
const OPTS = "tysiac_opts";
export const KEEP_ENDED_MS = 3 * 24 * 3600 * 1000;

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  } catch {
    // storage full or blocked
  }
}

/** {seat, token, nick?, joined?, ended?, chatOff?} or null. */
export function loadSeat(code) {
  const entry = read(PREFIX + code);
  return entry && typeof entry.token === "string" && Number.isInteger(entry.seat) ? entry : null;
}

/** Store a seat; a different seat already stored for `code` is never overwritten. */
export function saveSeat(code, entry) {
  const held = loadSeat(code);
  if (held && held.token !== entry.token) return false;
  write(PREFIX + code, entry);
  return true;
}

export function updateSeat(code, changes) {
  const entry = loadSeat(code);
  if (entry) saveSeat(code, { ...entry, ...changes });
}

export function removeSeat(code) {
  write(PREFIX + code, null);
}

/** Every game this browser holds a seat in, newest first. */
export function listSeats() {
  const entries = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PREFIX)) continue;
      const code = key.slice(PREFIX.length);
      const entry = loadSeat(code);
      if (entry) entries.push({ code, ...entry });
    }
  } catch {
    return [];
  }
  return entries.sort((a, b) => String(b.joined || "").localeCompare(String(a.joined || "")));
}

/** The game has ended (finished, cancelled or deleted): remember when, once. */
export function markEnded(code, now = Date.now()) {
  const entry = loadSeat(code);
  if (entry && !entry.ended) saveSeat(code, { ...entry, ended: now });
}

export function isExpired(entry, now = Date.now()) {
  return Boolean(entry.ended) && now - entry.ended > KEEP_ENDED_MS;
}

export function getNick() {
  try {
    return localStorage.getItem(NICK) || "";
  } catch {
    return "";
  }
}

export function setNick(nick) {
  write(NICK, nick);
}

export function getOpts() {
  const opts = read(OPTS);
  return opts && typeof opts === "object" ? opts : {};
}

export function setOpts(opts) {
  write(OPTS, opts);
}

// A one-time message for the next page of this tab ("Już siedzisz przy tym stole…"),
// kept in sessionStorage: read once by takeNotice() and gone.
const NOTICE = "tysiac-notice";

export function setNotice(text) {
  try {
    sessionStorage.setItem(NOTICE, text);
  } catch {
    // storage blocked: the page still opens, without the message
  }
}

export function takeNotice() {
  try {
    const text = sessionStorage.getItem(NOTICE) || "";
    sessionStorage.removeItem(NOTICE);
    return text;
  } catch {
    return "";
  }
}
