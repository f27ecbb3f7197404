// The Learn page's course (GET /api/lessons, paston.server.lessons): curated deals, each
// teaching one idea, played at a private lesson table against two computer players with
// the coach and the hint beside it. Progress stays in this browser (localStorage): the
// lessons done, the next one offered, and a button to start over.
import { api } from "./api.js";
import { rerender, showError } from "./chrome.js";
import { el } from "./dom.js";
import { rememberSeat, savedName, seatToken } from "./live.js";
import { GAME, t } from "./text.js";

const KEY = "paston-course";
const BOT = "heuristic"; // the lesson tables' computer players (paston.server.lessons.rehearse.LESSON_BOT)

let lessons = null; // GET /api/lessons, once
let starting = null; // the lesson being set up

/** A lesson's title or idea (``part``) in the language shown, with the game's words. */
export function lessonText(id, part) {
  return t(`lesson_${id}_${part}`, { whist: GAME.whist, prikup: GAME.prikup });
}

/** The lessons done in this browser (ids). */
export function doneLessons() {
  try {
    const got = JSON.parse(localStorage.getItem(KEY) || "{}");
    return Array.isArray(got.done) ? got.done.filter((x) => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Mark a lesson done (kept in this browser). */
export function markDone(id) {
  const done = doneLessons();
  if (!done.includes(id)) localStorage.setItem(KEY, JSON.stringify({ done: [...done, id] }));
}

function startOver() {
  localStorage.removeItem(KEY);
  rerender();
}

/** The course (fetched once); null until it is here. */
export function courseList() {
  return lessons;
}

/** Fetch the course once; ``then`` runs when it is here. */
export async function loadCourse(then = () => {}) {
  if (lessons) return lessons;
  try {
    lessons = await api("/api/lessons");
    then(lessons);
  } catch (err) {
    showError(err.code, err.message);
  }
  return lessons;
}

/** The lesson after ``id`` in the course (null after the last), or the first not done. */
export function nextLesson(id = null) {
  if (!lessons) return null;
  if (id !== null) {
    const i = lessons.findIndex((l) => l.id === id);
    return i >= 0 && i + 1 < lessons.length ? lessons[i + 1] : null;
  }
  const done = doneLessons();
  return lessons.find((l) => !done.includes(l.id)) || null;
}

/** Close a lesson's table (it is private: the server forgets it), then go to ``href`` (if any). */
export async function leaveLesson(tableId, href) {
  const token = seatToken(tableId);
  if (token) {
    try {
      await api(`/api/tables/${tableId}/leave`, { token });
    } catch { /* gone already: the server forgets idle lesson tables by itself */ }
  }
  if (href) location.href = href;
}

/** Set up the table of lesson ``id`` (private, this browser seated on seat 0) and open it. */
export async function startLesson(id) {
  if (starting) return;
  starting = id;
  rerender();
  const bot = { kind: "bot", bot: BOT };
  const name = savedName() || t("learn_playerName");
  const body = { name: lessonText(id, "title"), seats: [{ kind: "human" }, bot, bot], lesson: id, creator: { seat: 0, name } };
  try {
    const made = await api("/api/tables", body);
    rememberSeat(made.id, made.token);
    location.href = `${made.invite}?coach=1`;
  } catch (err) {
    starting = null;
    showError(err.code, err.message);
    rerender();
  }
}

/** The course as the Learn page shows it: each lesson with its idea and a done mark,
 * the next one offered first, and "start over". */
export function courseView() {
  if (!lessons) return el("p", { class: "muted" }, t("learn_loading"));
  const done = doneLessons();
  const next = nextLesson();
  const count = lessons.filter((l) => done.includes(l.id)).length;
  return el("div", { class: "course", "data-testid": "course" },
    el("p", { "data-testid": "course-progress" }, t("course_progress", { done: count, n: lessons.length })),
    next ? el("p", {}, el("button", {
      type: "button", class: "primary", "data-testid": "start-practice", "data-lesson": next.id,
      disabled: starting !== null, onclick: () => startLesson(next.id),
    }, starting ? t("learn_starting") : t("course_next", { n: next.number, title: lessonText(next.id, "title") })))
      : el("p", { "data-testid": "course-finished" }, t("course_finished")),
    el("ol", { class: "course-list" }, lessons.map((l) => {
      const isDone = done.includes(l.id);
      return el("li", { "data-testid": "lesson", "data-lesson": l.id, "data-done": String(isDone), class: isDone ? "done" : null },
        el("span", { class: "course-mark", "aria-hidden": "true" }, isDone ? "✓" : "○"),
        el("span", { class: "course-text" },
          el("strong", {}, lessonText(l.id, "title")),
          isDone ? el("span", { class: "sr-only" }, ` (${t("course_done")})`) : null,
          el("span", { class: "muted" }, ` — ${lessonText(l.id, "idea")}`)),
        el("button", {
          type: "button", class: "secondary", "data-testid": "lesson-start", disabled: starting !== null,
          "aria-label": `${t(isDone ? "course_again" : "course_start")}: ${lessonText(l.id, "title")}`,
          onclick: () => startLesson(l.id),
        }, t(isDone ? "course_again" : "course_start")));
    })),
    count ? el("p", {}, el("button", { type: "button", class: "secondary", "data-testid": "course-reset", onclick: startOver },
      t("course_startOver"))) : null);
}
