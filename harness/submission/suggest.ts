/** The fix for a submission that exports its player under the wrong name. */
import { distance } from 'fastest-levenshtein';
import { CXX_LINKAGE_MARK, EXTERN_C_HINT } from '../sandbox/load-failure.js';

/** A one-line hint naming the export to rename, given what the module exports (Python: the classes it defines). */
export function exportHint(exported: readonly string[], wanted = 'AIPlayer', language?: string): string {
  const near = exported
    .map((name) => ({ name, cost: name.toLowerCase() === wanted.toLowerCase() ? 0 : distance(name, wanted) }))
    .filter(({ cost }) => cost <= 3)
    .sort((a, b) => a.cost - b.cost)[0];
  if (language === 'C++') {
    // The SDK's interface is found by C names: a getPoint without extern "C" is there under its C++ name.
    if (exported.some((name) => name.endsWith(CXX_LINKAGE_MARK))) return EXTERN_C_HINT;
    const sdk = exported.filter((name) => name === 'getPoint' || name === 'clearPoint');
    if (sdk.length === 1) return `define ${sdk[0] === 'getPoint' ? 'clearPoint' : 'getPoint'} too, extern "C" as in the SDK's Strategy.h (#include "Strategy.h")`;
    return 'define extern "C" getPoint and clearPoint as the SDK\'s Strategy.h declares them (#include "Strategy.h"), or a C++ AIPlayer (referee init --cpp)';
  }
  if (language === 'Python') {
    if (near) return `rename the class ${near.name} to ${wanted} (names are case-sensitive): class ${wanted}: …`;
    if (exported.length > 0) return `name your player class ${wanted} (found ${exported.join(', ')})`;
    return `add class ${wanted} with __init__(self, color) and get_move(self, board)`;
  }
  if (near) return `rename the export ${near.name} to ${wanted} (names are case-sensitive): export class ${wanted} …`;
  if (exported.length === 1) return `export your class as ${wanted}: export class ${wanted} … (found ${exported[0]})`;
  if (exported.length > 1) return `export your class as ${wanted} (found ${exported.join(', ')})`;
  return `add export class ${wanted} { constructor(color) … getMove(board) … } (or export default the class)`;
}
