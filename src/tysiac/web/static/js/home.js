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
  presetItems,
  presetOf,
  valueId,
  withDefaults,
} from "./options.js";
import { limit, site } from "./site.js";
import { t } from "./words.js";
import { initPwa } from "./pwa.js";
import "./settings.js"; // the "Aa" button, wired as soon as it loads
import * as store from "./store.js";

initPwa();

// The computer level chosen at first (the page has no list of its own: /api/site names them).
const DEFAULT_LEVEL = "medium";
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

// --- "Zasady stołu": a preset fills every option's control; each stays editable ---
// The controls are the options: the game is created with what they show, never with a
// preset's name. A preset is checked while the controls show exactly its options; an
// edit checks "Własne" and a line names the preset it started from and what changed.

let base = PRESETS[0].key; // the preset the controls were last filled from

/** A preset's options as one line for its hint: "Krok licytacji: co 5 · Błoty: tak". */
const presetLine = (preset) =>
  presetItems(preset)
    .map((o) => t("options.item", { option: o.name, value: o.value }))
    .join(" · ");

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
        el(
          "span",
          { class: "hint", id: `preset-${preset.key}-hint` },
          preset.help ?? presetLine(preset),
        ),
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
    radio.addEventListener("change", choosePreset);
  $("custom-options").addEventListener("change", syncPreset);
}

const selects = () => $("custom-options").querySelectorAll("select");

/** Every option's value as the controls show it. */
function shownOptions() {
  const shown = {};
  for (const select of selects()) {
    const option = OPTIONS.find((o) => o.key === select.dataset.option);
    shown[option.key] = option.values.find(([v]) => String(v) === select.value)[0];
  }
  return shown;
}

/** Set the controls to `options` (the defaults where it is silent). */
function showOptions(options) {
  const all = withDefaults(options);
  for (const select of selects()) {
    const value = String(all[select.dataset.option]);
    if ([...select.options].some((o) => o.value === value)) select.value = value;
  }
}

/** A preset chosen: its options fill the controls; "Własne" keeps them and opens them. */
function choosePreset() {
  const preset = chosenPreset();
  if (preset.options) {
    base = preset.key;
    showOptions(preset.options);
  } else {
    $("all-options").open = true;
  }
  syncPreset();
}

/** A named preset stays checked while the controls show its every value; an edit that
 * leaves it checks "Własne" (which the player's own choice of it keeps, whatever the
 * controls show). Each control that differs from the preset the controls were filled
 * from is marked, and a line says what was changed. */
function syncPreset() {
  const shown = shownOptions();
  const checked = chosenPreset();
  const custom = PRESETS.find((p) => !p.options);
  const same = (options) => OPTIONS.every((o) => withDefaults(options)[o.key] === shown[o.key]);
  if (checked.options && !same(checked.options) && custom) $(`preset-${custom.key}`).checked = true;
  const from = PRESETS.find((p) => p.key === base && p.options) ?? PRESETS[0];
  const start = withDefaults(from.options);
  const changed = OPTIONS.filter((o) => shown[o.key] !== start[o.key]);
  for (const select of selects()) {
    const key = select.dataset.option;
    select.closest(".field").classList.toggle("edited", shown[key] !== start[key]);
  }
  $("options-edited").textContent =
    chosenPreset().options || !changed.length
      ? ""
      : t("preset.edited", {
          preset: from.name,
          changed: changed.map((o) => `${o.name} (${valueId(o, shown[o.key])})`).join(", "),
        });
}

const chosenPreset = () =>
  PRESETS.find((p) => p.key === form.querySelector('input[name="preset"]:checked')?.value) ??
  PRESETS[0];

/** The options to send: what the controls show, where it differs from the defaults. */
function chosenOptions() {
  const shown = shownOptions();
  return Object.fromEntries(
    OPTIONS.filter((o) => shown[o.key] !== DEFAULTS[o.key]).map((o) => [o.key, shown[o.key]]),
  );
}

/** The last choice: the options it made (an older page kept only "custom" choices) and
 * the preset they started from. */
function restoreHouseRules(opts) {
  const stored = (value) => (value && typeof value === "object" ? value : null);
  const preset = PRESETS.find((p) => p.key === opts.preset);
  const named = (key) => PRESETS.some((p) => p.key === key && p.options);
  base = [opts.base, opts.preset].find(named) ?? PRESETS[0].key;
  const options = stored(opts.options) ?? (preset?.options || stored(opts.custom) || {});
  showOptions(options);
  const custom = PRESETS.find((p) => !p.options);
  const checked = preset ?? presetOf(withDefaults(options)) ?? custom ?? PRESETS[0];
  $(`preset-${checked.key}`).checked = true;
  if (!checked.options) $("all-options").open = true;
  syncPreset();
}

