/**
 * `referee list`: what this Referee offers — the games (id and title), each game's reference AIs weakest first
 * (its ladder, with what each does) and the submission languages. `--json` for scripts.
 * Exit code: 0.
 */
import type { Command } from 'commander';
import { gameIds, getGame } from '../harness/games/registry.js';
import { referenceLevels } from '../reference-ai/index.js';

/** Submission languages by entry file (as grading/contestant.ts recognises them). */
export const SUBMISSION_LANGUAGES = [
  { language: 'TypeScript', files: '.ts', note: 'compiled with esbuild; type-checked as warnings' },
  { language: 'JavaScript', files: '.js .mjs .cjs', note: '' },
  { language: 'Python', files: '.py (or a folder with AIPlayer.py)', note: "the platform's board, game and func_timeout modules; numpy when the grader's python3 has it" },
  { language: 'C++', files: '.cpp .cc (Connect Four course SDK)', note: 'compiled with g++' },
  { language: 'Java', files: '.java (a Botzone bot: class Main)', note: 'compiled with javac when a JDK is installed (apt-get install default-jdk-headless)' },
];

export function listing(): { games: { id: string; title: string; referenceAIs: { level: number; name: string; description: string }[] }[]; languages: typeof SUBMISSION_LANGUAGES } {
  return {
    games: gameIds().map((id) => ({
      id,
      title: getGame(id).title,
      referenceAIs: referenceLevels(id).map((level, index) => ({ level: index + 1, name: level.name, description: level.description })),
    })),
    languages: SUBMISSION_LANGUAGES,
  };
}

export function register(program: Command): void {
  program
    .command('list')
    .description('list the games, each game\'s reference AIs (weakest first) and the submission languages')
    .option('--json', 'print the same as JSON')
    .action((flags: { json?: boolean }) => {
      const list = listing();
      if (flags.json) {
        console.log(JSON.stringify(list, null, 2));
        return;
      }
      for (const game of list.games) {
        console.log(`${game.id} — ${game.title}`);
        for (const ai of game.referenceAIs) console.log(`  ${String(ai.level).padStart(2)}. ${ai.name.padEnd(12)} ${ai.description}`);
      }
      console.log('\nSubmission languages:');
      for (const { language, files, note } of list.languages) console.log(`  ${language.padEnd(11)} ${files}${note ? `: ${note}` : ''}`);
    });
}
