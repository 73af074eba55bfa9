/**
 * A grading worker (forked by the batch runner): grades the students it is sent, one at a time and one game at a
 * time, writing every finished game to the batch journal itself before the next one starts. It dies with its
 * parent, taking its sandboxes with it, so a batch killed with kill -9 leaves nothing running.
 */
import { submissionContestant } from '../contestant.js';
import { grade } from '../grade.js';
import { harnessVersion } from '../package-root.js';
import type { Assignment } from '../assignment.js';
import { processTree, signalPids } from '../../harness/sandbox/process-tree.js';
import { isDiskFull } from './disk-full.js';
import { BatchJournal } from './journal-db.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

let journal: BatchJournal | null = null;
let assignment: Assignment | null = null;
let assignmentSource = '';

const send = (message: FromWorker): void => {
  process.send?.(message);
};

/** Kill every process this worker started (sandboxes, frozen or not), then exit. */
function shutDown(code: number): never {
  signalPids(processTree(process.pid).slice(1), 'SIGKILL');
  journal?.close();
  process.exit(code);
}

async function gradeStudent(student: string, path: string, command: string): Promise<void> {
  if (!journal || !assignment) throw new Error('grading worker used before init');
  const base = await submissionContestant(path, assignment);
  const contestant = { ...base, submission: { ...base.submission, name: student } };
  const store = journal.gameStore(student, { assignment, submissionHash: contestant.submission.hash, harness: harnessVersion() });
  try {
    const result = await grade({
      assignment,
      assignmentSource,
      contestant,
      store,
      parallelGames: 1,
      command,
      onGame: (entry, finished, total) => send({ type: 'game', student, finished, total, result: entry.result, resumed: entry.resumed }),
    });
    send({ type: 'graded', student, result });
  } catch (error) {
    send({ type: 'failed', student, message: (error as Error).message, diskFull: isDiskFull(error) });
  }
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'init') {
    journal = BatchJournal.open(message.journalPath);
    assignment = message.assignment;
    assignmentSource = message.assignmentSource;
    send({ type: 'ready' });
  } else {
    gradeStudent(message.student, message.path, message.command).catch((error: unknown) =>
      send({ type: 'failed', student: message.student, message: (error as Error).message, diskFull: isDiskFull(error) }),
    );
  }
});
// Ctrl-C reaches the whole foreground process group: the runner decides what stops, not each worker.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => shutDown(0));
process.on('disconnect', () => shutDown(0));
