// The home page (/): a new game, joining by code, the public games (polled) and the
// games this browser holds a seat in.
import { $, el } from "./dom.js";
import { createGame, gameInfo, joinGame, listGames, normaliseCode } from "./api.js";
import { durationText } from "./a11y.js";
import {
  DEFAULTS,
  OPTIONS,
  PRESETS,
  changedOptions,
  defaultMarked,
  optionsLine,
} from "./options.js";
import { site } from "./site.js";
import { t } from "./words.js";
import { initPwa } from "./pwa.js";
import { initSettings } from "./settings.js";
import * as store from "./store.js";

initSettings();
initPwa();

const POLL_MS = 5000;
const MINE_MS = 30000;
const form = $("create-form");
const field = (name) => form.elements.namedItem(name);

// --- errors, each shown next to what caused it, with the focus moved there ---

const ERROR_SPOTS = ["nick-error", "create-error", "join-code-error", "list-error"];

function clearErrors() {
  for (const id of ERROR_SPOTS) $(id).textContent = "";
  for (const id of ["nick", "join-code"]) $(id).removeAttribute("aria-invalid");
}

/** Show `text` under a field (aria-invalid, described by it, focused) or in a spot. */
function showError(spot, text) {
  const field = { "nick-error": "nick", "join-code-error": "join-code" }[spot];
  $(spot).textContent = text;
  if (field) {
    const input = $(field);
    input.setAttribute("aria-invalid", "true");
    const described = new Set(
      (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean),
    );
    described.add(spot);
    input.setAttribute("aria-describedby", [...described].join(" "));
    input.focus();
  } else {
    $(spot).focus();
  }
}

// The server says which field a refusal concerns (error.field, docs/protocol.md).
const isNickError = (error) => error.field === "nick";
// Refusals that are about the game the code names, not about the nick.
const GAME_ERRORS = [
  "unknown_game",
  "full",
  "already_seated",
  "cancelled",
  "finished",
  "game_over",
  "deleted",
];

// --- the form, with the last choices (tysiac_opts) ---

// --- "Zasady stołu": a preset, or each option chosen ("Własne") ---

function drawHouseRules() {
  $("presets").replaceChildren(
    ...PRESETS.map((preset) =>
      el(
        "p",
        { class: "check" },
        el("input", {
          type: "radio",
          name: "preset",
          id: `preset-${preset.key}`,
          value: preset.key,
          "aria-describedby": `preset-${preset.key}-hint`,
        }),
        el("label", { for: `preset-${preset.key}` }, preset.name),
        el("span", { class: "hint", id: `preset-${preset.key}-hint` }, preset.help),
      ),
    ),
  );
  $("custom-options").replaceChildren(
    ...OPTIONS.map((option) =>
      el(
        "p",
        { class: "field" },
        el("label", { for: `opt-${option.key}` }, `${option.name} (${option.id})`),
        el(
          "select",
          {
            id: `opt-${option.key}`,
            "data-option": option.key,
            "aria-describedby": `opt-${option.key}-hint`,
          },
          option.values.map(([value, label], i) =>
            el("option", { value: String(value) }, i ? label : defaultMarked(label)),
          ),
        ),
        el("span", { class: "hint", id: `opt-${option.key}-hint` }, option.help),
      ),
    ),
  );
  for (const radio of form.querySelectorAll('input[name="preset"]'))
    radio.addEventListener("change", syncPreset);
}

function syncPreset() {
  $("custom-options").hidden = chosenPreset().key !== "custom";
}

const chosenPreset = () =>
  PRESETS.find((p) => p.key === form.querySelector('input[name="preset"]:checked')?.value) ??
  PRESETS[0];

/** The options to send: the preset's, or the custom choices that differ from the defaults. */
function chosenOptions() {
  const preset = chosenPreset();
  if (preset.options) return preset.options;
  const options = {};
  for (const select of $("custom-options").querySelectorAll("select")) {
    const option = OPTIONS.find((o) => o.key === select.dataset.option);
    const value = option.values.find(([v]) => String(v) === select.value)[0];
    if (value !== DEFAULTS[option.key]) options[option.key] = value;
  }
  return options;
}

