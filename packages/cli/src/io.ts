/** Where a command writes and reads: the process's streams in the bin, buffers in tests. */
export interface CommandIo {
  /** Writes one piece of output (a line or a frame) to stdout. */
  write(text: string): void;
  /** Whether stdout is a terminal: `watch` redraws in place there, and appends frames elsewhere. */
  readonly isTty: boolean;
  /**
   * Asks a yes/no question on the terminal; `undefined` when stdin is not a terminal, so nobody
   * can answer.
   */
  readonly confirm: ((question: string) => Promise<boolean>) | undefined;
  /** Aborts when the user interrupts (Ctrl-C), for `watch`. */
  readonly signal: AbortSignal;
  /** The wall clock, for deadlines. */
  now(): number;
}

/** Writes `value` as JSON on one line (BigInt-free: tokens are already decimal strings). */
export function writeJson(io: CommandIo, value: unknown): void {
  io.write(`${JSON.stringify(value)}\n`);
}
