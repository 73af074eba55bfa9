/** The websocket to `referee serve`: one connection, reconnecting, JSON messages both ways. */
import type { ClientMessage, ServerMessage } from '../server/protocol.js';
import { $ } from './dom.js';

let socket: WebSocket | null = null;

export function send(message: ClientMessage): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

export function connect(onMessage: (message: ServerMessage) => void): void {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/ws${location.search}`);
  socket.addEventListener('open', () => ($('connection').textContent = 'connected'));
  socket.addEventListener('close', () => {
    $('connection').textContent = 'disconnected: retrying…';
    setTimeout(() => connect(onMessage), 1000);
  });
  socket.addEventListener('message', (event) => onMessage(JSON.parse(String(event.data)) as ServerMessage));
}

/** The game id in the URL's #game=…, or null. */
export function sessionInHash(): string | null {
  const match = /(?:^#|&)game=([A-Za-z0-9_-]+)/.exec(location.hash);
  return match ? match[1] : null;
}
