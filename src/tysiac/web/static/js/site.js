// What the server tells every page once (/api/site): the catalogue's words, the table
// options and presets, the computer levels, the limits, the operator. Loaded before any
// module that imports this one runs (a top-level await), so their words are there when
// they first draw. Without a connection `site` is null and the words show as their keys.
import { siteInfo } from "./api.js";
import { setWords } from "./words.js";

export let site = null;
try {
  site = await siteInfo();
  setWords(site.words);
} catch {
  site = null;
}

/** A limit the page shares with the server: "kept", "nick", "name", "chat". */
export const limit = (name, fallback) => site?.limits?.[name] ?? fallback;
