// The words of the R7 line behind each seat's score and of a deal's outcome (shown on the
// rule marks of the end-of-deal panel), per language; merged into MESSAGES by i18n.js.
// The keys are the engine's: scoreLine_<paston.scoring.LINE_WORDS key> and
// outcomeWords_<paston.result.Outcome value>; the English strings are the engine's own
// words (a test holds them equal), and every language has exactly the keys of English.

export const en = {
  "scoreLine_declarer-made": "declarer, {tricks} of the {needed} tricks needed: made, +10 × {m}",
  "scoreLine_declarer-failed": "declarer, {tricks} of the {needed} tricks needed: failed, -10 × {m}",
  "scoreLine_best-made": "declarer, {tricks} of the {needed} tricks needed: made best spades scores only +10",
  "scoreLine_best-failed": "declarer, {tricks} of the {needed} tricks needed: failed best spades, -10 × {m}",
  "scoreLine_uncontested-declarer": "uncontested: the declarer scores a made contract, +10 × {m}",
  "scoreLine_uncontested-best": "uncontested: the declarer scores a made contract, +10 (best spades)",
  "scoreLine_uncontested-opponent": "uncontested: an opponent scores 0",
  "scoreLine_defender": "defender (both whisted), {tricks} of the {needed} tricks needed: {base} × {m}",
  "scoreLine_lone-defender": "lone defender, {tricks} of the {needed} tricks needed: {base} × {m}",
  "scoreLine_lone-defender-flat": "lone defender, {tricks} of the {needed} tricks needed (flat table): {base} × {m}",
  "scoreLine_passer": "passed and did not play: 0",
  "scoreLine_surrendered": "surrendered: -10, no multiplier",
  "scoreLine_surrender-opponent": "the declarer surrendered: {bonus} to each opponent, no multiplier",
  "outcomeWords_played": "the contract was played out",
  "outcomeWords_uncontested": "both opponents passed: the declarer wins without play",
  "outcomeWords_surrender": "the declarer surrendered instead of naming trump",
};

export const hy = {
  "scoreLine_declarer-made": "հայտարարող, {tricks} վերցում՝ պահանջվող {needed}-ից. կատարված է, +10 × {m}",
  "scoreLine_declarer-failed": "հայտարարող, {tricks} վերցում՝ պահանջվող {needed}-ից. չկատարված, -10 × {m}",
  "scoreLine_best-made": "հայտարարող, {tricks} վերցում՝ պահանջվող {needed}-ից. կատարված պաստոն գրխան տալիս է միայն +10",
  "scoreLine_best-failed": "հայտարարող, {tricks} վերցում՝ պահանջվող {needed}-ից. չկատարված պաստոն գրխա, -10 × {m}",
  "scoreLine_uncontested-declarer": "առանց խաղի. հայտարարողը ստանում է կատարված պայմանագրի միավորները, +10 × {m}",
  "scoreLine_uncontested-best": "առանց խաղի. հայտարարողը ստանում է կատարված պայմանագրի միավորները, +10 (պաստոն գրխա)",
  "scoreLine_uncontested-opponent": "առանց խաղի. հակառակորդը ստանում է 0",
  "scoreLine_defender": "պաշտպան (երկուսն էլ վիստ ասացին), {tricks} վերցում՝ պահանջվող {needed}-ից. {base} × {m}",
  "scoreLine_lone-defender": "միայնակ պաշտպան, {tricks} վերցում՝ պահանջվող {needed}-ից. {base} × {m}",
  "scoreLine_lone-defender-flat": "միայնակ պաշտպան, {tricks} վերցում՝ պահանջվող {needed}-ից (հարթ աղյուսակ). {base} × {m}",
  "scoreLine_passer": "պաս ասաց և չխաղաց. 0",
  "scoreLine_surrendered": "հանձնվեց. -10, առանց բազմապատկչի",
  "scoreLine_surrender-opponent": "հայտարարողը հանձնվեց. {bonus} յուրաքանչյուր հակառակորդին, առանց բազմապատկչի",
  "outcomeWords_played": "պայմանագիրը խաղարկվեց մինչև վերջ",
  "outcomeWords_uncontested": "երկու հակառակորդներն էլ պաս ասացին. հայտարարողը շահում է առանց խաղի",
  "outcomeWords_surrender": "հայտարարողը հանձնվեց՝ հաղթաթուղթ չանվանելով",
};

