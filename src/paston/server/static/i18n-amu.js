// Strings of the amu computer player (issue 13 §2: αμ search for the declarer), per language;
// merged into MESSAGES by i18n.js. Every language has exactly the keys of English.

export const en = {
  bot_amu: "strong, plans the declarer's play ahead, level {level}",
};

export const hy = {
  bot_amu: "ուժեղ, նախապես ծրագրում է խաղացողի խաղը, մակարդակ {level}",
};

export const ru = {
  bot_amu: "сильный, за играющего планирует розыгрыш наперёд, уровень {level}",
};

export const es = {
  bot_amu: "fuerte, como declarante planea el carteo por adelantado, nivel {level}",
};

export const ja = {
  bot_amu: "強い・宣言者のプレイを先読み、レベル {level}",
};
