// The offline page (offline.html, shown by the service worker when a page cannot be
// fetched and was never cached): its words in the language chosen in the app (the
// "paston-lang" of text.js) or the browser's, and "Try again" pointing at the page asked for.
// Standalone on purpose: it must work from the cache alone, so it imports nothing.

const WORDS = {
  en: {
    page: "Offline · Paston",
    title: "You are offline",
    body: "Paston cannot reach its server, and this page is not saved on this device. Check the connection and try again.",
    retry: "Try again",
    lobby: "Go to the lobby",
  },
  hy: {
    page: "Անցանց · Paston",
    title: "Կապ չկա",
    body: "Paston-ը չի կարողանում կապվել իր սերվերի հետ, և այս էջը պահված չէ այս սարքում։ Ստուգեք կապը և կրկին փորձեք։",
    retry: "Կրկին փորձել",
    lobby: "Գնալ սրահ",
  },
  ru: {
    page: "Нет сети · Paston",
    title: "Нет подключения к сети",
    body: "Paston не может связаться с сервером, а эта страница не сохранена на этом устройстве. Проверьте подключение и попробуйте снова.",
    retry: "Попробовать снова",
    lobby: "В лобби",
  },
  es: {
    page: "Sin conexión · Paston",
    title: "Sin conexión",
    body: "Paston no puede conectar con su servidor y esta página no está guardada en este dispositivo. Comprueba la conexión y vuelve a intentarlo.",
    retry: "Reintentar",
    lobby: "Ir a la sala",
  },
  ja: {
    page: "オフライン · Paston",
    title: "オフラインです",
    body: "Paston はサーバーに接続できません。このページはこの端末に保存されていません。接続を確認して、もう一度お試しください。",
    retry: "もう一度試す",
    lobby: "ロビーへ",
  },
};

/** The language to show: the app's choice, else the browser's first known one, else English. */
export function offlineLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem("paston-lang");
  } catch {
    // storage blocked: the browser's languages decide
  }
  if (saved && WORDS[saved]) return saved;
  for (const wanted of navigator.languages || []) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (WORDS[code]) return code;
  }
  return "en";
}

function show() {
  const lang = offlineLanguage();
  const words = WORDS[lang];
  document.documentElement.lang = lang;
  document.title = words.page;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = words[el.dataset.text];
  const retry = document.querySelector("[data-testid=retry]");
  if (retry && location.pathname !== "/offline.html") retry.href = location.href; // the page asked for
}

show();
