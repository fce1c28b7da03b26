// The table options (house rules V1-V16) as players read them: a name, the values with
// their names, one line of explanation, and the presets of the create form. The options,
// their values and the presets are the server's (rules/options.py, via /api/site); their
// names are the catalogue's (option.<key>.name, .help, .value.<value>, preset.<key>.name,
// .help, .where).
import { site } from "./site.js";
import { t } from "./words.js";

const valueKey = (value) => String(value);

/** [{key, id, name, help, values: [[value, name]…], valueIds}], default value first;
 * valueIds: the values with an id of their own ({off: "V16"} for the barrel, V10). */
export const OPTIONS = (site?.options ?? []).map((o) => ({
  key: o.key,
  id: o.id,
  name: t(`option.${o.key}.name`),
  help: t(`option.${o.key}.help`),
  values: o.values.map((value) => [value, t(`option.${o.key}.value.${valueKey(value)}`)]),
  valueIds: o.value_ids ?? {},
}));

export const DEFAULTS = Object.fromEntries((site?.options ?? []).map((o) => [o.key, o.default]));

/** The id a value of an option goes by: its own (barrel "off": V16), else the option's. */
export const valueId = (option, value) => option.valueIds[valueKey(value)] ?? option.id;

/** [{key, name, options, help?, where?}]: options null for "custom" (each chosen). A preset
 * that sets options is told by where its tables play (.where); the others by .help. */
export const PRESETS = (site?.presets ?? [{ key: "standard", options: {} }]).map((p) => {
  const sets = p.options && Object.keys(p.options).length > 0;
  return {
    key: p.key,
    name: t(`preset.${p.key}.name`),
    options: p.options,
    help: sets ? null : t(`preset.${p.key}.help`),
    where: p.options ? t(`preset.${p.key}.where`) : null,
  };
});

/** Every option's value under a preset's options (or any options object): the defaults
 * with its own on top. */
export const withDefaults = (options) => ({ ...DEFAULTS, ...(options ?? {}) });

/** The named preset whose every value is `options`' (which are complete), or null. */
export function presetOf(options) {
  return (
    PRESETS.find(
      (p) =>
        p.options &&
        OPTIONS.every((o) => withDefaults(p.options)[o.key] === withDefaults(options)[o.key]),
    ) ?? null
  );
}

/** A preset's options as "Krok licytacji: co 5 · Błoty: tak" items: [{option, value}]. */
export const presetItems = (preset) => changedOptions(withDefaults(preset.options));

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
