// Who sits at a table: the computer players, their levels and the rule switches as the
// server lists them (GET /api/meta), their names in words, and each seat's name and colour.
import { api } from "./api.js";
import { has, t } from "./text.js";

/** One colour per seat, everywhere a seat is shown. */
export const SEAT_COLORS = ["#f5c542", "#5ec8f2", "#f27ea9"];

let meta = null;
let byName = {};

/** Fetch the players, levels, rule switches and presets once; later calls reuse them. */
export async function loadMeta() {
  if (!meta) {
    meta = await api("/api/meta");
    byName = Object.fromEntries(meta.players.map((p) => [p.name, p]));
  }
  return meta;
}

/** What GET /api/meta returned (null until loaded, or when it could not be). */
export function getMeta() {
  return meta;
}

/** ``"pimc:4"`` → ``{name: "pimc", level: 4}``; a missing level is the player's default. */
function parseChoice(choice) {
  const [name, levelText] = String(choice || "").split(":");
  const level = levelText ? Number(levelText) : byName[name]?.default_level ?? null;
  return { name, level };
}

/** A computer player in words ("strong, level 4"); a player with no translation is
 * shown by its name. */
export function botLabel(choice) {
  const { name, level } = parseChoice(choice);
  const key = `bot_${name}`;
  if (!has(key)) return level === null ? name : `${name} ${level}`;
  const bare = t(key);
  if (level === null) return bare.includes("{level}") ? name : bare;
  const label = t(key, { level });
  return label === bare ? `${label} (${level})` : label; // a level the translation does not mention
}

/** What a computer player does, in the server's words (for a tooltip); "" when unknown. */
export function botDescription(choice) {
  return byName[parseChoice(choice).name]?.description ?? "";
}

/** The seat choices of the create-table form: a person, then every computer player at
 * every level, as the server lists them. A leveled player's bare name (its default
 * level) is not listed twice. Each ``{value, label, title}``. */
export function seatChoices() {
  const out = [{ value: "human", label: t("person"), title: null }];
  for (const choice of meta ? meta.player_choices : []) {
    const [name, levelText] = choice.split(":");
    if (levelText === undefined && byName[name]?.levels.length) continue;
    out.push({ value: choice, label: t("botChoice", { bot: botLabel(choice) }), title: botDescription(choice) });
  }
  return out;
}

/** The choice preselected for a computer seat: the strongest player (the server lists
 * them weakest first) at its default level; a person when there are none. */
export function defaultComputer() {
  const players = meta ? meta.players : [];
  if (!players.length) return "human";
  const best = players[players.length - 1];
  return best.default_level === null ? best.name : `${best.name}:${best.default_level}`;
}

/** A seat's name: the person's, "Computer 2", or "Seat 1" while free. */
export function seatDisplayName(s) {
  if (s.kind === "bot") return t("computerN", { n: s.seat + 1 });
  return s.taken ? s.name : t("seatN", { n: s.seat + 1 });
}

/** Every seat's name at a table, by seat. */
export function seatNames(table) {
  return table.seats.map(seatDisplayName);
}
