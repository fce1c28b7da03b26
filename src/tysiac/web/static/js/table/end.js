// The end of the game: how it ended, the ranking, the rematch, the whole score sheet.
// It takes the table's place.
import { $, el } from "../dom.js";
import { num, outcomeText } from "../a11y.js";
import * as S from "../state.js";
import { chip, nickText, region, setText, show } from "./parts.js";
import { scoreTable } from "./scores.js";
import { t } from "../words.js";

export function draw(state) {
  const game = state.snap?.game;
  const view = S.view(state);
  const ended = game?.status === "finished" || game?.status === "cancelled";
  show($("end"), Boolean(ended));
  if (!ended) return;
  setText(
    $("end-text"),
    outcomeText(game, view, (seat) => S.nickOf(state, seat)),
  );
  show($("rematch"), game.you !== null && game.status === "finished" && !game.rematch);
  show($("rematch-link"), Boolean(game.rematch));
  if (game.rematch) $("rematch-link").href = `/g/${game.rematch}`;
  // Only a finished game has a review (not a cancelled one): every hand, step by step.
  const review = $("review-link");
  show(review, game.status === "finished");
  if (game.status === "finished") {
    setText(review, t("review.end_link"));
    review.href = `/g/${encodeURIComponent(game.code)}/przebieg`;
  }
  region(
    "end",
    [view?.scores, view?.outcome, game.seats.map((s) => s.nick), view?.results.length],
    () => {
      if (!view) {
        $("ranking").replaceChildren();
        $("end-scores").replaceChildren();
        return;
      }
      const winner = view.outcome?.winner ?? null;
      const order = game.seats
        .map((s) => s.seat)
        .sort((a, b) => (b === winner) - (a === winner) || view.scores[b] - view.scores[a]);
      $("ranking").replaceChildren(...order.map((seat) => rankingLine(state, seat, winner)));
      $("end-scores").replaceChildren(scoreTable(state));
    },
  );
}

function rankingLine(state, seat, winner) {
  const view = S.view(state);
  return el(
    "li",
    { class: seat === winner ? "winner" : "" },
    nickText(S.nickOf(state, seat), "strong"),
    ` — ${t("table.points", { points: num(view.scores[seat]) })}`,
    seat === winner ? [" ", chip(t("table.chip.wins"), "chip-win")] : "",
    seat === view.outcome?.loser
      ? [
          " ",
          chip(
            t(
              view.outcome.reason === "surrender"
                ? "table.chip.surrendered"
                : "table.chip.walkover",
            ),
            "chip-off",
          ),
        ]
      : "",
  );
}
