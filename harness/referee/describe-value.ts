/**
 * JSON-safe previews of whatever a player returned, for records. A student's getMove can return anything (a
 * number, null, a Proxy whose getters throw, a cyclic object); the preview never throws and stays small.
 */

export type ValueType =
  | 'string'
  | 'number'
  | 'bigint'
  | 'boolean'
  | 'undefined'
  | 'null'
  | 'symbol'
  | 'function'
  | 'array'
  | 'object';

export interface ValuePreview {
  type: ValueType;
  /** Strings verbatim (capped); other values as a short JavaScript-like preview. */
  text: string;
  /** Present when `text` was cut at the cap. */
  truncated?: true;
}

export const PREVIEW_CAP = 200;
const MAX_DEPTH = 2;
const MAX_ENTRIES = 8;

function typeOf(value: unknown): ValueType {
  if (value === null) return 'null';
  try {
    if (Array.isArray(value)) return 'array';
  } catch {
    // A revoked Proxy throws even here; it is still an object.
  }
  return typeof value as ValueType;
}

function safely(read: () => string): string {
  try {
    return read();
  } catch {
    return '<unreadable>';
  }
}

function previewOf(value: unknown, depth: number, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > PREVIEW_CAP ? value.slice(0, PREVIEW_CAP) : value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return safely(() => value.toString());
    case 'function':
      return safely(() => `[function ${value.name || 'anonymous'}]`);
  }
  if (value === null) return 'null';
  const object = value as object;
  if (seen.has(object)) return '[circular]';
  if (depth >= MAX_DEPTH) return Array.isArray(object) ? '[…]' : '{…}';
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      const items = object.slice(0, MAX_ENTRIES).map((item) => previewOf(item, depth + 1, seen));
      if (object.length > MAX_ENTRIES) items.push(`… ${object.length - MAX_ENTRIES} more`);
      return `[${items.join(', ')}]`;
    }
    const keys = Object.keys(object);
    const read = (key: string): string => previewOf((object as Record<string, unknown>)[key], depth + 1, seen);
    const entries = keys.slice(0, MAX_ENTRIES).map((key) => `${JSON.stringify(key)}: ${safely(() => read(key))}`);
    if (keys.length > MAX_ENTRIES) entries.push(`… ${keys.length - MAX_ENTRIES} more`);
    return `{${entries.join(', ')}}`;
  } catch {
    return '<unreadable>';
  } finally {
    seen.delete(object);
  }
}

/** Describe any value without throwing: strings kept verbatim up to PREVIEW_CAP characters. */
export function describeValue(value: unknown): ValuePreview {
  const type = typeOf(value);
  const full = type === 'string' ? (value as string) : safely(() => previewOf(value, 0, new Set()));
  if (full.length <= PREVIEW_CAP) return { type, text: full };
  return { type, text: full.slice(0, PREVIEW_CAP), truncated: true };
}
