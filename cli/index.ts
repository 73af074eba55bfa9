#!/usr/bin/env node
/**
 * The `referee` command. The top floor: the only folder that imports from all the others. One file per
 * subcommand; each exports register(program).
 * Exit codes: 0 ok, 1 a check/score failed (per command), 2 usage or input error, 3 internal error.
 */
import { isGraderError } from '../harness/referee/grader-error.js';
import { Command, CommanderError } from 'commander';
import { harnessVersion } from '../grading/package-root.js';
import { UsageError } from './args.js';
import { register as registerBatch } from './batch.js';
import { register as registerCheck } from './check.js';
import { register as registerDoctor } from './doctor.js';
import { register as registerCache } from './cache.js';
import { register as registerExport } from './export.js';
import { register as registerGrade } from './grade.js';
import { register as registerGradescope } from './gradescope.js';
import { register as registerInit } from './init.js';
import { register as registerPerft } from './perft.js';
import { register as registerPlay } from './play.js';
import { register as registerReplay } from './replay.js';
import { register as registerServe } from './serve.js';
import { register as registerTournament } from './tournament.js';
import { register as registerWorker } from './worker.js';

const version = harnessVersion();

const program = new Command()
  .name('referee')
  .description('Autograder and match harness for board-game AI assignments')
  .version(version)
  .exitOverride()
  // One line per error, named after the command, like every other message of ours.
  .configureOutput({ outputError: (text, write) => write(`referee: ${text.replace(/^error: /, '')}`) });

for (const register of [
  registerGrade, registerCheck, registerBatch, registerExport, registerGradescope, registerPlay, registerReplay,
  registerInit, registerDoctor, registerCache, registerPerft, registerServe, registerWorker, registerTournament,
]) {
  register(program);
}

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; everything else it already printed in one line.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof UsageError) {
    console.error(`referee: ${err.message}`);
    process.exitCode = 2;
  } else if (isGraderError(err)) {
    // The grading machine failed before any student code ran: one line with the fix, never a verdict.
    console.error(`referee: grader error, nothing was graded: ${err.message}`);
    process.exitCode = 3;
  } else {
    console.error(`referee: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    process.exitCode = 3;
  }
}
