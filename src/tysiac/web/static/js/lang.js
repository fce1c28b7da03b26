// The page's language: the one chosen in the settings (kept in localStorage under
// `lang`, listed in the privacy policy), else the first of the browser's languages
// (navigator.languages) the site has, by its primary subtag ("uk-UA" -> "uk"), else
// Polish. The server serves the words of the languages it has a catalogue of
// (/api/site?lang=…, `languages`); one it lacks gives Polish.

/** The languages of the site, Polish first (catalogue.LANGUAGES). */
export const LANGUAGES = ["pl", "en", "uk"];
export const DEFAULT = "pl";
const KEY = "lang";

/** The language chosen in the settings, or null. */
export function chosenLanguage() {
  try {
    const value = globalThis.localStorage?.getItem(KEY);
    return LANGUAGES.includes(value) ? value : null;
  } catch {
    return null; // storage blocked
  }
}

/** Keep the choice (null forgets it: the browser's languages decide again). */
export function chooseLanguage(lang) {
  try {
    if (lang === null) globalThis.localStorage?.removeItem(KEY);
    else globalThis.localStorage?.setItem(KEY, lang);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

/** The first of `preferred` (BCP 47 tags) the site has, by primary subtag, or null. */
export function firstKnown(preferred) {
  for (const tag of preferred ?? []) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return null;
}

/** The language the page asks the server for. */
export const pageLanguage = () =>
  chosenLanguage() ??
  firstKnown(globalThis.navigator?.languages ?? [globalThis.navigator?.language]) ??
  DEFAULT;
