// The deal review page ("Przebieg partii"): a finished game's hands step by step with
// every card face up (/g/{code}/przebieg), or a record opened from a file (/przebieg,
// "Otwórz zapis"). The URL names the hand and the step (?rozdanie=N&krok=K); the
// solver's verdicts come in beside the table as the server's analysis fills in.
import { $, el } from "../dom.js";
import { ApiError, request } from "../api.js";
import { num, outcomeText } from "../a11y.js";
import { initPwa } from "../pwa.js";
import "../settings.js"; // the "Aa" button, wired as soon as it loads
import "../site.js"; // the words first
import { region, setText, show } from "../table/parts.js";
import { scoreTable } from "../table/scores.js";
import { t } from "../words.js";
import { board } from "./board.js";
import * as M from "./model.js";

initPwa();

const POLL_MS = 2000; // when the server names no retry time
const MAX_RECORD = 512 * 1024; // the server's bound on an uploaded record (bytes)

const path = location.pathname.match(/^\/g\/([^/]+)\/przebieg\/?$/);
const code = path ? decodeURIComponent(path[1]) : null;

let review = null; // the server's review: the game, its hands' frames, the analysis
let at = { hand: 0, step: 0 };
let poll = 0;
let opened = 0; // which review the page shows: a poll for an earlier one is dropped
let gone = ""; // why an uploaded record's analysis is no longer there

const nickOf = (seat) => review?.nicks[seat] ?? t("seat.name", { number: seat + 1 });

function fail(text) {
  setText($("error"), text);
}

// --- loading ----------------------------------------------------------------------

// A failed request is said in the catalogue's words (api.js words every ApiError); the
// drawing that follows is outside the try, so no browser's own message is ever shown.
async function loadGame() {
  setText($("loading"), t("review.loading"));
  let data;
  try {
    data = await request("GET", `/api/games/${encodeURIComponent(code)}/review`);
  } catch (error) {
    fail(t("review.load_failed", { reason: error.message }));
    return;
  } finally {
    show($("loading"), false);
  }
  start(data);
}

async function openFile() {
  const file = $("record-file").files?.[0];
  if (!file) return;
  fail("");
  if (file.size > MAX_RECORD) {
    fail(t("error.too_large.record")); // the server's bound, said before the upload
    return;
  }
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    fail(t("review.open.unreadable"));
    return;
  }
  setText($("open-status"), t("review.open.reading"));
  let data;
  try {
    data = await request("POST", "/api/records/review", record);
  } catch (error) {
    fail(error.message);
    return;
  } finally {
    setText($("open-status"), "");
  }
  at = { hand: 0, step: 0 };
  start(data, "");
}

function analysisPath() {
  if (review.source === "file") return `/api/records/${encodeURIComponent(review.key)}/analysis`;
  return `/api/games/${encodeURIComponent(review.code)}/analysis`;
}

/** Ask again while the analysis is pending or put off, at the server's pace. */
function schedulePoll() {
  clearTimeout(poll);
  const analysis = review.analysis;
  if (!analysis || !["pending", "later"].includes(analysis.status)) return;
  const mine = opened;
  poll = setTimeout(async () => {
    try {
      const next = await request("GET", analysisPath());
      if (opened !== mine) return; // another record was opened meanwhile
      review = { ...review, analysis: next };
    } catch (error) {
      if (opened !== mine) return;
      // An uploaded record's analysis is kept for a while only: once gone it is not
      // asked again (the page says so); any other failure is asked again.
      if (error instanceof ApiError && error.status === 404) {
        gone = error.message;
        review = { ...review, analysis: { ...analysis, status: "gone" } };
      }
    }
    draw(false);
    schedulePoll();
  }, analysis.retry_ms ?? POLL_MS);
}

function start(data, search = location.search) {
  review = data;
  opened += 1;
  gone = "";
  at = M.place(search, review.hands);
  drawGame();
  show($("review"), review.hands.length > 0);
  if (!review.hands.length) return; // ended before a deal: nothing to step through
  draw(true);
  schedulePoll();
}

