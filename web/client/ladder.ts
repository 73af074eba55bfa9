/**
 * The ladder pages' script (bundled by the ladder server with esbuild): draws the interval bars and the rating
 * curve, sends uploads and practice requests, runs the instructor's buttons, and refreshes the leaderboard from
 * /api/leaderboard. The token comes from the page (the student's own link); every server refusal is shown as the
 * one line the server wrote.
 */
import { $, svgElement } from './dom.js';

const token = document.body.dataset.token ?? '';
// The token came in the link (?token=…): read once, then taken out of the address bar and the history, so it is
// not shown over a shoulder, bookmarked or synced; the page keeps it for its own requests.
if (new URLSearchParams(location.search).has('token')) {
  const params = new URLSearchParams(location.search);
  params.delete('token');
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
}
const page = document.body.dataset.page ?? '';

function say(text: string): void {
  const message = document.getElementById('message');
  if (message) message.textContent = text;
}

async function call(method: string, path: string, body?: BodyInit, type?: string): Promise<{ ok: boolean; data: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (type) headers['content-type'] = type;
  const response = await fetch(path, { method, headers, body });
  const data = (await response.json().catch(() => ({ error: `HTTP ${response.status}` }))) as Record<string, unknown>;
  return { ok: response.ok, data };
}

/** Each row's interval as a bar on one scale for the whole table. */
function drawBars(): void {
  const bars = [...document.querySelectorAll<HTMLElement>('.bar')];
  if (bars.length === 0) return;
  const lows = bars.map((bar) => Number(bar.dataset.low));
  const highs = bars.map((bar) => Number(bar.dataset.high));
  const min = Math.min(...lows);
  const span = Math.max(1, Math.max(...highs) - min);
  for (const bar of bars) {
    const low = (100 * (Number(bar.dataset.low) - min)) / span;
    const high = (100 * (Number(bar.dataset.high) - min)) / span;
    const elo = (100 * (Number(bar.dataset.elo) - min)) / span;
    bar.replaceChildren();
    const range = document.createElement('span');
    range.style.left = `${low}%`;
    range.style.width = `${Math.max(0.5, high - low)}%`;
    const mark = document.createElement('i');
    mark.style.left = `${elo}%`;
    bar.append(range, mark);
  }
}

/** The rating curve: the estimate and its 95% band after each counted game. */
function drawHistory(): void {
  const svg = document.getElementById('history');
  if (!svg) return;
  const points = JSON.parse(svg.dataset.history ?? '[]') as { games: number; elo: number; low: number; high: number }[];
  if (points.length === 0) return;
  const width = 640;
  const height = 160;
  const pad = 30;
  const lo = Math.min(...points.map((p) => p.low));
  const hi = Math.max(...points.map((p) => p.high));
  const maxGames = Math.max(...points.map((p) => p.games), 1);
  const x = (games: number): number => pad + ((width - 2 * pad) * games) / maxGames;
  const y = (elo: number): number => height - pad - ((height - 2 * pad) * (elo - lo)) / Math.max(1, hi - lo);
  const band = [...points.map((p) => `${x(p.games)},${y(p.high)}`), ...points.reverse().map((p) => `${x(p.games)},${y(p.low)}`)].join(' ');
  points.reverse();
  svg.append(svgElement('polygon', { points: band, fill: '#d1e0ff' }));
  svg.append(svgElement('polyline', { points: points.map((p) => `${x(p.games)},${y(p.elo)}`).join(' '), fill: 'none', stroke: '#1d2330', 'stroke-width': 2 }));
  const label = (text: string, px: number, py: number): void => {
    const t = svgElement('text', { x: px, y: py, 'font-size': 11, fill: '#667085' });
    t.textContent = text;
    svg.append(t);
  };
  label(String(Math.round(hi)), 2, pad);
  label(String(Math.round(lo)), 2, height - pad);
  label(`${maxGames} games`, width - pad - 50, height - 8);
}

async function refreshLeaderboard(): Promise<void> {
  const response = await fetch('/', { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) return;
  const html = await response.text();
  const next = new DOMParser().parseFromString(html, 'text/html').getElementById('table-holder');
  const holder = document.getElementById('table-holder');
  if (next && holder) {
    holder.replaceChildren(...[...next.childNodes].map((node) => document.importNode(node, true)));
    drawBars();
  }
}

function wireUpload(): void {
  const form = document.getElementById('upload') as HTMLFormElement | null;
  if (!form) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const file = ($('file') as HTMLInputElement).files?.[0];
    if (!file) return say('choose a .zip or a source file first');
    say('uploading…');
    const zip = /\.zip$/i.test(file.name);
    const path = zip ? '/api/submit' : `/api/submit?file=${encodeURIComponent(file.name)}`;
    void call('POST', path, file, zip ? 'application/zip' : 'application/octet-stream').then(({ ok, data }) => {
      if (!ok) return say(String(data.error));
      say(data.duplicate ? `the same files as version ${data.version}: nothing new to check` : `version ${data.version} received: it is being checked — see My page`);
    });
  });
}

function wireButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button.practice')) {
    button.addEventListener('click', () => {
      void call('POST', '/api/practice', JSON.stringify({ opponent: button.dataset.opponent }), 'application/json').then(({ ok, data }) =>
        say(ok ? `practice game against ${button.dataset.opponent} queued (it will not count)` : String(data.error)),
      );
    });
  }
  for (const action of ['freeze', 'final']) {
    document.getElementById(action)?.addEventListener('click', () => {
      if (!window.confirm(action === 'freeze' ? 'Freeze the ladder? New versions will no longer count.' : 'Run the final now? This freezes the ladder.')) return;
      void call('POST', `/api/instructor/${action}`).then(({ ok, data }) => {
        say(ok ? `phase: ${data.phase}` : String(data.error));
        if (ok) $('phase-now').textContent = String(data.phase);
      });
    });
  }
}

drawBars();
drawHistory();
wireUpload();
wireButtons();
if (page === 'leaderboard') setInterval(() => void refreshLeaderboard(), 5000);