function restoreHouseRules(opts) {
  const preset = PRESETS.find((p) => p.key === opts.preset) ?? PRESETS[0];
  $(`preset-${preset.key}`).checked = true;
  const custom = opts.custom && typeof opts.custom === "object" ? opts.custom : {};
  for (const select of $("custom-options").querySelectorAll("select")) {
    const saved = custom[select.dataset.option];
    if (saved !== undefined && [...select.options].some((o) => o.value === String(saved)))
      select.value = String(saved);
  }
  syncPreset();
}

function restore() {
  $("nick").value = store.getNick();
  const opts = store.getOpts();
  if ([2, 3, 4].includes(opts.players)) {
    for (const radio of form.querySelectorAll('input[name="players"]'))
      radio.checked = Number(radio.value) === opts.players;
  }
  if (typeof opts.public === "boolean") field("public").checked = opts.public;
  if (typeof opts.chat === "boolean") field("chat").checked = opts.chat;
  if (typeof opts.short === "boolean") field("short").checked = opts.short;
  restoreHouseRules(opts);
  syncPublic();
}

// --- the move time: the choices come from /api/site (R27) ---

let moveTimes = null; // {public: [seconds], private: [seconds]}, once loaded

function loadMoveTimes() {
  const select = field("move_seconds");
  if (!site) {
    $("move-hint").textContent = "Nie udało się wczytać czasów na ruch: gra dostanie domyślny.";
    return;
  }
  moveTimes = site.move_seconds;
  showShortGame(site.short_game);
  showLevels(site.levels);
  const all = [...new Set([...moveTimes.public, ...moveTimes.private])].sort((a, b) => a - b);
  select.replaceChildren(
    ...all.map((seconds) => el("option", { value: String(seconds) }, durationText(seconds))),
  );
  const saved = store.getOpts().move_seconds;
  if (all.includes(saved)) select.value = String(saved);
  select.disabled = false;
  syncPublic();
}

/** The computer levels the server has, by their names (level.<level>). */
function showLevels(levels) {
  const select = field("bot_level");
  const chosen = select.value;
  select.replaceChildren(
    ...levels.map((level) => el("option", { value: level }, t(`level.${level}`))),
  );
  if (levels.includes(chosen)) select.value = chosen;
}

/** The short game as the server plays it (R32): its target and where its barrel starts. */
function showShortGame({ target, barrel }) {
  $("short-label").textContent = `Krótka gra (do ${target})`;
  $("short-hint").textContent = `Beczka od ${barrel} punktów.`;
}

/** Only the move times the server allows for this kind of game. */
function syncPublic() {
  if (!moveTimes) return;
  const isPublic = field("public").checked;
  const allowed = isPublic ? moveTimes.public : moveTimes.private;
  const select = field("move_seconds");
  for (const option of select.options) option.disabled = !allowed.includes(Number(option.value));
  if (!allowed.includes(Number(select.value))) select.value = String(allowed[0]);
  const longer = moveTimes.private.some((seconds) => !moveTimes.public.includes(seconds));
  let hint = longer ? "Dłuższy czas tylko w grze prywatnej." : "";
  if (isPublic && allowed.length === 1)
    hint = `W grze publicznej zawsze ${durationText(allowed[0])}.`;
  $("move-hint").textContent = hint;
}

field("public").addEventListener("change", () => {
  // The usual default: chat on in a private game, off in a public one.
  field("chat").checked = !field("public").checked;
  syncPublic();
});

/** The nick, or null after telling the player to type one. */
function nick() {
  const input = $("nick");
  const value = input.value.trim();
  if (value) return value;
  showError("nick-error", "Wpisz nick: dowolny pseudonim, do 20 znaków.");
  return null;
}