// --- drawing ----------------------------------------------------------------------

function drawGame() {
  const players = review.nicks.map((_, seat) => nickOf(seat)).join(", ");
  setText(
    $("title"),
    review.name ? t("review.heading.game", { name: review.name }) : t("review.heading"),
  );
  const facts = [
    review.source === "game" ? t("review.meta.code", { code: review.code }) : t("review.meta.file"),
    t("review.meta.players", { nicks: players }),
    t("review.meta.target", { target: review.target }),
  ];
  setText($("meta"), facts.join(" "));
  const results = M.results(review);
  const view = {
    outcome: review.outcome,
    barrel: M.barrelOf(review),
    target: review.target,
    results,
    scores: results.at(-1)?.scores ?? review.nicks.map(() => 0),
    players: review.players,
  };
  setText($("outcome"), outcomeText({ status: "finished" }, view, nickOf));
  const game = review.source === "game";
  show($("game-links"), game);
  show($("kept"), game && Boolean(review.kept_until));
  if (game) {
    $("download").href = `/api/games/${encodeURIComponent(review.code)}/record?download=1`;
    $("back-to-game").href = `/g/${encodeURIComponent(review.code)}`;
    if (review.kept_until) setText($("kept"), t("review.kept", { until: when(review.kept_until) }));
  }
  const select = $("hand");
  select.replaceChildren(
    ...review.hands.map((h, i) =>
      el(
        "option",
        { value: i },
        t("review.nav.hand_of", { number: i + 1, count: review.hands.length }),
      ),
    ),
  );
}

const when = (iso) =>
  new Date(iso).toLocaleString(document.documentElement.lang || "pl", {
    dateStyle: "long",
    timeStyle: "short",
  });

/** Draw the place `at`; `say`: announce the step (a move by the reader, not a poll). */
function draw(say) {
  const hand = review.hands[at.hand];
  const frame = hand.steps[at.step];
  const last = hand.steps.length - 1;
  history.replaceState(null, "", M.query(at));
  $("hand").value = String(at.hand);
  setText($("counter"), t("review.nav.step", { step: at.step, count: last }));
  $("first").disabled = $("back").disabled = at.step === 0;
  $("forward").disabled = $("last").disabled = at.step === last;
  const text = M.stepText(frame.event, nickOf, review);
  setText($("step-text"), text);
  const verdicts = review.analysis?.hands?.[at.hand] ?? null;
  const verdict = M.stepVerdict(verdicts, at.step);
  const mark = verdict ? M.markText(verdict) : "";
  const markNode = $("step-mark");
  setText(markNode, mark);
  markNode.dataset.mark = verdict?.mark ?? "";
  show(markNode, Boolean(verdict));
  $("board").replaceChildren(...board(frame, hand, review.players, nickOf));
  drawVerdicts(verdicts);
  drawScores();
  if (say) setText($("live"), mark ? `${text} ${t("review.mark.step")}: ${mark}` : text);
}

