// Strings of the Learn to play page and the guided first deal (issue 12 §5), per language; merged into MESSAGES by i18n.js.
// Every language has exactly the keys of English (the browser tests check it); each
// language's strings live in learn-<lang>.js to keep the files short.
import enStrings from "./learn-en.js";
import hyStrings from "./learn-hy.js";
import ruStrings from "./learn-ru.js";
import esStrings from "./learn-es.js";
import jaStrings from "./learn-ja.js";

export const en = enStrings;
export const hy = hyStrings;
export const ru = ruStrings;
export const es = esStrings;
export const ja = jaStrings;
