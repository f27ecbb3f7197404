// Strings of the card table's design (issue 23 §1): the seats' roles in the play and the
// sounds switch (sounds.js); merged into MESSAGES by i18n.js. Every language has exactly
// the keys of English (tests/test_i18n_keys.py).

export const en = {
  roleWhister: "whister",
  roleOut: "passed",
  sounds: "Sounds",
};

export const hy = {
  roleWhister: "վիստ խաղացող",
  roleOut: "պաս",
  sounds: "Ձայներ",
};

export const ru = {
  roleWhister: "вистующий",
  roleOut: "пас",
  sounds: "Звуки",
};

export const es = {
  roleWhister: "defensor",
  roleOut: "pasó",
  sounds: "Sonidos",
};

export const ja = {
  roleWhister: "守り手",
  roleOut: "パス",
  sounds: "効果音",
};
