import type { Environment } from './connectionArgs.js';

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
  /**
   * Aborts when the user interrupts (Ctrl-C): the command drops its connections and fails with
   * `interrupted`.
   */
  readonly signal: AbortSignal;
  /** The wall clock, for deadlines. */
  now(): number;
  /**
   * The environment variables to read `REDIS_URL` and `DEADBOLT_PASSWORD` from (the bin passes
   * `process.env`); none are read when absent.
   */
  readonly env?: Environment;
}

/** Writes `value` as JSON on one line (BigInt-free: tokens are already decimal strings). */
export function writeJson(io: CommandIo, value: unknown): void {
  io.write(`${JSON.stringify(value)}\n`);
}
