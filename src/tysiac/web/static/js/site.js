// What the server tells every page once (/api/site): the catalogue's words in the page's
// language (lang.js: the one chosen, else the browser's; `lang`, set on <html>), the table
// options and presets, the computer levels, the limits, the operator. Loaded before any
// module that imports this one runs (a top-level await), so their words are there when
// they first draw. Without a connection `site` is null and the page has only the few
// words its HTML carries for that case (a <script type="application/json"
// id="words-fallback" data-keys="…">, which the server fills with those keys' texts in
// every language: "no connection" and the like, the whole offline page); any other word
// shows as its key.
import { siteInfo } from "./api.js";
import { DEFAULT, pageLanguage } from "./lang.js";
import { has, lang, onWords, setWords, t } from "./words.js";

// The HTML's own words: an element names its catalogue keys in data attributes, its text
// `data-t="key"` and its attributes `data-t-aria-label`, `data-t-title`,
// `data-t-placeholder`, `data-t-alt`; the HTML keeps the Polish text as the first paint
// and the words of a page without /api/site (a key the words lack leaves it). A text with
// markup inside (a link in a sentence) has a placeholder per child element: the child
// `data-t-part="name"` stands at `{name}`, kept as it is (with its own data-t, link, id).
const ATTRIBUTES = ["aria-label", "title", "placeholder", "alt"];

/** Set `node`'s text to `text`, its `data-t-part` children put at their placeholders. */
function fillText(node, text) {
  const parts = new Map(
    [...node.querySelectorAll(":scope > [data-t-part]")].map((part) => [part.dataset.tPart, part]),
  );
  if (!parts.size) {
    node.textContent = text;
    return;
  }
  // split() with a group: the names of the placeholders at the odd places.
  const pieces = text.split(/\{(\w+)\}/);
  node.replaceChildren(
    ...pieces.map((piece, i) => (i % 2 ? (parts.get(piece) ?? `{${piece}}`) : piece)),
  );
}

/** Put the words' texts into every element under `root` that names a key. */
export function fillPage(root = globalThis.document) {
  if (!root?.querySelectorAll) return;
  for (const node of root.querySelectorAll("[data-t]"))
    if (has(node.dataset.t)) fillText(node, t(node.dataset.t));
  for (const attribute of ATTRIBUTES)
    for (const node of root.querySelectorAll(`[data-t-${attribute}]`)) {
      const key = node.getAttribute(`data-t-${attribute}`);
      if (has(key)) node.setAttribute(attribute, t(key));
    }
}

/** The words the page's HTML carries for a page without /api/site, by language, or {}. */
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
  const byLanguage = fallbackWords();
  const chosen = pageLanguage() in byLanguage ? pageLanguage() : DEFAULT;
  setWords(byLanguage[chosen] ?? {}, chosen, Object.keys(byLanguage));
}
// The HTML says lang="pl"; the page's language is the words' (screen readers, hyphens).
if (globalThis.document) document.documentElement.lang = site?.lang ?? lang();
onWords(() => fillPage());
// The page is in its language now: show it (boot.js hid a page that was to change language).
globalThis.document?.documentElement.classList.remove("words-pending");

/** A limit the page shares with the server: "kept", "nick", "name", "chat". */
export const limit = (name, fallback) => site?.limits?.[name] ?? fallback;
