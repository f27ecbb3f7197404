// Strings of the end-of-deal panel and the analysis (issue 12 §2–3), per language; merged into MESSAGES by i18n.js.
// Every language has exactly the keys of English (the browser tests check it).

export const en = {};
export const hy = {};
export const ru = {};
export const es = {};
export const ja = {};
