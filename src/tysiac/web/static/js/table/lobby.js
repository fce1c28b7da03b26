// Waiting for players: the game's options, the join form for an invited player, the
// code and link to share for those seated, the seats, and the host's computer players.
import { $, el } from "../dom.js";
import { durationText } from "../a11y.js";
import { optionsLine } from "../options.js";
import { botLabel, chip, nickText, region, setAttr, setText, show } from "./parts.js";
import { t } from "../words.js";

function optionsText(game) {
  const parts = [
    t("table.lobby.players", { players: game.players }),
    t(game.short ? "table.lobby.short" : "table.lobby.long"),
    t("table.lobby.move_time", { time: durationText(game.move_seconds) }),
    t(game.public ? "table.lobby.public" : "table.lobby.private"),
    t(game.chat ? "table.lobby.chat" : "table.lobby.no_chat"),
  ];
  return t("table.lobby.options", { facts: parts.join(" · "), rules: optionsLine(game.options) });
}

export function draw(state) {
  const game = state.snap?.game;
  const waiting = game?.status === "waiting";
  show($("lobby"), Boolean(waiting));
  const spectator = Boolean(game) && game.you === null && !(waiting && !state.stored);
  show($("spectator"), spectator);
  if (!waiting) return;
  const seated = game.you !== null;
  const rematch = Boolean(game.rematch_of);
  setText(
    $("lobby-title"),
    rematch
      ? t("table.lobby.title.rematch")
      : game.name
        ? t("table.lobby.title.named", { name: game.name })
        : t("table.lobby.title"),
  );
  setText($("lobby-options"), optionsText(game));
  // The invited player sees the join form first; the share box is for those seated.
  show($("join-form"), !seated && !state.stored);
  setText($("join-error"), state.joinError);
  setAttr($("join-nick"), "aria-invalid", state.joinError ? "true" : null);
  setAttr($("join-nick"), "aria-describedby", state.joinError ? "join-error" : null);
  show($("share-box"), seated && !rematch);
  const link = `${location.origin}/g/${game.code}`;
  setText($("code"), game.code);
  setText($("link"), link);
  if ($("link").getAttribute("href") !== link) $("link").href = link;
  show($("share"), typeof navigator.share === "function");
  setText($("copy-note"), state.copyNote);
  const host = game.you === 0 && !rematch;
  show($("add-bot-box"), host && game.seats.some((s) => s.nick === null));
  region("lobby-seats", [game.seats, game.you, rematch], () => {
    $("lobby-seats").replaceChildren(...game.seats.map((s) => seatLine(game, s, host, rematch)));
  });
}

function seatLine(game, s, host, rematch) {
  if (s.bot) {
    const remove = host
      ? el(
          "button",
          {
            type: "button",
            class: "button button-small",
            "data-intent": "remove-bot",
            "data-seat": String(s.seat),
          },
          t("table.lobby.remove"),
          el("span", { class: "sr-only" }, ` ${s.nick}`),
        )
      : "";
    return el(
      "li",
      {},
      `${s.seat + 1}. `,
      nickText(s.nick, "strong"),
      " ",
      chip(botLabel(s.bot), "chip-bot"),
      remove,
    );
  }
  let status = "";
  if (s.nick !== null && rematch) {
    status = s.connected
      ? chip(t("table.chip.back"), "chip-ok")
      : chip(t("table.chip.not_back"), "chip-off");
  } else if (s.nick !== null)
    status = s.connected
      ? chip(t("table.chip.connected"), "chip-ok")
      : chip(t("table.chip.disconnected"), "chip-off");
  return el(
    "li",
    { class: s.nick === null ? "free" : "" },
    `${s.seat + 1}. `,
    s.nick === null ? t("table.seat.free") : nickText(s.nick, "strong"),
    s.seat === game.you ? ` ${t("table.seat.you")}` : "",
    " ",
    status,
  );
}
