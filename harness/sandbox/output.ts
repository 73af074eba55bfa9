/**
 * The player's stdout and stderr, captured per call and capped: the first `cap` bytes are kept, the rest only
 * counted, so a flood costs the parent CPU but never memory. A small rolling tail of what can carry stderr is kept
 * apart for explaining crashes (V8's "heap out of memory" arrives there). Sandboxed hosts write both to one pipe
 * (launch.ts mergeOutput: the order written is kept), so the tail is of that one stream; a Botzone bot's only
 * captured stream is its stderr (its stdout is its answers).
 */
import type { CapturedOutput } from '../referee/player.js';

export const OUTPUT_CAP_BYTES = 64 * 1024;
const TAIL_BYTES = 4096;

export class OutputCapture {
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private dropped = 0;
  private tail = '';

  constructor(private readonly cap = OUTPUT_CAP_BYTES) {}

  add(chunk: Buffer, fromStderr: boolean): void {
    const room = this.cap - this.keptBytes;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      // Copy: a subarray would pin the whole (possibly large) chunk in memory.
      this.kept.push(Buffer.from(part));
      this.keptBytes += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(0, room));
    if (fromStderr) this.tail = (this.tail + chunk.subarray(Math.max(0, chunk.length - TAIL_BYTES)).toString('utf8')).slice(-TAIL_BYTES);
  }

  /** What was captured since the last take, then start afresh (undefined when there was nothing). */
  take(): CapturedOutput | undefined {
    if (this.keptBytes === 0 && this.dropped === 0) return undefined;
    const output = { text: Buffer.concat(this.kept).toString('utf8'), droppedBytes: this.dropped };
    this.kept = [];
    this.keptBytes = 0;
    this.dropped = 0;
    return output;
  }

  /** The last few KB the player wrote to stderr (kept across takes). */
  stderrTail(): string {
    return this.tail;
  }
}