function enter(seated, name) {
  store.setNick(name);
  store.saveSeat(seated.code, {
    seat: seated.seat,
    token: seated.token,
    nick: name,
    joined: new Date().toISOString(),
  });
  location.href = `/g/${seated.code}`;
}

// Enter in the nick field (it stands above both forms) creates a game.
$("nick").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.isComposing) {
    event.preventDefault();
    form.requestSubmit();
  }
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  create(false);
});
$("play-bots").addEventListener("click", () => create(true));

/** A new game from the form; `withBots`: the other seats go to computers at once. */
async function create(withBots) {
  clearErrors();
  const name = nick();
  if (!name) return;
  const opts = {
    players: Number(form.querySelector('input[name="players"]:checked')?.value || 3),
    public: field("public").checked,
    chat: field("chat").checked,
    short: field("short").checked,
  };
  const options = chosenOptions();
  // Not loaded (no connection to /api/site): the server's default move time.
  if (moveTimes) opts.move_seconds = Number(field("move_seconds").value);
  const body = { nick: name, ...opts, options };
  opts.preset = chosenPreset().key;
  if (opts.preset === "custom") opts.custom = options;
  if (field("name").value.trim()) body.name = field("name").value;
  if (withBots) body.bots = Array(opts.players - 1).fill(field("bot_level").value);
  try {
    const seated = await createGame(body);
    store.setOpts(opts);
    enter(seated, name);
  } catch (error) {
    showError(isNickError(error) ? "nick-error" : "create-error", error.message);
  }
}

/**
 * Join `code`; errors about the game go to `spot` (under the code field, or beside the
 * public list), errors about the nick under the nick. A browser that already holds a
 * seat at this table goes back to it: its stored key is never overwritten.
 */
async function join(code, spot) {
  clearErrors();
  const held = store.loadSeat(code);
  if (held) {
    store.setNotice(t("error.already_seated", { nick: held.nick || "gracz" }));
    location.href = `/g/${code}`;
    return;
  }
  const name = nick();
  if (!name) return;
  try {
    enter(await joinGame(code, name), name);
  } catch (error) {
    showError(
      isNickError(error) && !GAME_ERRORS.includes(error.code) ? "nick-error" : spot,
      error.message,
    );
  }
}

$("join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  clearErrors();
  const code = normaliseCode($("join-code").value);
  if (!code) {
    showError("join-code-error", "Wpisz kod gry.");
    return;
  }
  join(code, "join-code-error");
});

// --- lists redrawn in place: focus stays on the same game's control ---

function replaceKeepingFocus(list, items) {
  const key = list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  list.replaceChildren(...items);
  if (!key) return;
  const same = list.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (same) return same.focus();
  list.tabIndex = -1; // the game went away: keep the focus in its list
  list.focus();
}

const gameTitle = (game) => game.name || game.code;

function describe(game) {
  const tags = [`${game.nicks.filter(Boolean).length} z ${game.players} graczy`];
  const computers = (game.bots || []).filter(Boolean).length;
  if (computers) tags.push(computers === 1 ? "1 komputer" : `komputery: ${computers}`);
  if (game.short) tags.push("krótka");
  if (game.chat) tags.push("czat");
  if (changedOptions(game.options).length) tags.push(optionsLine(game.options).toLowerCase());
  return tags.join(" · ");
}

