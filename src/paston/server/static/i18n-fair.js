// Strings of the check of each deal's shuffle in the page (faircheck.js, docs/FAIRNESS.md)
// and of the first deal's hands withheld until everyone seated has seeded it (decision
// F6), per language; merged into MESSAGES by i18n.js. Every language has exactly the
// keys of English (the browser tests check it).

export const en = {
  fairChecking: "Checking the shuffle of this deal…",
  fairOk: "Your seed was used: the deck is the one the server's secret and the three seeds give.",
  fairOkWatching: "The deck is the one the server's secret and the seats' seeds give.",
  fairNoSeed: "This browser sent no seed for this deal, so the server's seed stood in for yours; the deck matches its secret and seeds.",
  fairOtherSeed: "This browser has no seed of its own for this deal: your seat's seed came from another browser or tab; the deck matches the secret and the three seeds.",
  fairNotUsed: "This deal did not use your seed — keep the record and report it.",
  fairMismatch: "This deal's deck does not match its fairness data — keep the record and report it.",
  fairRecord: "Download the game record (check it with paston verify)",
  fairRecordLater: "Once the game is over, its record can be downloaded and checked with paston verify.",
  fairLogDeal: "Deal {n}:",
  handSealed: "Your cards are shown once everyone seated has helped to shuffle this deal.",
};

export const hy = {
  fairChecking: "Ստուգվում է այս բաժանման խառնումը…",
  fairOk: "Ձեր սերմն օգտագործվել է. կապուկը հենց այն է, որ տալիս են սերվերի գաղտնիքն ու երեք սերմերը։",
  fairOkWatching: "Կապուկը հենց այն է, որ տալիս են սերվերի գաղտնիքն ու տեղերի սերմերը։",
  fairNoSeed: "Այս դիտարկիչն այս բաժանման համար սերմ չի ուղարկել, ուստի Ձեր սերմի փոխարեն սերվերինն է օգտագործվել. կապուկը համապատասխանում է նրա գաղտնիքին ու սերմերին։",
  fairOtherSeed: "Այս դիտարկիչն այս բաժանման համար իր սերմը չունի. Ձեր տեղի սերմն եկել է այլ դիտարկիչից կամ ներդիրից. կապուկը համապատասխանում է գաղտնիքին ու երեք սերմերին։",
  fairNotUsed: "Այս բաժանումը Ձեր սերմը չի օգտագործել — պահեք գրառումը և հայտնեք այդ մասին։",
  fairMismatch: "Այս բաժանման կապուկը չի համապատասխանում իր արդարության տվյալներին — պահեք գրառումը և հայտնեք այդ մասին։",
  fairRecord: "Ներբեռնել խաղի գրառումը (ստուգեք paston verify-ով)",
  fairRecordLater: "Խաղն ավարտվելուց հետո նրա գրառումը կարելի է ներբեռնել և ստուգել paston verify-ով։",
  fairLogDeal: "Բաժանում {n}.",
  handSealed: "Ձեր թղթերը կցուցադրվեն, երբ բոլոր նստածներն օգնեն խառնել այս բաժանումը։",
};

export const ru = {
  fairChecking: "Проверяем тасовку этой раздачи…",
  fairOk: "Ваше зерно использовано: колода именно та, что дают секрет сервера и три зерна.",
  fairOkWatching: "Колода именно та, что дают секрет сервера и зёрна мест.",
  fairNoSeed: "Этот браузер не отправил зерно для этой раздачи, поэтому вместо вашего использовано зерно сервера; колода соответствует его секрету и зёрнам.",
  fairOtherSeed: "У этого браузера нет своего зерна для этой раздачи: зерно вашего места пришло из другого браузера или вкладки; колода соответствует секрету и трём зёрнам.",
  fairNotUsed: "В этой раздаче ваше зерно не использовано — сохраните запись игры и сообщите об этом.",
  fairMismatch: "Колода этой раздачи не соответствует её данным о честности — сохраните запись игры и сообщите об этом.",
  fairRecord: "Скачать запись игры (проверьте её командой paston verify)",
  fairRecordLater: "Когда игра закончится, её запись можно будет скачать и проверить командой paston verify.",
  fairLogDeal: "Раздача {n}:",
  handSealed: "Ваши карты покажутся, когда все сидящие за столом помогут перетасовать эту раздачу.",
};

export const es = {
  fairChecking: "Comprobando el barajado de esta mano…",
  fairOk: "Se usó tu semilla: el mazo es el que dan el secreto del servidor y las tres semillas.",
  fairOkWatching: "El mazo es el que dan el secreto del servidor y las semillas de los asientos.",
  fairNoSeed: "Este navegador no envió semilla para esta mano, así que la semilla del servidor ocupó el lugar de la tuya; el mazo coincide con su secreto y sus semillas.",
  fairOtherSeed: "Este navegador no tiene semilla propia para esta mano: la semilla de tu asiento llegó desde otro navegador o pestaña; el mazo coincide con el secreto y las tres semillas.",
  fairNotUsed: "Esta mano no usó tu semilla: guarda el registro y avisa del problema.",
  fairMismatch: "El mazo de esta mano no coincide con sus datos de equidad: guarda el registro y avisa del problema.",
  fairRecord: "Descargar el registro de la partida (compruébalo con paston verify)",
  fairRecordLater: "Cuando termine la partida podrás descargar su registro y comprobarlo con paston verify.",
  fairLogDeal: "Mano {n}:",
  handSealed: "Tus cartas se mostrarán cuando todos los que están sentados hayan ayudado a barajar esta mano.",
};

export const ja = {
  fairChecking: "このディールのシャッフルを確認しています…",
  fairOk: "あなたのシードが使われました。デッキはサーバーの秘密値と3つのシードから導かれるものと一致します。",
  fairOkWatching: "デッキはサーバーの秘密値と各席のシードから導かれるものと一致します。",
  fairNoSeed: "このブラウザーはこのディールのシードを送らなかったため、あなたの代わりにサーバーのシードが使われました。デッキはその秘密値とシードに一致します。",
  fairOtherSeed: "このブラウザーにはこのディールの自分のシードがありません。あなたの席のシードは別のブラウザーまたはタブから送られました。デッキは秘密値と3つのシードに一致します。",
  fairNotUsed: "このディールにはあなたのシードが使われていません。記録を保存して報告してください。",
  fairMismatch: "このディールのデッキが公平性データと一致しません。記録を保存して報告してください。",
  fairRecord: "ゲームの記録をダウンロード（paston verify で確認できます）",
  fairRecordLater: "ゲームが終わると、記録をダウンロードして paston verify で確認できます。",
  fairLogDeal: "第{n}ディール：",
  handSealed: "着席している全員がこのディールのシャッフルに参加すると、あなたのカードが表示されます。",
};
