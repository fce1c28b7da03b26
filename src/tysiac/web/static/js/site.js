// What the server tells every page once (/api/site): the catalogue's words in the page's
// language (lang.js: the one chosen, else the browser's; `lang`, set on <html>), the table
// options and presets, the computer levels, the limits, the operator. Loaded before any
// module that imports this one runs (a top-level await), so their words are there when
// they first draw. Without a connection `site` is null and the page has only the few
// words its HTML carries for that case (a <script type="application/json"
// id="words-fallback">: the catalogue's texts of "no connection" and the like, which
// tests/web/test_words.py checks against pl.json); any other word shows as its key.
import { siteInfo } from "./api.js";
import { DEFAULT, pageLanguage } from "./lang.js";
import { setWords } from "./words.js";

/** The words the page's HTML carries for a page without /api/site, or {}. */
function fallbackWords() {
  try {
    return JSON.parse(globalThis.document?.getElementById("words-fallback")?.textContent ?? "{}");
  } catch {
    return {};
  }
}

export let site = null;
try {
  site = await siteInfo(pageLanguage());
  setWords(site.words, site.lang, site.languages);
} catch {
  site = null;
  setWords(fallbackWords(), DEFAULT);
}
// The HTML says lang="pl"; the page's language is the words' (screen readers, hyphens).
if (globalThis.document) document.documentElement.lang = site?.lang ?? DEFAULT;

/** A limit the page shares with the server: "kept", "nick", "name", "chat". */
export const limit = (name, fallback) => site?.limits?.[name] ?? fallback;
