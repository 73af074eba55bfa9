/**
 * The parent's check of every line the child host sends: JSON Schema, compiled at build time (harness/schema).
 * Anything that does not match is a protocol violation, whatever the child meant by it.
 */
import { schemaValidator, type SchemaSpec } from '../schema/validator.js';
import type { Answer } from './protocol.js';

const id = { type: 'integer', minimum: 1 };
const standIn = {
  type: 'object',
  properties: { type: { type: 'string', maxLength: 20 }, text: { type: 'string', maxLength: 1000 } },
  required: ['type', 'text'],
  additionalProperties: false,
};
/** Threads a Python submission left running after a timed-out func_timeout call (the host counts them). */
const leftoverThreads = { type: 'integer', minimum: 0, maximum: 100000 };
/** The last line of the submission's own code in a traceback (file as the student named it, line, function). */
const where = {
  type: 'object',
  properties: { file: { type: 'string', maxLength: 300 }, line: { type: 'integer', minimum: 1, maximum: 10000000 }, function: { type: 'string', maxLength: 200 } },
  required: ['file', 'line', 'function'],
  additionalProperties: false,
};
const value = {}; // any JSON; the host caps its size and the line length is capped before parsing

function variant(t: string, properties: Record<string, unknown>, required: string[]): object {
  return {
    type: 'object',
    properties: { t: { const: t }, ...properties },
    required: ['t', ...required],
    additionalProperties: false,
  };
}

const schema = {
  type: 'object',
  properties: { t: { enum: ['hello', 'loaded', 'ready', 'move', 'tamper', 'error', 'memory'] } },
  required: ['t'],
  discriminator: { propertyName: 't' },
  oneOf: [
    variant('hello', { seccomp: { type: 'string', maxLength: 300 }, landlock: { type: 'string', maxLength: 300 } }, []),
    variant(
      'loaded',
      {
        id,
        exports: { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 50 },
        entry: { type: ['string', 'null'], maxLength: 200 },
        // getMove's declared parameters before the first default (Function#length), for the check's warning.
        getMoveParams: { type: 'integer', minimum: 0, maximum: 1000 },
      },
      ['id', 'exports', 'entry'],
    ),
    variant('ready', { id }, ['id']),
    variant('move', { id, value, standIn, leftoverThreads }, ['id']),
    variant('tamper', { id, value, standIn, leftoverThreads, detail: { type: 'string', maxLength: 1000 } }, [
      'id',
      'detail',
    ]),
    variant('error', { id, message: { type: 'string', maxLength: 2000 }, stack: { type: 'string', maxLength: 8000 }, where, between: { type: 'boolean' } }, [
      'id',
      'message',
    ]),
    variant('memory', { id, message: { type: 'string', maxLength: 2000 } }, ['id', 'message']),
  ],
};

export const ANSWER_SCHEMA: SchemaSpec = { name: 'sandbox-answer', schema: () => schema, options: { discriminator: true, allErrors: false, strict: true } };

/** The answer in a line, or a one-line reason it is not one. */
export function parseAnswer(line: string): { answer: Answer } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { problem: `the player host sent a line that is not JSON: ${JSON.stringify(line.slice(0, 80))}` };
  }
  const validate = schemaValidator<Answer>(ANSWER_SCHEMA);
  if (!validate(json)) {
    const first = validate.errors?.[0];
    return {
      problem: `the player host sent a malformed message (${first ? `${first.instancePath || '/'} ${first.message}` : 'invalid'}): ${JSON.stringify(line.slice(0, 80))}`,
    };
  }
  return { answer: json as Answer };
}
