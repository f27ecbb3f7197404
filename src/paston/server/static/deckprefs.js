// The four-colour deck (issue 12 §7): ♣ green and ♦ blue besides ♠ black and ♥ red, for
// those who cannot tell red from black (about 2:1 for protanopia); a switch in the
// header, remembered by the browser.
import { onLanguage } from "./chrome.js";
import { el } from "./dom.js";
import { t } from "./text.js";

const KEY = "paston-four-colour";

function apply(on) {
  document.documentElement.classList.toggle("four-colour", on);
}

function label() {
  const text = document.querySelector("label[for=four-colour] .deck-text");
  if (text) text.textContent = t("fourColour");
}

/** Put the switch in the header and show the cards as chosen last time. */
export function installDeckOption() {
  const on = localStorage.getItem(KEY) === "1";
  apply(on);
  if (document.getElementById("four-colour")) return;
  const box = el("input", {
    type: "checkbox", id: "four-colour", "data-testid": "four-colour", checked: on,
    onchange: (e) => { localStorage.setItem(KEY, e.target.checked ? "1" : "0"); apply(e.target.checked); },
  });
  const picker = document.querySelector(".lang-picker");
  // on a phone the words give way to the two suits they recolour (still the switch's name)
  const option = el("span", { class: "deck-option" }, box, el("label", { for: "four-colour" },
    el("span", { class: "deck-text" }), el("span", { class: "deck-icon", "aria-hidden": "true" },
      el("span", { class: "c" }, "♣"), el("span", { class: "d" }, "♦"))));
  if (picker) picker.before(option);
  else document.querySelector("header").append(option);
  label();
  onLanguage(label);
}
