// The HTTP side of the protocol (docs/protocol.md §3): lobby calls, JSON in and out.
// Its own two messages (no connection, a server error without a body) are the
// catalogue's, by t(), read when a request fails: by then site.js has loaded the words, or
// failed to, and the page shows the key (the first request, /api/site itself, is told
// apart by site.js, which leaves `site` null).
import { errorText, t } from "./words.js";

export class ApiError extends Error {
  // `field`: the request's field the refusal concerns ("nick", "options"…), or undefined;
  // `params`: the message's named values (docs/protocol.md, the error body).
  constructor(code, message, status, field, params) {
    super(message);
    this.code = code;
    this.status = status;
    this.field = field;
    this.params = params ?? {};
  }
}

export async function request(method, path, body, cache = "no-store") {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache,
    });
  } catch {
    throw new ApiError("network", t("connection.network"), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // not JSON: a proxy or the network answered, not the game server
  }
  if (!response.ok) {
    const error = data?.error;
    throw new ApiError(
      error?.code || "http",
      error ? errorText(error) : t("connection.server_error", { status: response.status }),
      response.status,
      error?.field,
      error?.params,
    );
  }
  return data;
}

/** The canonical game code, as the server spells it: upper case, no spaces or dashes. */
export const normaliseCode = (text) => text.toUpperCase().replace(/[\s-]/g, "");

export const createGame = (body) => request("POST", "/api/games", body);
export const joinGame = (code, nick) =>
  request("POST", `/api/games/${encodeURIComponent(code)}/join`, { nick });
export const listGames = () => request("GET", "/api/games");
export const gameInfo = (code) => request("GET", `/api/games/${encodeURIComponent(code)}`);
// Revalidated, not refetched: the server answers 304 to its ETag while nothing changed.
// The words are those of `lang` (lang.js pageLanguage), or Polish if the server has none.
export const siteInfo = (lang) =>
  request("GET", `/api/site?lang=${encodeURIComponent(lang)}`, undefined, "no-cache");
