/**
 * Stable pseudonyms for --anonymize: an HMAC of the student id under a secret kept in the batch journal, so the
 * same student keeps the same pseudonym across runs, and nobody without the journal can map one back by hashing
 * a class list.
 */
import { createHmac } from 'node:crypto';

export function pseudonyms(ids: string[], key: string): Map<string, string> {
  const digests = ids.map((id) => createHmac('sha256', key).update(id).digest('hex'));
  // Six hex digits each, longer only if two students would share one.
  let length = 6;
  while (new Set(digests.map((digest) => digest.slice(0, length))).size < new Set(ids).size && length < 64) length += 2;
  return new Map(ids.map((id, index) => [id, `anon-${digests[index].slice(0, length)}`]));
}
