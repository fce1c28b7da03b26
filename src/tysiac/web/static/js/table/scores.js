// The score sheet (every hand's result and the totals) and the table's rules, beside
// the table or in its drawer; the end panel shows the same sheet (scoreTable).
import { $, el } from "../dom.js";
import { goldenEnd, num, signed } from "../a11y.js";
import { changedOptions, optionsLine } from "../options.js";
import * as S from "../state.js";
import { botLabel, nickText, region, setText, show } from "./parts.js";
import { t } from "../words.js";

const END = {
  void: "table.scores.void",
  redeal: "table.scores.redeal",
  bomb: "table.scores.bomb",
  resign: "table.scores.resign", // V15
};

export function draw(state) {
  const view = S.view(state);
  const ended = ["finished", "cancelled"].includes(state.snap?.game.status);
  show($("scores"), Boolean(view) && !ended);
  if (!view || ended) return;
  region(
    "scores",
    [view.results, view.scores, view.on_barrel, state.snap.game.seats.map((s) => s.nick)],
    () => {
      $("score-box").replaceChildren(scoreTable(state));
    },
  );
  region("rules", [state.snap.game.options], () => {
    const changed = changedOptions(state.snap.game.options);
    setText($("rules-line"), optionsLine(state.snap.game.options));
    $("rules-list").replaceChildren(
      ...(changed.length
        ? changed.map((o) =>
            el(
              "li",
              {},
              el("strong", {}, `${o.name}: ${o.value}.`),
              ` ${o.help} `,
              el(
                "a",
                { href: `/zasady#${o.id.toLowerCase()}` },
                t("table.rules.more"),
                el(
                  "span",
                  { class: "sr-only" },
                  ` ${t("table.rules.more.about", { name: o.name })}`,
                ),
              ),
            ),
          )
        : [el("li", {}, t("table.rules.standard"))]),
    );
  });
}

/** Every hand's result, a row each, and the totals. */
export function scoreTable(state) {
  const view = S.view(state);
  const { game } = state.snap;
  const nick = (seat) => S.nickOf(state, seat);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, t("table.scores.hand")),
    game.seats.map((s) =>
      el(
        "th",
        { scope: "col", class: "nick-cell" },
        nickText(nick(s.seat)),
        s.bot ? el("span", { class: "role" }, ` ${botLabel(s.bot)}`) : "",
      ),
    ),
  );
  // V15: a golden hand is marked; after the last one, a row says whether the scores
  // went back to zero or stand.
  const golden = (r) =>
    r.golden ? el("span", { class: "role role-golden" }, t("table.scores.golden")) : "";
  const rows = view.results.flatMap((r, n) => {
    const row = el(
      "tr",
      { class: r.golden ? "golden" : null },
      r.end === "played"
        ? el(
            "th",
            { scope: "row" },
            `${n + 1}. `,
            nickText(nick(r.declarer)),
            ` ${r.contract} `,
            el(
              "span",
              { class: `role ${r.made ? "made" : "failed"}` },
              t(r.made ? "result.made" : "result.failed"),
            ),
            golden(r),
          )
        : el(
            "th",
            { scope: "row" },
            `${n + 1}. `,
            r.declarer === null ? "" : [nickText(nick(r.declarer)), " "],
            el("span", { class: "role" }, END[r.end] ? t(END[r.end]) : r.end),
            golden(r),
          ),
      r.scores.map((score, seat) =>
        el(
          "td",
          {},
          el("span", { class: "score" }, num(score)),
          " ",
          el(
            "span",
            { class: "delta" },
            seat === r.sitting_out ? t("table.scores.sitting_out") : signed(r.delta[seat]),
          ),
        ),
      ),
    );
    const end = goldenEnd(view, n);
    if (!end) return [row];
    const note = el(
      "tr",
      { class: r.reset ? "golden-end golden-reset" : "golden-end" },
      el("td", { colspan: String(1 + game.players) }, end),
    );
    return [row, note];
  });
  const total = el(
    "tr",
    {},
    el("th", { scope: "row" }, t("table.scores.total")),
    view.scores.map((score, seat) =>
      el(
        "td",
        {},
        el("strong", {}, num(score)),
        view.on_barrel[seat]
          ? [" ", el("span", { class: "barrel" }, t("table.scores.on_barrel"))]
          : "",
      ),
    ),
  );
  const none = el(
    "tr",
    {},
    el("td", { colspan: String(1 + game.players), class: "muted" }, t("table.scores.none")),
  );
  return el(
    "table",
    { class: "table scores" },
    el(
      "caption",
      { class: "sr-only" },
      view.barrel === null // V16: no barrel
        ? t("table.scores.caption.no_barrel", { target: view.target })
        : t("table.scores.caption", { target: view.target, barrel: view.barrel }),
    ),
    el("thead", {}, head),
    el("tbody", {}, rows.length ? rows : none),
    el("tfoot", {}, total),
  );
}
