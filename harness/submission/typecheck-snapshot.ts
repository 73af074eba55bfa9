/**
 * The type check's start-up, cached: TypeScript's compiler with its lib files and @types/node already parsed and
 * bound, saved as a V8 start-up snapshot (`node --build-snapshot`) in the cache. Those ~50k lines of
 * declarations are ~90% of a cold `tsc` run; from the snapshot a check parses only the student's files and the
 * `referee` declarations. The first check builds the snapshot while it type-checks (the answer is printed first;
 * the snapshot is written after, and renamed into place only when complete). A snapshot that will not run is
 * deleted and the check falls back to plain `tsc`.
 *
 * Every other file the build's check parsed (the harness's own declarations behind `referee`, packages @types/node
 * imports, the first student's file) is kept too, and reused only while its text is what was parsed: a reused
 * file is one whose content is unchanged, never one whose name matches. Reading a file is far cheaper than
 * parsing it in a fresh process, where the parser runs cold (issue #35: 38 such files, 87 KB, took ~350 ms).
 *
 * The script below runs in two modes: building (argv: tsconfig), where it checks and then keeps the files;
 * and from the snapshot (argv: tsconfig), where it checks reusing them. Both print what `tsc -p --pretty false`
 * prints, then a line DONE_MARK.
 */
export const DONE_MARK = '::referee-typecheck-done';

export const SNAPSHOT_SCRIPT = String.raw`'use strict';
const fs = require('fs');
const path = require('path');
const v8 = require('v8');
const vm = require('vm');
const [tsFile, ...fixedRoots] = JSON.parse(process.env.REFEREE_TS_SNAPSHOT);
const source = fs.readFileSync(tsFile, 'utf8');
const module_ = { exports: {} };
vm.runInThisContext('(function (exports, require, module, __filename, __dirname) {' + source + '\n})', { filename: tsFile })(
  module_.exports, require, module_, tsFile, path.dirname(tsFile));
const ts = module_.exports;
/**
 * Parsed and bound files: path -> SourceFile. Those under the fixed roots never change for this TypeScript and
 * @types/node (the snapshot's key); any other is reused only while the file's text is the parsed text.
 */
const parsedFiles = new Map();
const isFixed = (file) => fixedRoots.some((root) => file.startsWith(root));
const unchanged = (file, known) => isFixed(file) || ts.sys.readFile(file) === known.text;

function check(configPath) {
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  const host = ts.createCompilerHost(config.options);
  const read = host.getSourceFile;
  host.getSourceFile = (file, language, onError, create) => {
    const known = parsedFiles.get(file);
    if (known && unchanged(file, known)) return known;
    const parsed = read.call(host, file, language, onError, create);
    if (parsed) parsedFiles.set(file, parsed);
    return parsed;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config) });
  // tsc's own order (emitFilesAndReportErrors): syntax first; options, global and semantic ones only without it.
  const all = program.getConfigFileParsingDiagnostics().slice();
  const configCount = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === configCount) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === configCount) all.push(...program.getSemanticDiagnostics());
  }
  const format = { getCurrentDirectory: () => process.cwd(), getCanonicalFileName: (f) => f, getNewLine: () => '\n' };
  process.stdout.write(ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(all), format) + '\n${DONE_MARK}\n');
  return all.length;
}

if (v8.startupSnapshot.isBuildingSnapshot()) {
  check(process.argv[process.argv.length - 1]);
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    process.exitCode = check(process.argv[process.argv.length - 1]) > 0 ? 2 : 0;
  });
}
`;
