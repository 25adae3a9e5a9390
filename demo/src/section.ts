// What every section of the demo shares: its shape, its verdict, the standalone server most
// sections run on, and the worker processes some of them spawn.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Executor, LockClient } from '@deadbolt/core';
import type { Redis } from 'ioredis';

/** The standalone server the sections share (started once, by the first section that asks). */
export interface Shared {
  /** `redis://host:port`, for worker processes to connect to. */
  readonly url: string;
  /** A plain connection, for the data the locks protect and for clean-up. */
  readonly redis: Redis;
  /** The executor over `redis` the lock client runs on, for anything else that runs scripts. */
  readonly executor: Executor;
  /** One lock client for the whole process, as an application would have. */
  readonly locks: LockClient;
}

/** What a section is given: the shared server, started on first use so `pnpm demo redlock` starts none. */
export interface SectionContext {
  shared(): Promise<Shared>;
}

/**
 * One section's outcome. It is computed from what the section observed, so that a lock that
 * misbehaves shows up as a ✘ rather than as a confident line printed regardless.
 */
export interface Verdict {
  readonly kind: string;
  readonly ok: boolean;
  readonly text: string;
}

/** One lock kind's part of the tour. */
export interface Section {
  /** The name `pnpm demo <name>` selects it by. */
  readonly name: string;
  /** The class it shows, as its verdict names it. */
  readonly kind: string;
  /** One line for the list of sections. */
  readonly about: string;
  run(context: SectionContext): Promise<Verdict>;
}

/** The verdict line, e.g. `✔ FencedLock: stale write refused (token 3 < 4)`. */
export function verdictLine({ kind, ok, text }: Verdict): string {
  return `${ok ? '✔' : '✘'} ${kind}: ${text}`;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds since `started`, padded for a timeline column. */
export const stamp = (started: number) => `${(performance.now() - started).toFixed(0).padStart(5)} ms`;

const require = createRequire(import.meta.url);
const worker = fileURLToPath(new URL('./worker.ts', import.meta.url));

/**
 * Runs worker.ts in a process of its own (through tsx, as `pnpm demo` runs main.ts), its output
 * interleaved with ours: separate processes are the point of the contention sections.
 */
export function runWorker(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', require.resolve('tsx'), worker, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`worker ${args.join(' ')} exited with code ${code}`)),
    );
  });
}
