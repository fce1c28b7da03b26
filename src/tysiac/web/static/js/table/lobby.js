// Waiting for players: the game's options, the join form for an invited player, the
// code and link to share for those seated, the seats, and the host's computer players.
import { $, el } from "../dom.js";
import { durationText } from "../a11y.js";
import { optionsLine } from "../options.js";
import { botLabel, chip, nickText, region, setAttr, setText, show } from "./parts.js";

function optionsText(game) {
  const parts = [
    `${game.players} graczy`,
    game.short ? "krótka gra" : "gra do 1000",
    `czas na ruch: ${durationText(game.move_seconds)}`,
    game.public ? "publiczna" : "prywatna",
    game.chat ? "z czatem" : "bez czatu",
  ];
  return `${parts.join(" · ")}. ${optionsLine(game.options)}.`;
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
      ? "Rewanż: czekamy, aż wrócą gracze"
      : game.name
        ? `${game.name}: czekamy na graczy`
        : "Czekamy na graczy",
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
          "Usuń",
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
      ? chip("już przy stole", "chip-ok")
      : chip("jeszcze poza stołem", "chip-off");
  } else if (s.nick !== null)
    status = s.connected ? chip("połączony", "chip-ok") : chip("rozłączony", "chip-off");
  return el(
    "li",
    { class: s.nick === null ? "free" : "" },
    `${s.seat + 1}. `,
    s.nick === null ? "wolne miejsce" : nickText(s.nick, "strong"),
    s.seat === game.you ? " (Ty)" : "",
    " ",
    status,
  );
}
