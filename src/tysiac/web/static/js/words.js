// The catalogue's words on the page: the server's table of names and sentences for the
// page's language (/api/site "words", from src/tysiac/catalogue/pl.json), looked up by
// key. Pure: no fetch, no DOM; site.js loads the table once per page.
//
//   t("level.strong")                        -> "mocny"
//   t("error.already_seated", { nick: "Ala" }) -> "Już siedzisz przy tym stole jako Ala."
//
// A key the table lacks shows as itself, in brackets ("⟦level.wizard⟧"), and is reported
// once on the console: a missing word is visible on the page, never an empty space.

let table = {};
const reported = new Set();
let markReady;
/** Settles once the page has its words (site.js sets them, or the HTML's fallback). */
export const ready = new Promise((resolve) => (markReady = resolve));

/** Use `words` (key -> text with {named} placeholders) from now on. */
export function setWords(words) {
  table = words && typeof words === "object" ? words : {};
  reported.clear();
  markReady();
}

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
