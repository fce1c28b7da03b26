// The top of the table page: the game's title (also the document's), the connection,
// the last error and notice; and, for an unknown or deleted game, one message and the
// way home instead of everything else.
import { $ } from "../dom.js";
import * as S from "../state.js";
import { setText, show } from "./parts.js";
import { t } from "../words.js";

export function draw(state) {
  const missing = drawMissing(state);
  const game = state.snap?.game;
  const mine = game && S.view(state)?.to_move === game.you && game.you !== null;
  const name = game
    ? game.name
      ? t("table.title.named", { name: game.name, code: game.code })
      : t("table.title", { code: game.code })
    : t("table.title", { code: state.code });
  setText($("title"), name);
  const title = t(mine ? "table.document.yours" : "table.document", { name });
  if (document.title !== title) document.title = title;
  const conn = {
    connecting: t("connection.connecting"),
    open: "",
    retrying: t("connection.retrying"),
    closed: t("connection.closed"),
  }[state.connection];
  setText(
    $("conn"),
    missing ? "" : state.connection === "open" && !state.snap ? t("connection.connecting") : conn,
  );
  setText($("error"), missing ? "" : state.error);
  setText($("notice"), state.notice);
  show($("notice"), Boolean(state.notice));
}

/** An unknown or deleted game: the socket was closed with 4404 or 4410. */
function drawMissing(state) {
  const missing =
    state.connection === "closed" && (state.closedCode === 4404 || state.closedCode === 4410);
  show($("missing"), missing);
  document.body.classList.toggle("game-missing", missing);
  if (missing) {
    // A removed game says why (the server's message); an unknown code, what to check.
    setText(
      $("missing-title"),
      state.closedCode === 4410 ? t("table.missing.deleted.title") : t("table.missing.title"),
    );
    setText(
      $("missing-text"),
      state.closedCode === 4410
        ? state.error || t("table.missing.deleted", { code: state.code })
        : t("table.missing", { code: state.code }),
    );
  }
  return missing;
}
