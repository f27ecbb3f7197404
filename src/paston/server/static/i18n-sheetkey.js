// The words that say which number of a score sheet's cell is what (the table's sheet,
// sheet.js, and the sheet of a game with real cards, scoresheet.js): a key above the
// sheet, and each number named for screen readers; merged into MESSAGES by i18n.js.

export const en = {
  sheetKeyScore: "the deal's score",
  sheetKeyTotal: "the total after it",
  sheetSrScore: "deal score",
  sheetSrTotal: "total",
};

export const hy = {
  sheetKeyScore: "բաժանման միավորները",
  sheetKeyTotal: "ընդհանուր հաշիվը դրանից հետո",
  sheetSrScore: "բաժանման միավորներ",
  sheetSrTotal: "ընդհանուր հաշիվ",
};

export const ru = {
  sheetKeyScore: "очки за сдачу",
  sheetKeyTotal: "итог после неё",
  sheetSrScore: "очки за сдачу",
  sheetSrTotal: "итог",
};

export const es = {
  sheetKeyScore: "los puntos de la mano",
  sheetKeyTotal: "el total tras ella",
  sheetSrScore: "puntos de la mano",
  sheetSrTotal: "total",
};

export const ja = {
  sheetKeyScore: "そのディールの得点",
  sheetKeyTotal: "その時点の累計",
  sheetSrScore: "ディールの得点",
  sheetSrTotal: "累計",
};
