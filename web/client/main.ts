/**
 * The page of `referee serve`, wired from its rooms: connection (the websocket), board-view (the picture and its
 * cells, from the game's geometry), game-info (names, clocks, status, result, moves), controls (settings and
 * buttons), keyboard, save-load, watch (the --watch dashboard). Positions are replayed here with each game's own pure
 * code (bundled by esbuild), so legal moves and reasons show at once; every move is still sent to the server, whose
 * referee decides. The page keeps no game of its own: a reload asks the server for the game in #game=… again.
 */
import type { ServerMessage } from '../server/protocol.js';
import type { WatchedLiveGame, WatchOverview } from '../server/watch.js';
import { drawBoard, wireBoard } from './board-view.js';
import { connect, send, sessionInHash } from './connection.js';
import { drawControls, newGame, setUpSettings, wireControls } from './controls.js';
import { $, say } from './dom.js';
import { drawGameInfo, startClockTicks } from './game-info.js';
import { wireKeyboard } from './keyboard.js';
import { onRender, page, render, type Welcome } from './page.js';
import { previewReplaced, wireSaveLoad } from './save-load.js';
import { renderWatch, showLiveGame, startWatchGame, startWatching, watchError, type WatchRecord } from './watch.js';

function welcomed(message: Welcome): void {
  page.welcome = message;
  if (message.watch) return startWatching();
  $('play-view').hidden = false;
  setUpSettings(message);
  if (message.seat) {
    $('settings').hidden = true;
    send({ type: 'hello', session: message.seat });
    return;
  }
  const existing = sessionInHash();
  if (existing) send({ type: 'hello', session: existing });
  else newGame();
}

function onMessage(message: ServerMessage): void {
  switch (message.type) {
    case 'welcome':
      return welcomed(message);
    case 'gone':
      if (message.reason) {
        // Removed on purpose (finished long ago, or the server's cap): say so plainly and leave the choice to the person.
        history.replaceState(null, '', location.pathname + location.search);
        return say(message.reason);
      }
      // The game in the URL no longer exists (server restarted): start a fresh one with the settings shown.
      return newGame();
    case 'session': {
      const snap = message.snapshot;
      if (page.snapshot?.id !== snap.id) {
        page.viewPly = null;
        // A new game on this page (a loaded one accepted, or New game): it replaces the preview.
        previewReplaced();
      }
      page.snapshot = snap;
      page.snapshotAt = performance.now();
      if (snap.kind === 'play' && sessionInHash() !== snap.id) history.replaceState(null, '', `#game=${snap.id}`);
      say(snap.error ?? '');
      return render();
    }
    case 'error':
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
  if (id && id !== page.snapshot?.id) send({ type: 'hello', session: id });
});
connect(onMessage);
