// The page around the views: the header (brand, language picker), the status line,
// announcements for screen readers, and re-rendering the current view with the focus kept.
import { LANGUAGES } from "./i18n.js";
import { el } from "./dom.js";
import { GAME, errorText, language, setLanguage, t } from "./text.js";

/** Where the views draw. */
export const app = document.getElementById("app");
const statusEl = document.getElementById("status");
const headerEl = document.querySelector("header");
let statusKey = null, statusParams = {}, statusError = false;
let draw = () => {};

/** Show the status line's string ``key`` (none when null); kept across language changes. */
export function say(key, params = {}, error = false) {
  statusKey = key;
  statusParams = params;
  statusError = error;
  statusEl.textContent = key ? t(key, params) : "";
  statusEl.className = error ? "error" : "";
}

/** The status line's string key now (null when empty). */
export function saying() {
  return statusKey;
}

/** Show an error from the server (or of the page) on the status line. */
export function showError(code, message) {
  say("errShown", { text: errorText(code, message) }, true);
}

let announced = null; // what the announcement says: a string, or a function giving it in the language shown
const languageHooks = [];

/** Run ``fn`` after every change of language (for words kept outside the views). */
export function onLanguage(fn) {
  languageHooks.push(fn);
}

/** Tell screen readers (a live region that stays in place across re-renders); ``text``
 * may be a function, called again in the new language when the language changes. */
export function announce(text) {
  let region = document.getElementById("announce");
  if (!region) {
    region = el("div", { id: "announce", class: "sr-only", "aria-live": "assertive" });
    headerEl.append(region); // in the banner: the page's content stays in its landmarks
  }
  announced = text;
  region.textContent = typeof text === "function" ? text() : text;
}

/** The header and the page's language, title and status in the language chosen. */
export function applyChrome() {
  const lang = language();
  document.documentElement.lang = lang;
  document.title = t("pageTitle", { game: GAME.brand });
  const brand = document.querySelector(".brand");
  brand.textContent = `${GAME.brand} ♠`;
  brand.setAttribute("aria-label", t("toLobby", { game: GAME.brand }));
  let picker = document.getElementById("lang");
  if (!picker) {
    picker = el("select", {
      id: "lang", "data-testid": "lang",
      onchange: (e) => {
        setLanguage(e.target.value);
        applyChrome();
        if (typeof announced === "function") announce(announced);
        for (const hook of languageHooks) hook();
        rerender();
      },
    });
    const label = el("label", { for: "lang", class: "lang-label" });
    headerEl.append(el("span", { class: "lang-picker" }, label, picker));
  }
  picker.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", { value: code, lang: code, selected: code === lang }, name)));
  picker.value = lang;
  document.querySelector("label.lang-label").textContent = t("language");
  if (statusKey) say(statusKey, statusParams, statusError);
}

// --- re-rendering, the focus kept ---------------------------------------------------------------
function focusKey(node) {
  if (!node || node === document.body || !app.contains(node)) return null;
  for (const attr of ["data-card", "data-action", "data-testid", "id"]) {
    const v = node.getAttribute(attr);
    if (v) return `${node.localName}[${attr}="${CSS.escape(v)}"]`; // a hand's button, not the prikup's figure
  }
  return null;
}

let playFocus = false; // the keyboard was last used on the cards or action buttons

function focusPlayArea() {
  const usable = ":not([disabled]):not([aria-disabled=true])";
  // else the hand's tab stop: the keyboard stays in the hand while the others play
  const next = app.querySelector(`.hand button${usable}, .actions button${usable}`) || app.querySelector(".hand button[tabindex='0']");
  if (next) next.focus({ preventScroll: true });
}

function withFocusKept(render) {
  const active = document.activeElement;
  const key = focusKey(active);
  const wasInPlayArea = Boolean(active && active.closest && active.closest(".hand, .actions"));
  if (active && active !== document.body) playFocus = wasInPlayArea;
  const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  render();
  if (!key) {
    // Focus was lost when the cards went away (a card played): back on the cards when it is our turn.
    if (playFocus && document.activeElement === document.body) focusPlayArea();
    return;
  }
  const again = app.querySelector(key);
  if (again && !again.disabled) {
    again.focus({ preventScroll: true });
    if (caret && "setSelectionRange" in again) {
      try { again.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ }
    }
  } else if (wasInPlayArea) {
    focusPlayArea();
  }
}

/** Set what draws the current view (the lobby, a table or the replay). */
export function setView(render) {
  draw = render;
}

/** Draw the current view again (after a change of state or language), keeping the focus. */
export function rerender() {
  withFocusKept(draw);
}
