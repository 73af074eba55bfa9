/**
 * The labelled set for `npm run bench -- similarity`, built in a folder from the hand-written submissions in
 * tests/fixtures/similarity (class/ and seeds/): each family is one original with its disguised copies
 * (identifiers renamed, methods reordered, dead code added, comments translated, a Python file split in two or
 * two files merged) and its hand-written ports to other languages; families are independent of each other; a
 * group of students hands in nothing but the starter and the platform files. Also synthesises a large class
 * (300 students) from the same seeds for the timing.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createRng, type Rng } from '../harness/referee/seed.js';
import { packageFile } from '../grading/package-root.js';

export interface LabelledStudent {
  id: string;
  /** Students of one family are copies of each other (ports included); different families are independent. */
  family: string;
  /** Hands in only the starter and the platform files. */
  baseOnly?: boolean;
  /** The copy is in another language than the family's original. */
  port?: boolean;
}

const FIXTURES = packageFile('tests', 'fixtures', 'similarity');

/**
 * tests/fixtures/similarity/class copied to `target`, with the files its students hand in unchanged (board.py,
 * func_timeout.py, the starter) copied in from Referee's own, as platform-files.json lists: they stay equal to the
 * base code however it changes.
 */
export function materialiseClass(target: string): string {
  cpSync(join(FIXTURES, 'class'), target, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(FIXTURES, 'platform-files.json'), 'utf8')) as { sources: Record<string, string>; students: Record<string, Record<string, string>> };
  for (const [student, files] of Object.entries(manifest.students)) {
    mkdirSync(join(target, student), { recursive: true });
    for (const [name, source] of Object.entries(files)) cpSync(packageFile(...manifest.sources[source].split('/')), join(target, student, name));
  }
  return target;
}

/** Each family: its original, the hand-made copies and ports already written, and the language of the original. */
const FAMILIES: { family: string; original: string; copies: string[]; ports: string[] }[] = [
  { family: 'ana', original: 'class/ana', copies: ['class/fay'], ports: ['seeds/ana-cpp'] },
  { family: 'chen', original: 'class/chen', copies: [], ports: ['class/gil'] },
  { family: 'dana', original: 'class/dana', copies: [], ports: ['seeds/dana-py'] },
  { family: 'eve', original: 'seeds/eve', copies: [], ports: [] },
  { family: 'finn', original: 'seeds/finn', copies: [], ports: [] },
  { family: 'gwen', original: 'seeds/gwen', copies: [], ports: [] },
  { family: 'hugo', original: 'seeds/hugo', copies: [], ports: [] },
];

/** More independent submissions: the repository's other real-style Reversi fixtures, each a family of its own. */
const INDEPENDENT = [
  'students/strong',
  'students/fair',
  'python/greedy',
  'python/mcts',
  'python/real/mcts-deepcopy',
  'python/real/numpy-eval',
  'cpp/aiplayer-reversi',
];

const TRANSLATED = ['计算每一步的得分', 'Calcula la mejor jugada', '搜索最好的走法', 'Bewertet die Stellung', 'on garde le coin', '先手优势'];

type Lang = 'py' | 'cpp' | 'ts';
const langOf = (file: string): Lang | null => ({ '.py': 'py', '.cpp': 'cpp', '.ts': 'ts' } as Record<string, Lang>)[extname(file)] ?? null;