function publicItem(game, waiting) {
  const title = gameTitle(game);
  const held = store.loadSeat(game.code);
  let action;
  if (held) {
    action = el(
      "a",
      { class: "button", href: `/g/${game.code}`, "data-key": `go:${game.code}` },
      "Wróć",
      el("span", { class: "sr-only" }, ` do gry ${title}`),
    );
  } else if (waiting) {
    action = el(
      "button",
      {
        type: "button",
        class: "button button-primary",
        "data-key": `join:${game.code}`,
        onclick: () => join(game.code, "list-error"),
      },
      "Dołącz",
      el("span", { class: "sr-only" }, ` do gry ${title}`),
    );
  } else {
    action = el(
      "a",
      { class: "button", href: `/g/${game.code}`, "data-key": `watch:${game.code}` },
      "Oglądaj",
      el("span", { class: "sr-only" }, ` grę ${title}`),
    );
  }
  return el(
    "li",
    { class: "game" },
    el(
      "div",
      { class: "game-text" },
      el(
        "p",
        {},
        el("strong", {}, title),
        game.name ? el("span", { class: "code-small" }, ` ${game.code}`) : "",
      ),
      el(
        "p",
        { class: "hint" },
        `${game.nicks.map((n, i) => (game.bots?.[i] ? `${n} (komputer)` : n)).join(", ")} · ${describe(game)}`,
      ),
    ),
    action,
  );
}

let lastList = "";

async function refreshPublic() {
  if (document.hidden) return;
  try {
    const games = await listGames();
    const text = JSON.stringify(games);
    if (text !== lastList) {
      lastList = text;
      const empty = (what) => [el("li", { class: "muted" }, what)];
      replaceKeepingFocus(
        $("waiting"),
        games.waiting.length
          ? games.waiting.map((g) => publicItem(g, true))
          : empty("Teraz żadna gra nie czeka na graczy."),
      );
      replaceKeepingFocus(
        $("playing"),
        games.playing.length
          ? games.playing.map((g) => publicItem(g, false))
          : empty("Teraz nie toczy się żadna gra publiczna."),
      );
    }
    $("list-note").textContent = "Lista odświeża się sama.";
  } catch (error) {
    $("list-note").textContent = `Nie udało się pobrać listy: ${error.message}`;
  }
}

// --- this device's games ---

const STATUS = {
  playing: "trwa",
  finished: "zakończona",
  cancelled: "anulowana",
};

async function mineItem(entry) {
  let info = null;
  let status;
  try {
    info = await gameInfo(entry.code);
    status =
      info.status === "waiting"
        ? `czeka na graczy (${info.nicks.filter(Boolean).length} z ${info.players})`
        : STATUS[info.status];
    if (info.status === "finished" || info.status === "cancelled") store.markEnded(entry.code);
  } catch (error) {
    if (error.status === 404) {
      store.removeSeat(entry.code); // gone for good
      return null;
    }
    if (error.status === 410) {
      store.markEnded(entry.code);
      status = "usunięta";
    } else {
      status = "stan nieznany (brak połączenia)";
    }
  }
  const current = store.loadSeat(entry.code);
  if (current && store.isExpired(current)) {
    store.removeSeat(entry.code);
    return null;
  }
  const title = info?.name ? `${info.name} (${entry.code})` : `Gra ${entry.code}`;
  const who = entry.nick ? ` · grasz jako ${entry.nick}` : "";
  return el(
    "li",
    { class: "game" },
    el(
      "div",
      { class: "game-text" },
      el("p", {}, el("a", { href: `/g/${entry.code}`, "data-key": `mine:${entry.code}` }, title)),
      el("p", { class: "hint" }, `${status}${info ? ` · ${info.players} graczy` : ""}${who}`),
    ),
  );
}

async function refreshMine() {
  if (document.hidden) return;
  const entries = store.listSeats().filter((entry) => {
    if (!store.isExpired(entry)) return true;
    store.removeSeat(entry.code);
    return false;
  });
  const items = (await Promise.all(entries.map(mineItem))).filter(Boolean);
  replaceKeepingFocus(
    $("mine"),
    items.length
      ? items
      : [el("li", { class: "muted" }, "Nie masz jeszcze żadnych gier na tym urządzeniu.")],
  );
}

drawHouseRules();
restore();
loadMoveTimes();
refreshPublic();
refreshMine();
setInterval(refreshPublic, POLL_MS);
setInterval(refreshMine, MINE_MS);
document.addEventListener("visibilitychange", () => {
  refreshPublic();
  refreshMine();
});
