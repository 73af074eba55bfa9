/**
 * The websocket to `referee serve`: one connection, JSON messages both ways. When it drops, the page says so and
 * tries again with backoff (0.5 s, 1 s, 2 s … at most 10 s; "Reconnect now" tries at once); nothing is sent while it
 * is down, and the rooms ask `connected()` to say why a click or key did nothing.
 */
import type { ClientMessage, ServerMessage } from '../server/protocol.js';

let socket: WebSocket | null = null;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
let handler: (message: ServerMessage) => void = () => {};
let onState: (up: boolean, retryInMs: number | null) => void = () => {};

const MAX_DELAY_MS = 10_000;

export function connected(): boolean {
  return socket?.readyState === WebSocket.OPEN;
}

/** Send when connected; returns false (nothing sent) while the connection is down. */
export function send(message: ClientMessage): boolean {
  if (!connected()) return false;
  socket!.send(JSON.stringify(message));
  return true;
}

function open(): void {
  retryTimer = null;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws${location.search}`);
  socket = ws;
  ws.addEventListener('open', () => {
    attempt = 0;
    onState(true, null);
  });
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    const delay = Math.min(MAX_DELAY_MS, 500 * 2 ** attempt);
    attempt++;
    onState(false, delay);
    retryTimer = setTimeout(open, delay);
  });
  ws.addEventListener('message', (event) => handler(JSON.parse(String(event.data)) as ServerMessage));
}

/** Try again now (the "Reconnect now" button), instead of waiting out the backoff. */
export function reconnectNow(): void {
  if (connected() || retryTimer === null) return;
  clearTimeout(retryTimer);
  open();
}

export function connect(onMessage: (message: ServerMessage) => void, onConnection: (up: boolean, retryInMs: number | null) => void): void {
  handler = onMessage;
  onState = onConnection;
  open();
}

/** The game id in the URL's #game=…, or null. */
export function sessionInHash(): string | null {
  const match = /(?:^#|&)game=([A-Za-z0-9_-]+)/.exec(location.hash);
  return match ? match[1] : null;
}

/** The key that lets this tab change game `id` (given by the server when this tab created it), kept across reloads. */
export function controlKey(id: string): string | null {
  try {
    return sessionStorage.getItem(`referee.control.${id}`);
  } catch {
    return null;
  }
}

export function keepControlKey(id: string, key: string): void {
  try {
    sessionStorage.setItem(`referee.control.${id}`, key);
  } catch {
    // Storage refused (a private mode): a reload of this tab then watches the game.
  }
}