export const ru = {
  "scoreLine_declarer-made": "разыгрывающий, {tricks} из {needed} нужных взяток: сыграно, +10 × {m}",
  "scoreLine_declarer-failed": "разыгрывающий, {tricks} из {needed} нужных взяток: недобор, -10 × {m}",
  "scoreLine_best-made": "разыгрывающий, {tricks} из {needed} нужных взяток: сыгранный пастон грха даёт только +10",
  "scoreLine_best-failed": "разыгрывающий, {tricks} из {needed} нужных взяток: недобор в пастон грха, -10 × {m}",
  "scoreLine_uncontested-declarer": "без игры: разыгрывающий получает как за сыгранный контракт, +10 × {m}",
  "scoreLine_uncontested-best": "без игры: разыгрывающий получает как за сыгранный контракт, +10 (пастон грха)",
  "scoreLine_uncontested-opponent": "без игры: противник получает 0",
  "scoreLine_defender": "вистующий (вистовали оба), {tricks} из {needed} нужных взяток: {base} × {m}",
  "scoreLine_lone-defender": "вистующий в одиночку, {tricks} из {needed} нужных взяток: {base} × {m}",
  "scoreLine_lone-defender-flat": "вистующий в одиночку, {tricks} из {needed} нужных взяток (ровная таблица): {base} × {m}",
  "scoreLine_passer": "спасовал и не играл: 0",
  "scoreLine_surrendered": "сдался: -10, без множителя",
  "scoreLine_surrender-opponent": "разыгрывающий сдался: {bonus} каждому противнику, без множителя",
  "outcomeWords_played": "контракт разыгран до конца",
  "outcomeWords_uncontested": "оба противника спасовали: разыгрывающий выигрывает без игры",
  "outcomeWords_surrender": "разыгрывающий сдался вместо того, чтобы назвать козырь",
};

export const es = {
  "scoreLine_declarer-made": "declarante, {tricks} de las {needed} bazas necesarias: cumplido, +10 × {m}",
  "scoreLine_declarer-failed": "declarante, {tricks} de las {needed} bazas necesarias: fallido, -10 × {m}",
  "scoreLine_best-made": "declarante, {tricks} de las {needed} bazas necesarias: paston grkha cumplido vale solo +10",
  "scoreLine_best-failed": "declarante, {tricks} de las {needed} bazas necesarias: paston grkha fallido, -10 × {m}",
  "scoreLine_uncontested-declarer": "sin jugar: el declarante anota un contrato cumplido, +10 × {m}",
  "scoreLine_uncontested-best": "sin jugar: el declarante anota un contrato cumplido, +10 (paston grkha)",
  "scoreLine_uncontested-opponent": "sin jugar: un rival anota 0",
  "scoreLine_defender": "defensor (ambos dijeron whist), {tricks} de las {needed} bazas necesarias: {base} × {m}",
  "scoreLine_lone-defender": "defensor único, {tricks} de las {needed} bazas necesarias: {base} × {m}",
  "scoreLine_lone-defender-flat": "defensor único, {tricks} de las {needed} bazas necesarias (tabla plana): {base} × {m}",
  "scoreLine_passer": "pasó y no jugó: 0",
  "scoreLine_surrendered": "se rindió: -10, sin multiplicador",
  "scoreLine_surrender-opponent": "el declarante se rindió: {bonus} para cada rival, sin multiplicador",
  "outcomeWords_played": "el contrato se jugó hasta el final",
  "outcomeWords_uncontested": "ambos rivales pasaron: el declarante gana sin jugar",
  "outcomeWords_surrender": "el declarante se rindió en lugar de nombrar triunfo",
};

export const ja = {
  "scoreLine_declarer-made": "ディクレアラー、必要な{needed}トリック中{tricks}トリック：成功、+10 × {m}",
  "scoreLine_declarer-failed": "ディクレアラー、必要な{needed}トリック中{tricks}トリック：失敗、-10 × {m}",
  "scoreLine_best-made": "ディクレアラー、必要な{needed}トリック中{tricks}トリック：paston grkha の成功は +10 のみ",
  "scoreLine_best-failed": "ディクレアラー、必要な{needed}トリック中{tricks}トリック：paston grkha 失敗、-10 × {m}",
  "scoreLine_uncontested-declarer": "プレイなし：ディクレアラーは成功した契約の点を得る、+10 × {m}",
  "scoreLine_uncontested-best": "プレイなし：ディクレアラーは成功した契約の点を得る、+10（paston grkha）",
  "scoreLine_uncontested-opponent": "プレイなし：相手は 0",
  "scoreLine_defender": "ディフェンダー（二人ともウィスト）、必要な{needed}トリック中{tricks}トリック：{base} × {m}",
  "scoreLine_lone-defender": "単独ディフェンダー、必要な{needed}トリック中{tricks}トリック：{base} × {m}",
  "scoreLine_lone-defender-flat": "単独ディフェンダー、必要な{needed}トリック中{tricks}トリック（フラット表）：{base} × {m}",
  "scoreLine_passer": "パスしてプレイせず：0",
  "scoreLine_surrendered": "降参：-10、倍率なし",
  "scoreLine_surrender-opponent": "ディクレアラーが降参：相手それぞれに {bonus}、倍率なし",
  "outcomeWords_played": "契約は最後までプレイされました",
  "outcomeWords_uncontested": "相手が二人ともパス：ディクレアラーはプレイなしで勝利",
  "outcomeWords_surrender": "ディクレアラーは切り札を宣言せずに降参しました",
};
