// Strings of the infer computer player (issue 13 §1), per language; merged into MESSAGES by i18n.js.
// Every language has exactly the keys of English (the browser tests check it).

export const en = {
  bot_infer: "strong, reads the bidding, level {level}",
};

export const hy = {
  bot_infer: "ուժեղ, կարդում է սակարկությունը, մակարդակ {level}",
};

export const ru = {
  bot_infer: "сильный, читает торговлю, уровень {level}",
};

export const es = {
  bot_infer: "fuerte, lee la subasta, nivel {level}",
};

export const ja = {
  bot_infer: "強い・ビッドを読む、レベル {level}",
};
