// Words on the page: the language chosen, translated strings (from i18n.js), the game's
// own words for contracts and actions, and numbers with a true minus sign.
import { GAME_WORDS, MESSAGES, format } from "./i18n.js";

const CONTRACT_SYMBOL = { spades: "♠", clubs: "♣", diamonds: "♦", hearts: "♥", "best-spades": "♠★" };
const LANG_KEY = "paston-lang";

function initialLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && MESSAGES[saved]) return saved;
  for (const wanted of navigator.languages || []) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (MESSAGES[code]) return code;
  }
  return "en";
}

let lang = initialLanguage();

/** The game's own words in the language shown now (GAME.whist is "whist" in English,
 * "вист" in Russian): each property reads the current language. */
export const GAME = Object.freeze(Object.defineProperties({}, Object.fromEntries(
  Object.keys(GAME_WORDS.en).map((key) => [key, { enumerable: true, get: () => GAME_WORDS[lang][key] }]))));
/** The language shown now: "en", "hy", "ru", "es" or "ja". */
export function language() {
  return lang;
}

/** Show ``code`` from now on, and remember it for the next visit. */
export function setLanguage(code) {
  if (!MESSAGES[code]) return;
  lang = code;
  localStorage.setItem(LANG_KEY, code);
}

/** Whether a string ``key`` exists (in English, so in every language). */
export function has(key) {
  return MESSAGES.en[key] !== undefined;
}

/** The translated string ``key`` with ``{placeholders}`` filled in. */
export function t(key, params = {}) {
  const text = MESSAGES[lang][key] ?? MESSAGES.en[key];
  if (text === undefined) {
    console.warn(`missing string ${key}`);
    return key;
  }
  return format(text, params, lang);
}

/** A contract in the ladder's words, with its suit symbol: "gupa ♥". */
export function word(contract) {
  return `${GAME[contract]} ${CONTRACT_SYMBOL[contract]}`;
}

/** An action ("bid hearts", "whist", "pass"…) as the buttons and the replay name it. */
export function actionLabel(a) {
  const [kind, value] = a.split(" ");
  if (kind === "bid") return t("bidWord", { contract: word(value) });
  if (kind === "trump") return t("trumpWord", { contract: word(value) });
  if (kind === "whist") return GAME.whist;
  if (kind === "pass") return t("pass");
  if (kind === "surrender") return t("surrender");
  return a;
}

/** A number with a true minus sign. */
export function num(x) {
  return x < 0 ? `−${-x}` : String(x);
}

/** A score change: "+4", "0", "−10". */
export function signed(x) {
  return x > 0 ? `+${x}` : num(x);
}

/** An error from the server in words: its own translation when there is one. */
export function errorText(code, message) {
  const key = `err_${code}`;
  if (has(key)) return t(key);
  return t("errGeneric", { message: message || code });
}
