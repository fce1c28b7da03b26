// The table options (house rules V1-V14) as players read them: a name, the values with
// their names, one line of explanation, and the presets of the create form. The rules
// themselves are the server's (docs/rules.md); this is only their Polish description.

export const OPTIONS = [
  {
    key: "bid_step",
    id: "V1",
    name: "Krok licytacji",
    values: [
      [10, "co 10"],
      [5, "co 5"],
    ],
    help: "O ile można podbić: 100, 110, 120… albo 100, 105, 110…",
  },
  {
    key: "bid_limit",
    id: "V2",
    name: "Granica licytacji",
    values: [
      ["marriage", "120 bez meldunku"],
      ["melds", "120 + meldunki z ręki"],
      ["360", "do 360 dla każdego"],
    ],
    help: "Ile wolno zalicytować: bez meldunku do 120, albo 120 plus meldunki w ręce, albo zawsze do 360.",
  },
  {
    key: "meld_first_trick",
    id: "V3",
    name: "Meldunek w pierwszej lewie",
    values: [
      [true, "tak"],
      [false, "nie"],
    ],
    help: "Czy król albo dama zagrane w pierwszej lewie rozdania meldują.",
  },
  {
    key: "meld_needs_trick",
    id: "V4",
    name: "Meldunek liczy się z lewą",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Czy punkty za meldunek liczą się tylko graczowi, który wziął choć jedną lewę.",
  },
  {
    key: "rounding",
    id: "V5",
    name: "Zaokrąglanie",
    values: [
      ["10", "do 10 w górę od 5"],
      ["10_down", "do 10, piątka w dół"],
      ["5", "do 5"],
      ["none", "bez zaokrąglania"],
    ],
    help: "Jak zaokrągla się punkty przeciwników rozgrywającego (45 → 50, 40 albo 45).",
  },
  {
    key: "mus",
    id: "V6",
    name: "Musik za 100 (mus)",
    values: [
      [true, "tak"],
      [false, "nie"],
    ],
    help: "Czy gracz po rozdającym musi grać za 100, gdy wszyscy spasują. Bez musu: wszyscy pasują, rozdanie przepada.",
  },
  {
    key: "bomb",
    id: "V7",
    name: "Bomba (rozpisanie)",
    values: [
      ["off", "nie"],
      ["penalty", "za karę"],
      ["free", "raz na grę, bez kary"],
    ],
    help: "Rozgrywający może zrezygnować z gry po wzięciu musiku: za karę (minus licytacja, rywale po połowie) albo raz na grę za darmo (rywale po 60).",
  },
  {
    key: "bolts",
    id: "V8",
    name: "Błoty",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Rozdanie bez wziętej lewy to błot; trzeci błot kosztuje 120 punktów.",
  },
  {
    key: "dump_555",
    id: "V9",
    name: "555 na zero",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Kto ma dokładnie 555 albo −555 punktów, spada do zera.",
  },
  {
    key: "barrel",
    id: "V10",
    name: "Beczka",
    values: [
      ["800", "od 800"],
      ["880", "880, trzy próby"],
    ],
    help: "Od 800 punktów gra się tylko na ugraną; albo beczka przy 880 z trzema próbami i jednym graczem na beczce.",
  },
  {
    key: "open_musik",
    id: "V11",
    name: "Odkryty musik dla dwóch",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "W grze we dwóch wybrany musik widzi też przeciwnik.",
  },
  {
    key: "ace_marriage",
    id: "V12",
    name: "Cztery asy",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Cztery asy w ręce to meldunek za 200 (bez zmiany atutu).",
  },
  {
    key: "redeal",
    id: "V13",
    name: "Ponowne rozdanie",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Przy słabych kartach (mniej niż 13 punktów, cztery dziewiątki albo walety) albo słabym musiku można poprosić o nowe rozdanie.",
  },
  {
    key: "blind",
    id: "V14",
    name: "Gra w ciemno",
    values: [
      [false, "nie"],
      [true, "tak"],
    ],
    help: "Gracz na musie może grać za 120 bez oglądania kart: ugrane +240, nieugrane −240 (3 i 4 graczy).",
  },
];

export const DEFAULTS = Object.fromEntries(OPTIONS.map((o) => [o.key, o.values[0][0]]));

export const PRESETS = [
  { key: "standard", name: "Zwykłe", help: "Zasady z opisu gry, bez dodatków.", options: {} },
  {
    key: "bombs",
    name: "Z bombą i błotami",
    help: "Bomba za karę, błoty, 555 na zero.",
    options: { bomb: "penalty", bolts: true, dump_555: true },
  },
  {
    key: "barrel880",
    name: "Beczka 880",
    help: "Beczka przy 880 z trzema próbami, licytacja co 5.",
    options: { barrel: "880", bid_step: 5 },
  },
  { key: "custom", name: "Własne", help: "Wybierz każdą zasadę osobno.", options: null },
];

/** The options that differ from the defaults, as "Krok licytacji: co 5" lines. */
export function changedOptions(options) {
  return OPTIONS.filter(
    (o) => options && options[o.key] !== undefined && options[o.key] !== DEFAULTS[o.key],
  ).map((o) => ({
    ...o,
    value: o.values.find(([v]) => v === options[o.key])?.[1] ?? String(options[o.key]),
  }));
}

/** One line for the table: "Zasady: zwykłe" or "Zasady: krok licytacji co 5, błoty". */
export function optionsLine(options) {
  const changed = changedOptions(options);
  if (!changed.length) return "Zasady: zwykłe";
  // A yes-or-no rule is named alone; another with its value.
  const yesNo = (o) => o.values.length === 2 && o.values[1][1] === "tak";
  const named = (o) => (yesNo(o) ? o.name : `${o.name.toLowerCase()} ${o.value}`);
  return `Zasady: ${changed.map(named).join(", ")}`;
}