function drawVerdicts(verdicts) {
  const analysis = review.analysis;
  const status = analysis?.status ?? "pending";
  let line = "";
  if (!verdicts) {
    const hand = review.hands[at.hand];
    const played = hand.steps.some((s) => s.event.kind === "play");
    if (!played) line = t("review.verdicts.none");
    else if (status === "later") line = t("review.verdicts.later");
    else if (status === "gone") line = gone;
    else if (status === "pending") line = t("review.verdicts.pending");
    else line = t("review.verdicts.waiting");
  }
  setText($("analysis-status"), line);
  show($("analysis-status"), Boolean(line));
  show($("hand-verdicts"), Boolean(verdicts));
  region("review-verdicts", [review.key ?? review.code, at.hand, verdicts, review.nicks], () => {
    if (!verdicts) return;
    const said = M.openText(verdicts);
    setText($("open-verdict"), said.open);
    setText($("bid-verdict"), said.bid);
    const list = M.mistakes(verdicts, nickOf);
    show($("mistakes-none"), list.length === 0);
    setText($("mistakes-none"), t("review.mistakes.none"));
    $("mistakes").replaceChildren(
      ...list.map((m) =>
        el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              class: "button button-small mistake",
              "data-mark": m.mark,
              "data-step": m.step,
              onclick: () => go({ hand: at.hand, step: m.step }),
            },
            m.text,
          ),
        ),
      ),
    );
  });
  region("review-counts", [review.key ?? review.code, analysis?.counts, review.nicks], () => {
    const counts = analysis?.counts;
    show($("counts-box"), Boolean(counts));
    if (!counts) return;
    const kinds = ["contract", "mistake", "inaccuracy"];
    const heads = {
      contract: t("review.counts.contract"),
      mistake: t("review.counts.mistake"),
      inaccuracy: t("review.counts.inaccuracy"),
    };
    $("counts").replaceChildren(
      el(
        "table",
        { class: "table counts" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, t("review.counts.player")),
            kinds.map((k) => el("th", { scope: "col" }, heads[k])),
          ),
        ),
        el(
          "tbody",
          {},
          counts.map((count, seat) =>
            el(
              "tr",
              {},
              el("th", { scope: "row" }, nickOf(seat)),
              kinds.map((k) => el("td", {}, num(count[k] ?? 0))),
            ),
          ),
        ),
      ),
    );
  });
}

/** The score sheet of the hands so far: this hand's result once its last step shows it. */
function drawScores() {
  const steps = review.hands[at.hand].steps.slice(0, at.step + 1);
  const ended = steps.some((s) => s.event.result !== undefined && s.event.result !== null);
  const shown = review.hands.slice(0, at.hand + (ended ? 1 : 0)).filter((h) => h.result);
  region("review-scores", [review.key ?? review.code, shown.length, review.nicks], () => {
    const results = M.results({ ...review, hands: shown });
    const state = {
      snap: {
        game: {
          players: review.players,
          seats: review.nicks.map((nick, seat) => ({ seat, nick, bot: null })),
        },
        view: {
          results,
          scores: results.at(-1)?.scores ?? review.nicks.map(() => 0),
          on_barrel: review.nicks.map(() => false),
          barrel: M.barrelOf(review),
          target: review.target,
          players: review.players,
        },
      },
    };
    $("score-box").replaceChildren(scoreTable(state));
  });
}

function go(next) {
  if (next.hand === at.hand && next.step === at.step) return;
  at = next;
  const focused = document.activeElement;
  draw(true);
  // A step button at its end is disabled: the focus goes to the one leading back.
  if (focused?.disabled) {
    const ahead = focused === $("forward") || focused === $("last");
    const other = ahead ? $("back") : $("forward");
    (other.disabled ? $("main") : other).focus();
  }
}

// --- input ------------------------------------------------------------------------

function onKey(event) {
  if (!review?.hands.length || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  // Fields and scrolled tables keep their own arrows and keys.
  if (target.closest?.("input, select, textarea, .scroll-x")) return;
  const next = M.moved(at, event.key, review.hands);
  if (!next) return;
  event.preventDefault();
  go(next);
}

function wire() {
  $("first").addEventListener("click", () => go(M.moved(at, "Home", review.hands)));
  $("back").addEventListener("click", () => go(M.moved(at, "ArrowLeft", review.hands)));
  $("forward").addEventListener("click", () => go(M.moved(at, "ArrowRight", review.hands)));
  $("last").addEventListener("click", () => go(M.moved(at, "End", review.hands)));
  $("hand").addEventListener("change", () => go({ hand: Number($("hand").value), step: 0 }));
  document.addEventListener("keydown", onKey);
  $("record-file").addEventListener("change", openFile);
}

wire();
show($("open"), !code);
if (code) loadGame();
