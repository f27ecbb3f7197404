// Strings of table flow and accessibility: the live log, card names, four colours (issue 12 §6–7), per language; merged into MESSAGES by i18n.js.
// Every language has exactly the keys of English (the browser tests check it).

export const en = {};
export const hy = {};
export const ru = {};
export const es = {};
export const ja = {};
