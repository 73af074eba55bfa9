/**
 * `referee ladder submit PATH --url URL --token TOKEN`: zip the submission (a folder without its build output, a
 * lone file as itself, a zip as given), upload it, and follow its version until the ladder's verdict: the check
 * report's failing line, the validation's, or the first rating with its interval. Exit codes: 0 rated (or
 * accepted with --no-wait), 1 the check or the validation failed, 2 refused or usage, 3 the grader failed.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import yazl from 'yazl';
import { UsageError } from './args.js';
import { count } from '../grading/words.js';

/** Folders a submission never needs (they only make the upload large). */
const SKIPPED = new Set(['node_modules', '__pycache__', '.git', 'dist', 'build', 'referee-report', '.venv', 'venv']);

function zipFolder(root: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        if (!SKIPPED.has(name) && !name.startsWith('.')) walk(full);
      } else if (stat.isFile()) {
        zip.addBuffer(readFileSync(full), relative(root, full).split(sep).join('/'), { mtime: new Date(0), mode: 0o644 });
      }
    }
  };
  walk(root);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

interface Reply {
  status: number;
  data: Record<string, unknown>;
}

async function request(url: string, token: string, init: { method?: string; body?: Buffer; type?: string } = {}): Promise<Reply> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, ...(init.type ? { 'content-type': init.type } : {}) },
      body: init.body ? new Uint8Array(init.body) : undefined,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UsageError(`cannot reach the ladder at ${new URL(url).origin} (${cause?.code ?? cause?.message ?? (error as Error).message}): check --url`);
  }
  const data = (await response.json().catch(() => ({ error: `the server answered HTTP ${response.status} without JSON: check --url` }))) as Record<string, unknown>;
  return { status: response.status, data };
}

const FINAL = new Set(['valid', 'failed', 'invalid', 'grader-error']);

export async function submitToLadder(path: string, flags: { url?: string; token?: string; entry?: string; wait: boolean; timeout: number }): Promise<void> {
  const base = flags.url ?? process.env.REFEREE_LADDER_URL;
  const token = flags.token ?? process.env.REFEREE_LADDER_TOKEN;
  if (!base) throw new UsageError('give the ladder\'s address with --url (or $REFEREE_LADDER_URL)');
  if (!token) throw new UsageError('give your token with --token (or $REFEREE_LADDER_TOKEN)');
  let root: URL;
  try {
    root = new URL(base.endsWith('/') ? base : `${base}/`);
  } catch {
    throw new UsageError(`--url ${base} is not a URL: e.g. https://ladder.example.edu/`);
  }
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path} does not exist: give your submission's file, folder or zip`);
  }
  let body: Buffer;
  // The entry as the ladder will look for it: relative to the folder, '/'-separated.
  const entry = flags.entry?.split(sep).join('/').replace(/^\.\//, '');
  let target = new URL(`api/submit${entry ? `?entry=${encodeURIComponent(entry)}` : ''}`, root);
  let type = 'application/zip';
  if (stat.isDirectory()) {
    if (entry !== undefined && !statSync(join(path, entry), { throwIfNoEntry: false })?.isFile()) throw new UsageError(`--entry ${flags.entry} is not a file in ${path}: give its path relative to the folder, e.g. --entry src/MyBot.ts`);
    body = await zipFolder(path);
  } else if (/\.zip$/i.test(path)) body = readFileSync(path);
  else if (entry !== undefined) throw new UsageError(`--entry is for a folder or zip: ${path} is a single file, its own entry (leave --entry out)`);
  else {
    body = readFileSync(path);
    target = new URL(`api/submit?file=${encodeURIComponent(basename(path))}`, root);
    type = 'application/octet-stream';
  }
  const sent = await request(target.href, token, { method: 'POST', body, type });
  if (sent.status >= 400) throw new UsageError(String(sent.data.error ?? `the ladder refused the upload (HTTP ${sent.status})`));
  const id = Number(sent.data.version);
  console.log(sent.data.duplicate ? `The same files as version ${id}: nothing new was submitted.` : `Submitted: version ${id}${sent.data.counts === false ? ' (after the freeze: it can practise but will not count)' : ''}.`);
  if (!flags.wait) return;
  const deadline = Date.now() + flags.timeout * 1000;
  let said = '';
  for (;;) {
    const { status, data } = await request(new URL(`api/versions/${id}`, root).href, token);
    if (status >= 400) throw new UsageError(String(data.error));
    if (data.status !== said) {
      said = String(data.status);
      if (!FINAL.has(said)) console.log(`  ${said}…`);
    }
    if (FINAL.has(said)) {
      if (said === 'valid') {
        const me = await request(new URL('api/me', root).href, token);
        const row = me.data.row as { version: number; rank: number; elo: number; low: number; high: number; games: number } | null;
        if (row && row.version === id) {
          console.log(`Version ${id} is checked, validated and rated: ${Math.round(row.elo)} Elo (95% interval ${Math.round(row.low)} to ${Math.round(row.high)}) after ${count(row.games, 'game')}; rank ${row.rank}. More games narrow it.`);
        } else {
          console.log(`Version ${id} is checked and validated${data.active ? '' : data.counts === false ? ' (practice only: it came after the freeze)' : ''}; its rating appears on the leaderboard once it has played.`);
        }
        return;
      }
      if (said === 'failed') {
        console.log(`Version ${id} failed the interface check (it will not be rated): ${data.message}`);
        const items = ((data.checkReport as { items?: { status: string; title: string; fix?: string }[] } | null)?.items ?? []).filter((item) => item.status === 'fail');
        for (const item of items) console.log(`  ✗ ${item.title}${item.fix ? ` — ${item.fix}` : ''}`);
        process.exitCode = 1;
        return;
      }
      if (said === 'invalid') {
        console.log(`Version ${id} failed its validation games (it will not be rated): ${data.message}`);
        process.exitCode = 1;
        return;
      }
      console.error(`referee: the ladder could not check version ${id} (a grader error, not your fault; it did not use up a submission): ${data.message}`);
      process.exitCode = 3;
      return;
    }
    if (Date.now() > deadline) throw new UsageError(`no verdict for version ${id} after ${flags.timeout} s (the ladder is busy): see your page on the ladder later`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
