/**
 * The page of `referee serve`, wired from its rooms: connection (the websocket), board-view (the picture and its
 * cells, from the game's geometry), game-info (names, clocks, status, result, moves), controls (settings and
 * buttons), keyboard, save-load, watch (the --watch dashboard). Positions are replayed here with each game's own pure
 * code (bundled by esbuild), so legal moves and reasons show at once; every move is still sent to the server, whose
 * referee decides. A reload asks the server for the game in #game=… again; a server that restarted is sent the page's
 * copy of the moves (the tab that created the game holds its control key) and referees them again.
 */
import type { ServerMessage } from '../server/protocol.js';
import type { WatchedLiveGame, WatchOverview } from '../server/watch.js';
import { drawBoard, wireBoard } from './board-view.js';
import { connect, controlKey, keepControlKey, send, sessionInHash } from './connection.js';
import { drawControls, newGame, setUpSettings, wireControls } from './controls.js';
import { $, plural, say, sayForGame } from './dom.js';
import { announceSnapshot, drawGameInfo, startClockTicks } from './game-info.js';
import { wireKeyboard } from './keyboard.js';
import { onRender, page, render, type Welcome } from './page.js';
import { previewReplaced, recordOfSnapshot, wireSaveLoad } from './save-load.js';
import { renderWatch, showLiveGame, startWatchGame, startWatching, watchError, type WatchRecord } from './watch.js';

function hello(id: string): void {
  const control = controlKey(id);
  send({ type: 'hello', session: id, ...(control ? { control } : {}) });
}

function welcomed(message: Welcome): void {
  const first = page.welcome === null;
  page.welcome = message;
  if (message.watch) return startWatching();
  $('play-view').hidden = false;
  // A reconnect keeps the settings the person chose; the first welcome fills them from the URL.
  if (first) setUpSettings(message);
  if (message.seat) {
    $('settings').hidden = true;
    send({ type: 'hello', session: message.seat });
    return;
  }
  const existing = sessionInHash();
  if (existing) hello(existing);
  else newGame();
}

/** The game this page played is not on the server (it restarted): send it back, or say plainly that it is lost. */
function gone(id: string | undefined, reason?: string): void {
  const snap = page.snapshot;
  if (!snap || snap.id !== id) {
    // A link to a game this server does not have, and nothing of it on this page: a fresh game, said so.
    // The server's own reason when it removed the game (a finished game past its cap or age), said plainly.
    page.notice = reason
      ? `${reason.replace(/: start a new game$/, '')}: a new game was started`
      : 'the game in this link is no longer on the server (it was closed, or the server restarted): a new game was started';
    page.keepNotice = true;
    newGame();
    return;
  }
  if (snap.kind === 'play' && snap.specs && !page.watching && !page.lost) {
    page.restoring = true;
    send({
      type: 'restore',
      record: recordOfSnapshot(snap),
      black: snap.specs[0],
      white: snap.specs[1],
      moveTimeMs: snap.moveTimeMs,
      timeBankMs: snap.timeBankMs,
      strikeLimit: snap.strikeLimit,
      ...(snap.end?.reason === 'resign' && snap.end.resignedBy !== null ? { resignedBy: snap.end.resignedBy } : {}),
      ...(snap.paused ? { paused: true } : {}),
    });
  } else {
    page.lost = page.watching
      ? 'the game you were watching is no longer on the server (it restarted): its last position stays here. Save keeps it; New game starts one'
      : `${reason ? reason.replace(/: start a new game$/, '').replace(/; press Save when a game ends to keep its record/, '') : 'this game is no longer on the server (it restarted)'}: its last position stays here. Save keeps it, and Load plays on from it`;
  }
  render();
}

function onMessage(message: ServerMessage): void {
  switch (message.type) {
    case 'welcome':
      return welcomed(message);
    case 'gone':
      return gone(message.session, message.reason);
    case 'session': {
      const snap = message.snapshot;
      const restored = page.restoring;
      if (page.snapshot?.id !== snap.id) {
        page.viewPly = null;
        if (!restored && !page.keepNotice) page.notice = null;
        page.keepNotice = false;
        // A new game on this page (a loaded one accepted, or New game): it replaces the preview.
        previewReplaced();
      }
      if (message.control) keepControlKey(snap.id, message.control);
      page.watching = message.watching === true;
      page.restoring = false;
      page.lost = null;
      announceSnapshot(snap);
      page.snapshot = snap;
      page.snapshotAt = performance.now();
      if (snap.kind === 'play' && sessionInHash() !== snap.id) history.replaceState(null, '', `#game=${snap.id}`);
      const discarded = snap.discardedPlies && !page.watching ? `started again: Undo (U) brings back the game you left (${plural(snap.discardedPlies, 'ply', 'plies')}) until you move` : '';
      if (restored) page.notice = `the server restarted: this game was restored at ply ${snap.turns.length}, every move refereed again`;
      sayForGame(snap.error ?? page.notice ?? discarded);
      return render();
    }
    case 'error':
      if (page.restoring) {
        page.restoring = false;
        page.lost = `the server restarted and could not take this game back (${message.message}): its last position stays here. Save keeps it, and Load plays on from it`;
        render();
      }
      say(message.message);
      return watchError(message.message);
    case 'watch':
      return renderWatch(message.data as WatchOverview);
    case 'watch-game':
      return startWatchGame(message.key, message.record as WatchRecord);
    case 'watch-live':
      return showLiveGame(message.game as WatchedLiveGame);
  }
}

function connectionChanged(up: boolean, retryInMs: number | null): void {
  page.connected = up;
  page.retryInMs = retryInMs;
  document.body.dataset.connected = up ? '1' : '0';
  $('connection').textContent = up ? 'connected' : 'disconnected: reconnecting…';
  if (!up) page.restoring = false;
  render();
}

onRender(drawBoard);
onRender(drawGameInfo);
onRender(drawControls);
wireBoard();
wireControls();
wireKeyboard();
wireSaveLoad();
startClockTicks();
window.addEventListener('hashchange', () => {
  const id = sessionInHash();
  if (id && id !== page.snapshot?.id) hello(id);
});
connect(onMessage, connectionChanged);
