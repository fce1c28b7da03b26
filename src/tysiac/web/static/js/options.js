// The table options (house rules V1-V14) as players read them: a name, the values with
// their names, one line of explanation, and the presets of the create form. The options,
// their values and the presets are the server's (rules/options.py, via /api/site); their
// names are the catalogue's (option.<key>.name, .help, .value.<value>, preset.<key>.name).
import { site } from "./site.js";
import { t } from "./words.js";

const valueKey = (value) => String(value);

/** [{key, id, name, help, values: [[value, name]…]}], default value first. */
export const OPTIONS = (site?.options ?? []).map((o) => ({
  key: o.key,
  id: o.id,
  name: t(`option.${o.key}.name`),
  help: t(`option.${o.key}.help`),
  values: o.values.map((value) => [value, t(`option.${o.key}.value.${valueKey(value)}`)]),
}));

export const DEFAULTS = Object.fromEntries((site?.options ?? []).map((o) => [o.key, o.default]));

/** [{key, name, help, options}]: options null for "custom" (each chosen). */
export const PRESETS = (site?.presets ?? [{ key: "standard", options: {} }]).map((p) => ({
  key: p.key,
  name: t(`preset.${p.key}.name`),
  help: t(`preset.${p.key}.help`),
  options: p.options,
}));

/** "co 10 (zwykle)": a value's name marked as the default. */
export const defaultMarked = (name) => t("options.default", { value: name });

/** The options that differ from the defaults, as "Krok licytacji: co 5" lines. */
export function changedOptions(options) {
  return OPTIONS.filter(
    (o) => options && options[o.key] !== undefined && options[o.key] !== DEFAULTS[o.key],
  ).map((o) => ({
    ...o,
    value: o.values.find(([v]) => v === options[o.key])?.[1] ?? String(options[o.key]),
  }));
}

/** One line for the table: "Zasady: zwykłe" or "Zasady: krok licytacji co 5, błoty". A yes/no
 * option switched on shows by its name alone. */
export function optionsLine(options) {
  const changed = changedOptions(options);
  if (!changed.length) return t("options.line.standard");
  const shown = changed.map((o) =>
    options[o.key] === true
      ? o.name
      : t("options.line.value", { option: o.name.toLowerCase(), value: o.value }),
  );
  return t("options.line", { changed: shown.join(", ") });
}
