// Paston web client, the entry point: the page chrome, then the view the address asks
// for: the lobby (/), a live table (/t/<id>), the replay viewer (/replay[/<id>]) or the
// Learn to play page (/learn), or the score sheet of a game with real cards (/sheet[/<id>]).
// No build step: ES modules, each with one job (see the first line of each file).
import { applyChrome, setView, showError } from "./chrome.js";
import { learn, loadScoreFacts, renderLearn } from "./learn.js";
import { lobby, renderLobby } from "./lobby.js";
import { connect, live } from "./live.js";
import { logTurn } from "./livelog.js";
import { loadMeta } from "./players.js";
import { renderReplay, replay } from "./replay.js";
import { renderScoreSheet, scoreSheet } from "./scoresheet.js";
import { renderTable } from "./table.js";
import { coachLine, coaching } from "./coach.js";
import { installDeckOption } from "./deckprefs.js";
import { installSoundOption, playSound } from "./sounds.js";
import "./install.js"; // the service worker and the manifest: the app installable and its shell offline

async function start() {
  applyChrome();
  installDeckOption();
  installSoundOption();
  const table = location.pathname.match(/^\/t\/([\w-]+)$/);
  const replayed = location.pathname.match(/^\/replay(?:\/([\w-]+))?$/);
  const scored = location.pathname.match(/^\/sheet(?:\/([\w-]+))?$/);
  try {
    await loadMeta(); // the players and rules by name, for the lobby's form and the seats' labels
  } catch (err) {
    showError(err.code, err.message);
  }
  if (location.pathname === "/learn") {
    setView(renderLearn);
    await learn();
  } else if (scored) {
    setView(renderScoreSheet);
    await scoreSheet(scored[1]);
  } else if (replayed) {
    setView(renderReplay);
    await replay(replayed[1]);
  } else if (table) {
    setView(renderTable);
    renderTable();
    if (coaching()) await loadScoreFacts(); // the coach's first line comes with the first turn cue
    // the turn: in the live log after the moves it follows, with the coach's line on a guided
    // deal (one message); a bell when sounds are on
    connect(table[1], (view) => {
      logTurn(view.phase, () => coachLine(live.state));
      playSound("turn");
    });
  } else {
    setView(renderLobby);
    await lobby();
  }
}

start().catch((err) => showError(err.code, err.message));
