import { en } from "./i18n-base-en.js";
import { hy } from "./i18n-base-hy.js";
import { ru } from "./i18n-base-ru.js";
import { es } from "./i18n-base-es.js";
import { ja } from "./i18n-base-ja.js";
import * as hint from "./i18n-hint.js";
import * as end from "./i18n-end.js";
import * as replay from "./i18n-replay.js";
import * as learn from "./i18n-learn.js";
import * as access from "./i18n-access.js";
import * as infer from "./i18n-infer.js";
import * as analysis from "./i18n-analysis.js";
import * as amu from "./i18n-amu.js";
import * as score from "./i18n-score.js";
import * as fair from "./i18n-fair.js";
import * as scoresheet from "./i18n-scoresheet.js";
import * as course from "./i18n-course.js";
import * as sheetkey from "./i18n-sheetkey.js";
import * as table from "./i18n-table.js";
import * as terminal from "./i18n-terminal.js";

// Every string the Paston client shows, per language: the common ones (i18n-base-*.js,
// one file per language) and each feature's (i18n-*.js). The game's own words
// (GAME_WORDS: the ladder paston, glitch, dineri, gupa, paston grkha, then prikup and
// whist) are not translated but written in each language's script: Armenian and
// Russian spell them as they sound (пастон, գուպա), Russian uses its standard
// Preference words прикуп and вист (docs/rules-decisions.md L7). text.js's GAME gives
// the words of the language shown. Placeholders are written {name}; format() fills them in.

const LATIN = Object.freeze({
  brand: "Paston",
  spades: "paston",
  clubs: "glitch",
  diamonds: "dineri",
  hearts: "gupa",
  "best-spades": "paston grkha",
  prikup: "prikup",
  whist: "whist",
});

/** The game's vocabulary in each language's script. */
export const GAME_WORDS = Object.freeze({
  en: LATIN,
  es: LATIN,
  ja: LATIN,
  hy: Object.freeze({
    brand: "Պաստոն",
    spades: "պաստոն",
    clubs: "գլիչ",
    diamonds: "դիների",
    hearts: "գուպա",
    "best-spades": "պաստոն գրխա",
    prikup: "պրիկուպ",
    whist: "վիստ",
  }),
  ru: Object.freeze({
    brand: "Пастон",
    spades: "пастон",
    clubs: "глитч",
    diamonds: "динери",
    hearts: "гупа",
    "best-spades": "пастон грха",
    prikup: "прикуп",
    whist: "вист",
  }),
});

/** The languages of the picker, each in its own words. */
export const LANGUAGES = Object.freeze({
  en: "English",
  hy: "Հայերեն",
  ru: "Русский",
  es: "Español",
  ja: "日本語",
});

const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/** Fill ``{placeholders}`` of a template from ``params``, and choose plural forms:
 * ``{n, plural, one {# trick} other {# tricks}}`` takes the form of ``params.n``'s
 * plural category in ``lang`` (Intl.PluralRules: Russian has one, few, many…; ``=0``
 * matches an exact number), ``#`` standing for the number. */
export function format(template, params = {}, lang = "en") {
  const chosen = template.replace(PLURAL, (whole, key, forms) => {
    if (!(key in params)) return whole;
    const n = Number(params[key]);
    const options = {};
    for (const m of forms.matchAll(PLURAL_FORM)) options[m[1]] = m[2];
    const form = options[`=${n}`] ?? options[new Intl.PluralRules(lang).select(n)] ?? options.other ?? "";
    return form.replace(/#/g, String(params[key]));
  });
  return chosen.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** The strings of the features that keep their own files (i18n-*.js). */
const FEATURES = [hint, end, replay, learn, access, analysis, infer, amu, score, fair, scoresheet, course, sheetkey, table, terminal];

/** One language's strings: the common ones, then each feature's. */
function merged(lang, common) {
  return Object.assign({}, common, ...FEATURES.map((f) => f[lang]));
}

/** Each language's strings; every language has exactly the keys of English. */
export const MESSAGES = Object.freeze({
  en: merged("en", en), hy: merged("hy", hy), ru: merged("ru", ru), es: merged("es", es), ja: merged("ja", ja),
});
