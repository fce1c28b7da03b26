// The catalogue's words on the page: the server's table of names and sentences for the
// page's language (/api/site "words", from src/tysiac/catalogue/<lang>.json), looked up by
// key. Pure: no fetch, no DOM; site.js loads the table once per page.
//
//   t("level.strong")                        -> "mocny"
//   t("error.already_seated", { nick: "Ala" }) -> "Już siedzisz przy tym stole jako Ala."
//
// A key the table lacks shows as itself, in brackets ("⟦level.wizard⟧"), and is reported
// once on the console: a missing word is visible on the page, never an empty space.

let table = {};
const followers = [];
let language = "pl";
let languages = ["pl"];
const reported = new Set();
let markReady;
/** Settles once the page has its words (site.js sets them, or the HTML's fallback). */
export const ready = new Promise((resolve) => (markReady = resolve));

/**
 * Use `words` (key -> text with {named} placeholders) of `lang` from now on; `available`:
 * the languages the server has words of (/api/site `languages`), for the switcher.
 */
export function setWords(words, lang = "pl", available = [lang]) {
  table = words && typeof words === "object" ? words : {};
  language = typeof lang === "string" && lang ? lang : "pl";
  languages = Array.isArray(available) && available.length ? [...available] : [language];
  reported.clear();
  for (const follow of followers) follow();
  markReady();
}

/**
 * Run `follow` now and whenever the words change (another language): what a module names
 * once (the card faces, the ranks' and suits' names) is built again from the new words.
 */
export function onWords(follow) {
  followers.push(follow);
  follow();
}

/** The language of the words (a BCP 47 code: "pl", "en", "uk"). */
export const lang = () => language;

/** The languages the server has words of, Polish first. */
export const availableLanguages = () => [...languages];

/**
 * The CLDR plural category of a whole number in the words' language ("one", "few",
 * "many", "other"): the catalogue's counted texts have a key per category its rule gives
 * for whole numbers (Polish and Ukrainian one/few/many, English one/other).
 */
export const pluralForm = (n, of = language) => new Intl.PluralRules(of).select(n);

/** A counted text: counted("count.cards", 5) → "5 kart" (the form by |n|), with `{n}`. */
export const counted = (stem, n, params = {}) =>
  t(`${stem}.${pluralForm(Math.abs(n))}`, { n, ...params });

/** Whether the table has `key`. */
export const has = (key) => Object.prototype.hasOwnProperty.call(table, key);

/** The text of `key` with `params` filled in; a missing parameter stays as "{name}". */
export function t(key, params = {}) {
  if (!has(key)) {
    if (!reported.has(key)) {
      reported.add(key);
      globalThis.console?.warn?.(`words: no "${key}" in the catalogue`);
    }
    return `⟦${key}⟧`;
  }
  return table[key].replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The placeholders' names of a text: "{nick} ma {limit}" -> ["nick", "limit"]. */
export const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/**
 * A refusal of the server worded from this table: its `key` (error.<code>[.<variant>],
 * or error.<code> for a body without one) with its `params`, then the sentences that
 * follow (`more`, moderation's consequences). The server's own `message` (Polish) only
 * when the table lacks one of the keys.
 */
export function errorText(error) {
  const parts = [
    { key: error?.key ?? `error.${error?.code}`, params: error?.params },
    ...(Array.isArray(error?.more) ? error.more : []),
  ];
  if (!parts.every((part) => typeof part?.key === "string" && has(part.key)))
    return error?.message ?? "";
  return parts.map((part) => t(part.key, part.params ?? {})).join(" ");
}