function restore() {
  // This runs once /api/site came (site.js): a nick typed meanwhile stays.
  if (!$("nick").value) $("nick").value = store.getNick();
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
    $("move-hint").textContent = t("home.move_times.failed");
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
  const chosen = select.value || DEFAULT_LEVEL;
  select.replaceChildren(
    ...levels.map((level) => el("option", { value: level }, t(`level.${level}`))),
  );
  if (levels.includes(chosen)) select.value = chosen;
}

/** The short game as the server plays it (R32): its target and where its barrel starts. */
function showShortGame({ target, barrel }) {
  $("short-label").textContent = t("home.short", { target });
  $("short-hint").textContent = t("home.short.hint", { barrel });
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
  let hint = longer ? t("home.move_time.longer") : "";
  if (isPublic && allowed.length === 1)
    hint = t("home.move_time.public", { time: durationText(allowed[0]) });
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
  showError("nick-error", t("home.nick.missing", { limit: limit("nick", 20) }));
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
  opts.base = base;
  opts.options = options;
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
    store.setNotice(t("error.already_seated", { nick: held.nick || t("home.player") }));
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
    showError("join-code-error", t("home.code.missing"));
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
  const tags = [
    t("home.game.players", { taken: game.nicks.filter(Boolean).length, players: game.players }),
  ];
  const computers = (game.bots || []).filter(Boolean).length;
  if (computers)
    tags.push(computers === 1 ? t("home.game.bot") : t("home.game.bots", { count: computers }));
  if (game.short) tags.push(t("home.game.short"));
  if (game.chat) tags.push(t("home.game.chat"));
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
      t("home.game.back"),
      el("span", { class: "sr-only" }, ` ${t("home.game.to", { title })}`),
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
      t("home.game.join"),
      el("span", { class: "sr-only" }, ` ${t("home.game.to", { title })}`),
    );
  } else {
    action = el(
      "a",
      { class: "button", href: `/g/${game.code}`, "data-key": `watch:${game.code}` },
      t("home.game.watch"),
      el("span", { class: "sr-only" }, ` ${t("home.game.watched", { title })}`),
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
        `${game.nicks.map((n, i) => (game.bots?.[i] ? t("home.game.bot_nick", { nick: n }) : n)).join(", ")} · ${describe(game)}`,
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
          : empty(t("home.waiting.none")),
      );
      replaceKeepingFocus(
        $("playing"),
        games.playing.length
          ? games.playing.map((g) => publicItem(g, false))
          : empty(t("home.playing.none")),
      );
    }
    $("list-note").textContent = t("home.list.note");
  } catch (error) {
    $("list-note").textContent = t("home.list.failed", { reason: error.message });
  }
}

// --- this device's games ---

const STATUS = {
  playing: "home.mine.playing",
  finished: "home.mine.finished",
  cancelled: "home.mine.cancelled",
};

async function mineItem(entry) {
  let info = null;
  let status;
  try {
    info = await gameInfo(entry.code);
    status =
      info.status === "waiting"
        ? t("home.mine.waiting", {
            taken: info.nicks.filter(Boolean).length,
            players: info.players,
          })
        : t(STATUS[info.status]);
    if (info.status === "finished" || info.status === "cancelled") store.markEnded(entry.code);
  } catch (error) {
    if (error.status === 404) {
      store.removeSeat(entry.code); // gone for good
      return null;
    }
    if (error.status === 410) {
      store.markEnded(entry.code);
      status = t("home.mine.deleted");
    } else {
      status = t("home.mine.unknown");
    }
  }
  const current = store.loadSeat(entry.code);
  if (current && store.isExpired(current)) {
    store.removeSeat(entry.code);
    return null;
  }
  const title = info?.name
    ? t("table.title.named", { name: info.name, code: entry.code })
    : t("table.title", { code: entry.code });
  const facts = [status];
  if (info) facts.push(t("home.mine.players", { players: info.players }));
  if (entry.nick) facts.push(t("home.mine.nick", { nick: entry.nick }));
  return el(
    "li",
    { class: "game" },
    el(
      "div",
      { class: "game-text" },
      el("p", {}, el("a", { href: `/g/${entry.code}`, "data-key": `mine:${entry.code}` }, title)),
      el("p", { class: "hint" }, facts.join(" · ")),
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
    items.length ? items : [el("li", { class: "muted" }, t("home.mine.none"))],
  );
}

// The nick's hint names the server's limit (the HTML's Polish text says 20 until then).
if (site) $("nick-hint").textContent = t("home.nick.hint", { limit: limit("nick", 20) });
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
