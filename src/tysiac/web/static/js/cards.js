// Cards drawn by the browser as SVG: crisp at any size, no image files. Suits are
// SVG paths (the fonts have no suit symbols), told apart by shape and by colour
// (a four-colour deck: kier red, karo blue, trefl green, pik black). Labels A, 10, K,
// D, W, 9 (R2; the catalogue's card.face.<rank>). Every drawing is aria-hidden: the names
// come from a11y.js.
import { svg } from "./dom.js";
import "./site.js"; // the words first: the labels below are taken from them
import { onWords, t } from "./words.js";

/** The letters on each rank's face in the page's language (card.face.<rank>: D, W; Q, J;
 * Д, В), built again when the words change. */
export const LABELS = {};
onWords(() => {
  for (const r of "9JQKTA") LABELS[r] = t(`card.face.${r}`);
});

// Each suit in a 100 × 100 box.
const SHAPES = {
  H: [
    [
      "path",
      {
        d: "M50 92C46 84 4 62 4 32 4 16 16 6 29 6c10 0 17 6 21 15 4-9 11-15 21-15 13 0 25 10 25 26 0 30-42 52-46 60z",
      },
    ],
  ],
  D: [["path", { d: "M50 3 88 50 50 97 12 50z" }]],
  S: [
    [
      "path",
      {
        d: "M50 4c6 17 46 36 46 60 0 14-10 21-22 21-9 0-16-5-19-11 1 10 5 17 13 21H32c8-4 12-11 13-21-3 6-10 11-19 11C14 85 4 78 4 64 4 40 44 21 50 4z",
      },
    ],
  ],
  C: [
    ["circle", { cx: 50, cy: 28, r: 21 }],
    ["circle", { cx: 27, cy: 60, r: 21 }],
    ["circle", { cx: 73, cy: 60, r: 21 }],
    ["path", { d: "M50 38 34 62h32zM46 58c0 18-4 30-14 38h36c-10-8-14-20-14-38z" }],
  ],
};

const shapes = (suit) => SHAPES[suit].map(([tag, attrs]) => svg(tag, attrs));

/** A suit symbol on its own (trump, melds), sized by CSS (class "suit"). */
export function suitIcon(suit) {
  return svg(
    "svg",
    {
      class: `suit suit-${suit}`,
      viewBox: "0 0 100 100",
      "aria-hidden": "true",
      focusable: "false",
    },
    shapes(suit),
  );
}

function placed(suit, x, y, size) {
  return svg("g", { transform: `translate(${x} ${y}) scale(${size / 100})` }, shapes(suit));
}

/** The face of a card: rank top left over a small suit, a big suit in the middle. */
export function cardFace(code, { meld = false } = {}) {
  const rank = LABELS[code[0]];
  const suit = code[1];
  return svg(
    "svg",
    {
      class: `card-svg suit-${suit}`,
      viewBox: "0 0 50 70",
      "aria-hidden": "true",
      focusable: "false",
    },
    svg("rect", { class: "card-bg", x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4.5 }),
    svg(
      "text",
      {
        class: "card-rank",
        x: rank.length > 1 ? 2.5 : 4.5,
        y: 16,
        "font-size": rank.length > 1 ? 13 : 15,
        "letter-spacing": rank.length > 1 ? -0.5 : null,
      },
      rank,
    ),
    placed(suit, 4, 19, 11),
    placed(suit, 18, meld ? 21 : 27, 27),
    meld
      ? [
          svg("rect", { class: "meld-band", x: 4, y: 53, width: 42, height: 13, rx: 3 }),
          svg("text", { class: "meld-text", x: 5, y: 63, "font-size": 9 }, t("card.face.meld")),
        ]
      : null,
  );
}

/** The back of a card: a lattice of small diamonds, the same for every card. */
const LATTICE = (() => {
  let d = "";
  for (let x = 9; x <= 41; x += 8)
    for (let y = 11; y <= 59; y += 8) d += `M${x} ${y - 3}l3 3-3 3-3-3z`;
  return d;
})();

export function cardBack() {
  return svg(
    "svg",
    { class: "card-svg back", viewBox: "0 0 50 70", "aria-hidden": "true", focusable: "false" },
    svg("rect", { class: "back-bg", x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4.5 }),
    svg("rect", { class: "back-frame", x: 4.5, y: 4.5, width: 41, height: 61, rx: 2.5 }),
    svg("path", { class: "back-lines", d: LATTICE }),
  );
}
