/** Finding entries, the submission boundary at compile time, and bare-import allowlists. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CompileError, compileSubmission, packageName } from '../../harness/submission/compile.js';
import { isSubmissionPath, resolveSubmission, SubmissionError } from '../../harness/submission/resolve.js';
import { exportHint } from '../../harness/submission/suggest.js';
import { isolateCache, scratch, SUBMISSIONS } from '../sandbox/support.js';

beforeAll(() => {
  isolateCache();
});

function tree(files: Record<string, string>): string {
  const root = scratch('submission');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

async function problemsOf(path: string, allowImports?: string[], resolved?: ReturnType<typeof resolveSubmission>): Promise<string[]> {
  try {
    await compileSubmission(resolved ?? resolveSubmission(path), { allowImports });
  } catch (error) {
    if (error instanceof CompileError) return error.problems.map((p) => p.text);
    throw error;
  }
  return [];
}

describe('resolveSubmission', () => {
  test('a directory uses package.json main, else the conventional names in order', () => {
    expect(resolveSubmission(join(SUBMISSIONS, 'dir-package')).entry).toBe(join(SUBMISSIONS, 'dir-package/lib/player.js'));
    const root = tree({ 'index.ts': '', 'src/AIPlayer.ts': '' });
    expect(resolveSubmission(root).entry).toBe(join(root, 'src/AIPlayer.ts'));
    expect(resolveSubmission(tree({ 'AIPlayer.js': '' })).kind).toBe('directory');
  });

  test("a single file's root is its folder", () => {
    const resolved = resolveSubmission(join(SUBMISSIONS, 'random-ts/AIPlayer.ts'));
    expect(resolved.root).toBe(join(SUBMISSIONS, 'random-ts'));
    expect(resolved.kind).toBe('file');
  });

  test('bad inputs give one-line errors naming the fix', () => {
    expect(() => resolveSubmission('/nope/AIPlayer.ts')).toThrow(/submission not found: .*pass a file like src\/AIPlayer.ts/);
    expect(() => resolveSubmission(tree({ 'README.md': '' }))).toThrow(/no entry file .*add src\/AIPlayer.ts/);
    expect(() => resolveSubmission(tree({ 'package.json': '{"main":"gone.js"}' }))).toThrow(/"main" names gone.js/);
    // A Botzone bot in a language Referee does not run is named as such, with the languages it does run as the fix.
    const csharp = tree({ 'Main.cs': 'public class Main {}', 'README.md': '' });
    expect(() => resolveSubmission(csharp)).toThrow(/^no entry file in .*: Main\.cs is C#, which Referee does not run$/);
    expect(() => resolveSubmission(join(csharp, 'Main.cs'))).toThrow(/Main\.cs is C#, which Referee does not run$/);
    try {
      resolveSubmission(csharp);
    } catch (error) {
      expect((error as SubmissionError).hint).toMatch(/^Referee runs C\+\+, Python, TypeScript and JavaScript, and Java Botzone bots/);
    }
    // Java is run as a Botzone bot (Botzone's class Main), whatever its name, with or without Botzone's signs.
    const java = tree({ 'Bot.java': 'public class Main { public static void main(String[] a) {} }', 'README.md': '' });
    expect(resolveSubmission(java)).toMatchObject({ language: 'Java', botzone: { interaction: 'simple', keepRunning: false, evidence: 'a Java program (Botzone runs its class Main)' } });
    expect(() => resolveSubmission(java, undefined, undefined, 'course')).toThrow(/Bot\.java is Java, which Referee runs only as a Botzone bot/);
    const notes = tree({ 'notes.txt': '' });
    expect(() => resolveSubmission(join(notes, 'notes.txt'))).toThrow(SubmissionError);
  });

  test('an entry symlinked from outside the root is refused', () => {
    const root = tree({});
    symlinkSync(join(SUBMISSIONS, 'random-ts/AIPlayer.ts'), join(root, 'AIPlayer.ts'));
    expect(() => resolveSubmission(root)).toThrow(/AIPlayer\.ts is a symlink to .*, outside the submission: replace it with a copy/);
  });

  test('a symlink anywhere in the folder that leaves it is refused at load, with a one-line reason', () => {
    const root = tree({ 'AIPlayer.ts': 'export class AIPlayer {}\n', 'data/keep.txt': '' });
    symlinkSync('/etc/passwd', join(root, 'data', 'passwd'));
    expect(() => resolveSubmission(root)).toThrow(/^data\/passwd is a symlink to \/etc\/passwd, outside the submission/);
    const inside = tree({ 'AIPlayer.ts': 'export class AIPlayer {}\n' });
    symlinkSync(join(inside, 'AIPlayer.ts'), join(inside, 'alias.ts'));
    expect(resolveSubmission(inside).entry).toBe(join(inside, 'AIPlayer.ts'));
  });

  test('size and file-count caps are checked before compiling; non-UTF-8 names are refused by name', () => {
    const root = tree({ 'AIPlayer.ts': 'export class AIPlayer {}\n', 'big.bin': 'x'.repeat(3000) });
    expect(() => resolveSubmission(root, { maxBytes: 2000, maxFiles: 10 })).toThrow(/over the 0\.0 MB cap \(maxSubmissionMb\): remove large files such as big\.bin/);
    expect(() => resolveSubmission(root, { maxBytes: 10_000, maxFiles: 1 })).toThrow(/more than 1 files/);
    expect(() => resolveSubmission(join(root, 'AIPlayer.ts'), { maxBytes: 10, maxFiles: 1 })).toThrow(/over the .* cap \(maxSubmissionMb\)/);
    const odd = tree({ 'AIPlayer.ts': 'export class AIPlayer {}\n' });
    writeFileSync(Buffer.concat([Buffer.from(`${odd}/caf`), Buffer.from([0xe9]), Buffer.from('.ts')]), '');
    expect(() => resolveSubmission(odd)).toThrow(/caf\\xe9\.ts has a name that is not UTF-8: rename it/);
    expect(() => resolveSubmission(join(odd, 'caf\uFFFD.ts'))).toThrow(/bytes that are not UTF-8/);
  });

  test("a whole program with no Botzone sign is marked for the check's --protocol hint; a C++ AIPlayer or Strategy with its own test main is not", () => {
    const main = 'int main() {\n  int x, y;\n  std::cin >> x >> y;\n  std::cout << x << " " << y << std::endl;\n}\n';
    const program = resolveSubmission(join(tree({ 'bot.cpp': `#include <iostream>\n${main}` }), 'bot.cpp'));
    expect(program.wholeProgram).toBe(true);
    expect(program.botzone).toBeUndefined();
    const aiplayer = `#include <iostream>\n#include "referee/reversi.h"\nclass AIPlayer {\n public:\n  explicit AIPlayer(char c) : c_(c) {}\n  std::string getMove(const Board& b) { return b.getLegalActions(c_).at(0); }\n  char c_;\n};\n`;
    const tested = resolveSubmission(join(tree({ 'AIPlayer.cpp': `${aiplayer}${main}` }), 'AIPlayer.cpp'));
    expect(tested.wholeProgram).toBeUndefined();
    expect(tested.botzone).toBeUndefined();
    const strategy = resolveSubmission(join(tree({ 'Strategy.cpp': `#include "Point.h"\nextern "C" Point* getPoint(const int M, const int N) { return nullptr; }\n${main}` }), 'Strategy.cpp'));
    expect(strategy.wholeProgram).toBeUndefined();
    // With Botzone's signs the same main is a bot, AIPlayer or not.
    expect(resolveSubmission(join(tree({ 'bot.cpp': `#ifdef _BOTZONE_ONLINE\n#endif\n${aiplayer}${main}` }), 'bot.cpp')).botzone).toMatchObject({ interaction: 'simple', keepRunning: false });
  });

  test('isSubmissionPath tells paths from built-in player names', () => {
    expect(isSubmissionPath('src/AIPlayer.ts')).toBe(true);
    expect(isSubmissionPath('AIPlayer.js')).toBe(true);
    expect(isSubmissionPath(SUBMISSIONS)).toBe(true);
    expect(isSubmissionPath('random')).toBe(false);
  });
});

describe('compileSubmission', () => {
  test('bundles sibling modules, leaves referee external, names the bundle by content hash', async () => {
    const first = await compileSubmission(resolveSubmission(join(SUBMISSIONS, 'random-ts')));
    const again = await compileSubmission(resolveSubmission(join(SUBMISSIONS, 'random-ts')));
    expect(again.bundlePath).toBe(first.bundlePath);
    expect(first.bundlePath).toContain(first.hash);
  });

  test('a file means that file alone: its local import is refused with the fix (grade the folder)', async () => {
    await expect(compileSubmission(resolveSubmission(join(SUBMISSIONS, 'random-ts/AIPlayer.ts')))).rejects.toThrow(
      /AIPlayer\.ts imports \.\/pick: a single file is graded alone; grade its folder: referee grade tests\/fixtures\/submissions\/random-ts\//,
    );
  });

  test('every refused import is named: outside the root, symlinks out, bare packages, builtins', async () => {
    const root = tree({
      'AIPlayer.ts': "import './inner';\nimport '../elsewhere';\nimport 'lodash';\nimport 'node:fs';\nimport './linked';\nexport class AIPlayer {}\n",
      'inner.ts': '',
    });
    writeFileSync(join(root, '..', 'elsewhere.ts'), '');
    writeFileSync(join(root, 'linked.ts'), "import './linked.json';\n");
    // A symlink out is refused at load (resolveSubmission); created after it, the compile step still refuses it.
    const resolved = resolveSubmission(root);
    symlinkSync(resolve('package.json'), join(root, 'linked.json'));
    const problems = await problemsOf(root, [], resolved);
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/'\.\.\/elsewhere' resolves to .*outside the submission folder/);
    expect(problems.join('\n')).toMatch(/import 'lodash' is not allowed \(this assignment allows no packages\)/);
    expect(problems.join('\n')).toMatch(/import 'node:fs' is not allowed/);
    expect(problems.join('\n')).toMatch(/'\.\/linked\.json' resolves to .*package\.json, outside/);
  });

  test('allowlisted builtins stay external; allowlisted packages must still live inside the root', async () => {
    const root = tree({
      'AIPlayer.ts': "import { cpus } from 'node:os';\nimport x from 'tiny';\nexport class AIPlayer { n = cpus().length + x; }\n",
      'node_modules/tiny/package.json': '{"name":"tiny","main":"index.js"}',
      'node_modules/tiny/index.js': 'module.exports = 1;',
    });
    expect(await problemsOf(root, ['os', 'tiny'])).toEqual([]);
    expect(await problemsOf(root, ['tiny'])).toEqual([expect.stringMatching(/import 'node:os' is not allowed \(allowed: tiny\)/)]);
  });

  test('syntax errors carry file:line:col', async () => {
    const root = tree({ 'AIPlayer.ts': 'export class AIPlayer {\n  getMove() { return ; }}\n}\n' });
    await expect(compileSubmission(resolveSubmission(root))).rejects.toThrow(/^AIPlayer\.ts:3:1: Unexpected "}"/);
  });

  test('packageName strips subpaths and the node: prefix', () => {
    expect(['lodash/fp', '@scope/pkg/x', 'node:fs'].map(packageName)).toEqual(['lodash', '@scope/pkg', 'fs']);
  });
});

describe('exportHint', () => {
  test('suggests the near-miss name, or the only export, or how to export', () => {
    expect(exportHint(['AiPlayer'])).toMatch(/rename the export AiPlayer to AIPlayer/);
    expect(exportHint(['AIPlayr', 'helper'])).toMatch(/rename the export AIPlayr/);
    expect(exportHint(['MyBot'])).toMatch(/export your class as AIPlayer.*found MyBot/);
    expect(exportHint([])).toMatch(/add export class AIPlayer/);
  });
});
