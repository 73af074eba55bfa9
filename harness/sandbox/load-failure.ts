/**
 * Why a compiled C++ player could not be loaded, read from the dynamic loader's own message (dlerror), so the
 * verdict names the cause and the hint fits it: an address-space refusal, a missing symbol, a wrong architecture,
 * a missing library. The loader's words stay in the message after the cause.
 */
export interface LoadFailure {
  /** A few words: what kind of failure it is. */
  cause: string;
  /** What to do about it, one line. */
  hint: string;
}

const KINDS: { test: RegExp; failure: (match: RegExpExecArray) => LoadFailure }[] = [
  {
    test: /failed to map segment|cannot allocate memory|mmap/i,
    failure: () => ({
      cause: 'address-space refusal: the machine could not map the library (its static arrays are bigger than it can reserve)',
      hint: 'make the static pools smaller (or allocate them with new in the first getPoint): the machine cannot reserve that much, touched or not',
    }),
  },
  {
    test: /undefined symbol: (\S+)/,
    failure: (match) => ({
      cause: `missing symbol ${match[1]}: the library calls a function or uses a variable that no source defines`,
      hint: `define ${demangledHint(match[1])} in one of your .cpp files (check its spelling and signature), and submit every .cpp file the code needs`,
    }),
  },
  {
    test: /wrong ELF class|invalid ELF header|ELF file|file too short|machine type|not an ELF/i,
    failure: () => ({
      cause: 'wrong architecture: the file is not a Linux x86-64 shared library',
      hint: 'build it on Linux for x86-64: g++ -std=c++17 -O2 -fPIC -shared Strategy.cpp Judge.cpp -o player.so (a .so, .dll or .dylib built elsewhere does not load)',
    }),
  },
  {
    test: /(\S+\.so[.\d]*): cannot open shared object file/,
    failure: (match) => ({
      cause: `missing library ${match[1]}: the library depends on it and this machine does not have it`,
      hint: `do not link against ${match[1]}: only the C++ standard library is available to submissions`,
    }),
  },
];

/** The symbol as a student would recognise it: mangled names are told apart from plain ones. */
function demangledHint(symbol: string): string {
  const mangled = /^_Z\d+([A-Za-z_]\w*)/.exec(symbol);
  if (!mangled) return symbol;
  const length = Number(/^_Z(\d+)/.exec(symbol)?.[1] ?? 0);
  return `${mangled[1].slice(0, length)}(…) (C++ name ${symbol})`;
}

/** The cause and hint for a loader message, or null when it is not one the loader gives. */
export function explainLoadFailure(message: string): LoadFailure | null {
  for (const kind of KINDS) {
    const match = kind.test.exec(message);
    if (match) return kind.failure(match);
  }
  return null;
}

/** The mark the C++ host puts on getPoint/clearPoint found only under their C++ names (no extern "C"). */
export const CXX_LINKAGE_MARK = ' (C++ name: not extern "C")';

export const EXTERN_C_HINT =
  'declare getPoint and clearPoint extern "C", as the SDK\'s Strategy.h does: #include "Strategy.h" above their definitions, or write extern "C" Point* getPoint(…)';