/** Comments rewritten in other languages (tokenizers drop comments: this is what a copier does, not a hurdle). */
function translateComments(text: string, lang: Lang, rng: Rng): string {
  const marker = lang === 'py' ? '#' : '//';
  return text
    .split('\n')
    .map((line) => {
      const at = line.indexOf(`${marker} `);
      if (at < 0 || /['"`]/.test(line.slice(at))) return line;
      return `${line.slice(0, at)}${marker} ${TRANSLATED[rng.int(TRANSLATED.length)]}`;
    })
    .join('\n');
}

/** Declared names (functions, methods, constants, locals) renamed consistently; the Board's API and keywords kept. */
function rename(text: string, lang: Lang, rng: Rng): string {
  const declared = new Set<string>();
  const patterns =
    lang === 'py'
      ? [/^\s*def (\w+)\(/gm, /^([A-Z_]{3,}) =/gm, /^\s+(\w{3,}) = /gm, /for (\w{3,}) in /g]
      : lang === 'ts'
        ? [/^(?:function|const) (\w+)/gm, /^ {2}(?:private |public )?(\w+)\(/gm, /(?:let|const) (\w{3,})\b/g]
        : [/^(?:int|char|long long|bool) (\w+)\(/gm, /^ {2}(?:int|long long|bool) (\w+)\(/gm, /(?:int|long long|char) (\w{3,}) = /g];
  const keep = new Set(['get_move', 'getMove', '__init__', 'AIPlayer', 'constructor', 'color', 'main', 'for', 'if', 'while', 'return']);
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) if (!keep.has(match[1]) && !match[1].startsWith('__')) declared.add(match[1]);
  let out = text;
  for (const name of declared) {
    // An attribute also read from another object (node.visits) keeps its name: renaming it half-way breaks the code.
    if (new RegExp(`(?<!self)(?<!this)\\.${name}\\b`).test(text)) continue;
    const fresh = `${name.replace(/[aeiou]/g, '').slice(0, 4) || 'v'}_${rng.int(1000)}`.replace(/^_/, 'v_');
    out = out.replace(new RegExp(`(?<![\\w.])${name}\\b|(?<=(?:self|this)\\.)${name}\\b`, 'g'), fresh);
  }
  return out;
}

/** Statements for dead code, drawn at random so that two copiers' dead code differs as it would. */
const DEAD: Record<Lang, ((n: number) => string)[]> = {
  py: [
    (n) => `    total += len(cells) * ${n}`,
    (n) => `    if total > ${n}:\n        total -= 1`,
    (n) => `    for k in range(${n}):\n        total ^= k`,
    (n) => `    while total > ${n}:\n        total //= 2`,
    (n) => `    cells = [c + ${n} for c in cells]`,
    (n) => `    total = max(total, ${n}) if cells else min(total, -${n})`,
  ],
  ts: [
    (n) => `  total += cells.length * ${n};`,
    (n) => `  if (total > ${n}) total -= 1;`,
    (n) => `  for (let k = 0; k < ${n}; k++) total ^= k;`,
    (n) => `  while (total > ${n}) total = Math.floor(total / 2);`,
    (n) => `  cells = cells.map((c) => c + ${n});`,
    (n) => `  total = cells.length > 0 ? Math.max(total, ${n}) : Math.min(total, -${n});`,
  ],
  cpp: [
    (n) => `  total += size * ${n};`,
    (n) => `  if (total > ${n}) total -= 1;`,
    (n) => `  for (int k = 0; k < ${n}; k++) total ^= k;`,
    (n) => `  while (total > ${n}) total /= 2;`,
    (n) => `  for (int i = 0; i < size; i++) total += cells[i] % ${n};`,
    (n) => `  total = size > 0 ? std::max(total, ${n}) : std::min(total, -${n});`,
  ],
};

/** An unused helper of random statements, placed before the class. */
function deadCode(text: string, lang: Lang, rng: Rng): string {
  const name = `unused${rng.int(10000)}`;
  const body = Array.from({ length: 4 + rng.int(4) }, () => DEAD[lang][rng.int(DEAD[lang].length)](rng.int(90) + 10)).join('\n');
  const helper =
    lang === 'py'
      ? `\n\ndef ${name}(cells):\n    total = 0\n${body}\n    return total\n\n`
      : lang === 'ts'
        ? `\nfunction ${name}(cells: number[]): number {\n  let total = 0;\n${body}\n  return total;\n}\n`
        : `\nstatic int ${name}(const int* cells, int size) {\n  int total = 0;\n${body}\n  return total;\n}\n`;
  const marker = ['\nclass AIPlayer', '\nexport class AIPlayer'].find((each) => text.includes(each));
  const at = marker ? text.indexOf(marker) : -1;
  return at < 0 ? text + helper : `${text.slice(0, at)}${helper}${text.slice(at)}`;
}

/** The class's methods in another order (__init__/the constructor stays first). */
function reorder(text: string, lang: Lang, rng: Rng): string {
  if (lang === 'cpp') return text;
  const head = lang === 'py' ? /^ {4}def /m : /^ {2}(?:private |public )?\w+\(.*\)(?::.*)? \{$/m;
  const classAt = text.search(lang === 'py' ? /^class AIPlayer/m : /^export class AIPlayer/m);
  if (classAt < 0) return text;
  const body = text.slice(classAt);
  const lines = body.split('\n');
  const blocks: string[][] = [];
  let prefix: string[] = [];
  let tail: string[] = [];
  for (const line of lines) {
    if (head.test(line)) blocks.push([line]);
    else if (blocks.length === 0) prefix.push(line);
    else blocks[blocks.length - 1].push(line);
  }
  if (lang === 'ts' && blocks.length > 0) {
    // The class's closing brace belongs to no method.
    const last = blocks[blocks.length - 1];
    const close = last.lastIndexOf('}');
    tail = last.splice(close);
  }
  const fixed = blocks.filter((block) => /__init__|constructor/.test(block[0]));
  const movable = blocks.filter((block) => !fixed.includes(block));
  for (let i = movable.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [movable[i], movable[j]] = [movable[j], movable[i]];
  }
  const ensureGap = (block: string[]): string[] => (block[block.length - 1].trim() === '' ? block : [...block, '']);
  prefix = prefix.length > 0 ? prefix : [];
  return text.slice(0, classAt) + [...prefix, ...[...fixed, ...movable].flatMap(ensureGap), ...tail].join('\n');
}

/** A Python submission's module-level helpers moved into helpers.py (imported back with *). */
function splitPython(files: Record<string, string>): Record<string, string> {
  const main = files['AIPlayer.py'];
  const at = main.indexOf('\nclass AIPlayer');
  if (at < 0) return files;
  const top = main.slice(0, at);
  const imports = top.split('\n').filter((line) => /^(from|import) /.test(line));
  const helpers = top.split('\n').filter((line) => !/^(from|import) /.test(line)).join('\n');
  return { ...files, 'helpers.py': `${imports.join('\n')}\n${helpers}\n`, 'AIPlayer.py': `${imports.join('\n')}\nfrom helpers import *\n${main.slice(at)}` };
}

function readFolder(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir)) files[name] = readFileSync(join(dir, name), 'utf8');
  return files;
}

function writeFolder(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** Disguise every source file of a submission with the chosen transformations. */
function disguise(files: Record<string, string>, steps: string[], rng: Rng): Record<string, string> {
  let out: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    const lang = langOf(name);
    // The platform files stay as handed out.
    if (!lang || name === 'board.py' || name === 'func_timeout.py') {
      out[name] = text;
      continue;
    }
    let changed = text;
    if (steps.includes('rename')) changed = rename(changed, lang, rng);
    if (steps.includes('reorder')) changed = reorder(changed, lang, rng);
    if (steps.includes('dead')) changed = deadCode(changed, lang, rng);
    if (steps.includes('comments')) changed = translateComments(changed, lang, rng);
    out[name] = changed;
  }
  if (steps.includes('split') && out['AIPlayer.py']) out = splitPython(out);
  return out;
}

const VARIANTS = [['rename', 'comments'], ['reorder', 'dead'], ['rename', 'reorder', 'dead', 'comments'], ['split', 'rename', 'dead']];

/** The labelled class in `dir` (one folder per student) and its labels. */
export function buildLabelledSet(dir: string, seed = 1): LabelledStudent[] {
  const rng = createRng(seed);
  const materialised = materialiseClass(join(dir, '..', 'fixture-class'));
  const from = (path: string): string => (path.startsWith('class/') ? join(materialised, path.slice('class/'.length)) : join(FIXTURES, path));
  const students: LabelledStudent[] = [];
  for (const { family, original, copies, ports } of FAMILIES) {
    const source = readFolder(from(original));
    writeFolder(join(dir, family), source);
    students.push({ id: family, family });
    for (const copy of copies) {
      const id = `${family}-${copy.split('/').pop()}`;
      cpSync(from(copy), join(dir, id), { recursive: true });
      students.push({ id, family });
    }
    for (const port of ports) {
      const id = `${family}-port-${port.split('/').pop()}`;
      cpSync(from(port), join(dir, id), { recursive: true });
      students.push({ id, family, port: true });
    }
    VARIANTS.forEach((steps, index) => {
      if (steps.includes('split') && !source['AIPlayer.py']) return;
      const id = `${family}-v${index + 1}-${steps.join('-')}`;
      writeFolder(join(dir, id), disguise(source, steps, rng));
      students.push({ id, family });
    });
  }
  for (const path of INDEPENDENT) {
    const id = `solo-${path.split('/').pop()}`;
    cpSync(packageFile('tests', 'fixtures', path), join(dir, id), { recursive: true });
    students.push({ id, family: id });
  }
  // The merge: fay's two files back in one (tables.py inlined where it was imported).
  const fay = readFolder(from('class/fay'));
  const merged = fay['AIPlayer.py'].replace(/^from tables import .*$/m, fay['tables.py']);
  writeFolder(join(dir, 'ana-merged'), { 'AIPlayer.py': merged, 'board.py': fay['board.py'] });
  students.push({ id: 'ana-merged', family: 'ana' });
  // Starter only: the two in the class folder, and two more with a cosmetic edit each.
  for (const id of ['hal', 'ivy']) {
    cpSync(from(`class/${id}`), join(dir, `base-${id}`), { recursive: true });
    students.push({ id: `base-${id}`, family: `base-${id}`, baseOnly: true });
  }
  const starter = readFileSync(packageFile('student-template', 'python', 'src', 'AIPlayer.py'), 'utf8');
  const board = readFileSync(packageFile('harness', 'games', 'reversi', 'board.py'), 'utf8');
  writeFolder(join(dir, 'base-sam'), { 'AIPlayer.py': starter.replace('for a start.', 'for a start. (sam)'), 'board.py': board });
  writeFolder(join(dir, 'base-tia'), { 'AIPlayer.py': translateComments(starter, 'py', rng), 'board.py': board, 'func_timeout.py': readFileSync(packageFile('harness', 'sandbox', 'python', 'func_timeout.py'), 'utf8') });
  students.push({ id: 'base-sam', family: 'base-sam', baseOnly: true }, { id: 'base-tia', family: 'base-tia', baseOnly: true });
  return students;
}

/** `count` students synthesised from the seeds (each a disguised copy with its own random edits), for timing. */
export function buildLargeClass(dir: string, count: number, seed = 2): void {
  const rng = createRng(seed);
  const materialised = materialiseClass(join(dir, '..', 'fixture-class-large'));
  const from = (path: string): string => (path.startsWith('class/') ? join(materialised, path.slice('class/'.length)) : join(FIXTURES, path));
  const sources = FAMILIES.flatMap(({ original, copies, ports }) => [original, ...copies, ...ports]).map((path) => readFolder(from(path)));
  for (let i = 0; i < count; i++) {
    const steps = VARIANTS[rng.int(VARIANTS.length)];
    writeFolder(join(dir, `student-${String(i).padStart(3, '0')}`), disguise(sources[rng.int(sources.length)], [...steps, 'dead'], rng));
  }
}
