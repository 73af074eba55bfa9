/**
 * The class roster and its tokens. A roster is a CSV with a header naming `student` (the id) and optionally `name`;
 * every student gets one random token and the instructor one more. Only sha256 of a token is stored; a token
 * is compared against every stored hash in constant time, so neither timing nor the journal gives one away.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pseudonyms } from '../batch/pseudonym.js';
import type { LadderStore, StudentRow } from './store.js';

export const INSTRUCTOR_ID = 'instructor';
export const TOKENS_FILE = 'tokens.csv';

/** The roster cannot be read: one line naming the fix. */
export class RosterError extends Error {
  override name = 'RosterError';
}

export interface RosterEntry {
  id: string;
  name: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** One CSV line into fields (quotes with "" escapes; no field spans lines in a roster). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') fields.push(field), (field = '');
    else field += c;
  }
  fields.push(field);
  return fields.map((each) => each.trim());
}

export function readRoster(path: string): RosterEntry[] {
  if (!existsSync(path)) throw new RosterError(`the roster ${path} does not exist: give a CSV with a header line "student,name"`);
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new RosterError(`the roster ${path} is empty: give a CSV with a header line "student,name" and a line per student`);
  const header = csvFields(lines[0]).map((field) => field.toLowerCase());
  const idColumn = header.findIndex((field) => field === 'student' || field === 'id' || field === 'login');
  if (idColumn < 0) throw new RosterError(`the roster ${path} has no "student" column in its header (found: ${header.join(', ')}): add one`);
  const nameColumn = header.indexOf('name');
  const seen = new Set<string>();
  return lines.slice(1).map((line, index) => {
    const fields = csvFields(line);
    const id = fields[idColumn] ?? '';
    if (!ID.test(id)) throw new RosterError(`${path} line ${index + 2}: the student id ${JSON.stringify(id)} must be 1-64 letters, digits, . _ @ or - (starting with a letter or digit)`);
    if (id === INSTRUCTOR_ID) throw new RosterError(`${path} line ${index + 2}: "${INSTRUCTOR_ID}" is reserved for the instructor's token: rename the student`);
    if (seen.has(id)) throw new RosterError(`${path} line ${index + 2}: the student ${id} is listed twice: keep one line`);
    seen.add(id);
    return { id, name: (nameColumn >= 0 ? fields[nameColumn] : '') || id };
  });
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const newToken = (): string => `lt_${randomBytes(32).toString('base64url')}`;

/** The student (or instructor) a token belongs to, or null; every stored hash is compared, each in constant time. */
export function studentForToken(store: LadderStore, token: unknown): string | null {
  if (typeof token !== 'string' || token.length < 8 || token.length > 200) return null;
  const given = Buffer.from(hashToken(token), 'hex');
  let found: string | null = null;
  for (const { id, hash } of store.tokenHashes()) {
    if (timingSafeEqual(given, Buffer.from(hash, 'hex')) && found === null) found = id;
  }
  return found;
}

/**
 * Add the roster's new students (and the instructor, the first time) to the journal with fresh tokens, and write
 * those tokens to `tokensPath` — created 0600 the first time, appended to for students added later. A token is
 * shown once: the journal keeps only its hash.
 */
export function enrol(store: LadderStore, roster: RosterEntry[], tokensPath: string): { added: string[] } {
  const key = store.getMeta('pseudonym-key') ?? randomBytes(16).toString('hex');
  store.setMeta('pseudonym-key', key);
  const names = pseudonyms([...roster.map((entry) => entry.id), INSTRUCTOR_ID], key);
  const fresh: { id: string; token: string }[] = [];
  store.db.transaction(() => {
    const all: (StudentRow & { isNew: boolean })[] = [
      { id: INSTRUCTOR_ID, name: 'Instructor', pseudonym: INSTRUCTOR_ID, instructor: true, isNew: !store.hasStudent(INSTRUCTOR_ID) },
      ...roster.map((entry) => ({ id: entry.id, name: entry.name, pseudonym: names.get(entry.id)!, instructor: false, isNew: !store.hasStudent(entry.id) })),
    ];
    for (const row of all) {
      if (!row.isNew) continue;
      const token = newToken();
      store.addStudent(row, hashToken(token));
      fresh.push({ id: row.id, token });
    }
  })();
  if (fresh.length > 0) {
    const lines = fresh.map(({ id, token }) => `${id},${token}\n`).join('');
    if (existsSync(tokensPath)) appendFileSync(tokensPath, lines, { mode: 0o600 });
    else writeFileSync(tokensPath, `student,token\n${lines}`, { mode: 0o600, flag: 'wx' });
    chmodSync(tokensPath, 0o600);
  }
  return { added: fresh.map((each) => each.id) };
}
