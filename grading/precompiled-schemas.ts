/**
 * The schemas `npm run build` compiles ahead of time (harness/schema/validator.ts): those a quick command —
 * check, play, grade — validates against on its own path. The queue's, the web page's and the tournament's compile
 * once, in the command that needs them.
 */
import { ANSWER_SCHEMA } from '../harness/sandbox/answer-schema.js';
import type { SchemaSpec } from '../harness/schema/validator.js';
import { ASSIGNMENT_SCHEMA } from './assignment.js';
import { GRADE_RESULT_SCHEMA } from './grade-result.js';
import { PROGRESS_SCHEMA } from './pool/progress.js';

export const PRECOMPILED_SCHEMAS: readonly SchemaSpec[] = [ANSWER_SCHEMA, ASSIGNMENT_SCHEMA, GRADE_RESULT_SCHEMA, PROGRESS_SCHEMA];
