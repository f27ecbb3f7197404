// Optional sounds at the table (issue 23 §1), off unless chosen: a soft tap for a card
// played, two rising notes for a trick taken, a bell for this seat's turn. Made on the
// spot with the Web Audio API (nothing to download); while the switch is off no audio
// context is ever created. The switch sits in the header beside the four-colour deck's,
// remembered by the browser.
import { onLanguage } from "./chrome.js";
import { el } from "./dom.js";
import { t } from "./text.js";

const KEY = "paston-sounds";
let audio = null; // the AudioContext, made the first time a sound is played with the switch on

/** Whether this browser chose sounds (off by default). */
export function soundsOn() {
  return localStorage.getItem(KEY) === "1";
}

function context() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Each sound as notes: [frequency in Hz, start and length in seconds, wave]. */
const NOTES = {
  card: [[420, 0, 0.05, "triangle"]],
  trick: [[523, 0, 0.09, "sine"], [784, 0.08, 0.14, "sine"]],
  turn: [[880, 0, 0.12, "sine"], [1319, 0.1, 0.18, "sine"]],
};

/** Play ``kind`` (card, trick, turn), only when the switch is on. */
export function playSound(kind) {
  if (!soundsOn() || !NOTES[kind]) return;
  const ctx = context();
  if (!ctx) return;
  for (const [freq, at, length, wave] of NOTES[kind]) {
    const start = ctx.currentTime + at;
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = wave;
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    tone.connect(gain);
    gain.connect(ctx.destination);
    tone.start(start);
    tone.stop(start + length + 0.02);
  }
}

const plays = (v) => v.history.filter((h) => h.type === "play").length;

/** The sounds of the change from ``before`` to ``after`` (two table states): a card
 * played, a trick taken. The turn's bell is rung by the page's turn cue (app.js). */
export function tableSounds(before, after) {
  if (!before || !after || before.version === after.version || before.sheet.length !== after.sheet.length) return;
  const b = before.view, a = after.view;
  if (a.history.length < b.history.length) return; // a new deal
  if (plays(a) > plays(b)) playSound("card");
  if (a.tricks.reduce((x, y) => x + y, 0) > b.tricks.reduce((x, y) => x + y, 0)) playSound("trick");
}

function label() {
  const text = document.querySelector("label[for=sounds] .sound-text");
  if (text) text.textContent = t("sounds");
}

/** Put the switch in the header. Turning it on (a click: browsers let a page start its
 * audio then) makes the audio context at once. */
export function installSoundOption() {
  if (document.getElementById("sounds")) return;
  const box = el("input", {
    type: "checkbox", id: "sounds", "data-testid": "sounds", checked: soundsOn(),
    onchange: (e) => {
      localStorage.setItem(KEY, e.target.checked ? "1" : "0");
      if (e.target.checked) context();
    },
  });
  const option = el("span", { class: "sound-option" }, box, el("label", { for: "sounds" },
    el("span", { class: "sound-text" }), el("span", { class: "sound-icon", "aria-hidden": "true" }, "♪")));
  const deck = document.querySelector(".deck-option");
  if (deck) deck.after(option);
  else document.querySelector("header").append(option);
  label();
  onLanguage(label);
}
