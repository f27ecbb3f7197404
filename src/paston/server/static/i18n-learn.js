// Strings of the Learn to play page and the guided first deal (issue 12 §5), per language; merged into MESSAGES by i18n.js.
// Every language has exactly the keys of English (the browser tests check it).

export const en = {};
export const hy = {};
export const ru = {};
export const es = {};
export const ja = {};
