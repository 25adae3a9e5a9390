import type { ComparedDriver } from './loadBuild.js';

/** Sequential or parallel acquire + release cycles, each task on a lock of its own (scenarios 1 and 2). */
export interface CyclesJob {
  readonly kind: 'cycles';
  readonly tasks: number;
  readonly cyclesPerTask: number;
}

/** Tasks of one process taking one lock in turn with other processes (scenario 3). */
export interface ContendJob {
  readonly kind: 'contend';
  readonly name: string;
  readonly tasks: number;
  readonly acquisitions: number;
}

/** What one worker process runs, on which build and driver. */
export interface CompareJob {
  readonly checkout: string;
  readonly driver: ComparedDriver;
  readonly port: number;
  readonly work: CyclesJob | ContendJob;
}

/** A cycles job's measurement. */
export interface CyclesResult {
  readonly ms: number;
  readonly cycles: number;
  readonly clientCpuUs: number;
}

/** A contend job's measurement: from the go to its last release, and each acquisition's wait (asked → held), in milliseconds. */
export interface ContendResult {
  readonly ms: number;
  readonly waitsMs: readonly number[];
}

/** The parent's signal that every worker of a run is ready: start now. */
export const GO = 'go';
/** A worker's report that it is connected and warmed up. */
export const READY = 'ready';
