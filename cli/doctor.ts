/**
 * `referee doctor`: which sandbox layers this machine gives untrusted submissions, checked live.
 * Exit codes: 0 the sandbox works (a loud warning when it only guards against accidents), 1 a submission could
 * start a process, 3 the sandbox cannot start at all (what a grade would report as a grader error).
 */
import type { Command } from 'commander';
import { describeLayers, detectLayers, isHardened, warnNotIsolatedOnce } from '../harness/sandbox/layers.js';
import { cppHostPath, findCompiler } from '../harness/sandbox/cpp-runtime.js';
import { nativeTools } from '../harness/sandbox/native-tools.js';
import { describeJava, findJava } from '../harness/sandbox/java-runtime.js';
import { describePython, findPython } from '../harness/sandbox/python-runtime.js';
import { sandboxSelfTest } from '../harness/submission/self-test.js';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('report the sandbox layers active on this machine and test them live')
    .option('--json', 'print the report as JSON')
    .option('--build', "build the sandbox's native tools (Landlock launcher, grader guard, compiler preload, Botzone spawner, taskstats reader) and the C++ host into the cache now, so graders that run later without a C compiler still have them")
    .action(async (flags: { json?: boolean; build?: boolean }) => {
      if (flags.build) {
        const tools = nativeTools();
        const say = flags.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
        if (tools.launcher) say(`built: ${tools.launcher}, ${tools.guard}, ${tools.compileShim}, ${tools.spawner}, ${tools.taskstats}`);
        else say(`not built: ${tools.problem}`);
        if (findCompiler()) say(`built: ${cppHostPath()}`);
        if (!tools.launcher) process.exitCode = 1;
      }
      const layers = detectLayers({ live: true }); // the truth now, not a kept probe
      const table = describeLayers(layers);
      const live = await sandboxSelfTest();
      const hardened = isHardened(layers);
      if (flags.json) {
        const python = findPython();
        console.log(JSON.stringify({ node: process.version, platform: process.platform, hardened, layers: table, python, java: findJava(), selfTest: live }, null, 2));
      } else {
        console.log(`referee doctor: Node ${process.version} on ${process.platform}${process.getuid?.() === 0 ? ', running as root' : ''}`);
        // A layer left out by design is no failure: '–', not a red ✗.
        for (const row of table) console.log(`  ${row.active ? '✓' : row.deliberate ? '–' : '✗'} ${row.layer.padEnd(16)} ${row.detail}`);
        console.log(`  ${findPython() ? '✓' : '✗'} ${'python'.padEnd(16)} ${describePython()}`);
        // Optional: only Java Botzone bots need a JDK, so its absence is '–', not a failure.
        console.log(`  ${findJava() ? '✓' : '–'} ${'java'.padEnd(16)} ${describeJava()}`);
        if (live.error) {
          console.log(`  ✗ live test: ${live.error}`);
        } else {
          console.log(`  ${live.ok ? '✓' : '✗'} live test: started in ${live.startMs.toFixed(0)} ms, one move in ${live.moveMs.toFixed(2)} ms; what a submission met:`);
          const show = (language: string, seen: Record<string, string>): void => {
            for (const [attempt, result] of Object.entries(seen)) console.log(`      ${language.padEnd(6)} ${attempt}: ${result}`);
          };
          show('JS', live.node);
          show('Python', live.python);
        }
        if (!hardened) warnNotIsolatedOnce(layers);
      }
      process.exitCode = live.error?.startsWith('grader error') ? 3 : live.ok && process.exitCode !== 1 ? 0 : 1;
    });
}
