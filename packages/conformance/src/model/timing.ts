/**
 * The times a model run uses: short, so that leases run out and watchdogs renew many times within
 * a run of a few seconds, and the tolerances its checks allow for the event loop and round trips.
 */
export interface ModelTiming {
  /** The clients' `watchdogTimeout`: a watchdog hold's lease, renewed every third of it. */
  readonly watchdogTimeout: number;
  /** The clients' `commandTimeout`. */
  readonly commandTimeout: number;
  /** The fixed leases an acquisition may ask for. */
  readonly leases: readonly number[];
  /** The wait times of `acquire` and `tryAcquire` with waiting. */
  readonly waits: readonly number[];
  /** The pauses between steps that let leases run out. */
  readonly sleeps: readonly number[];
  /** The leases `extend` sets. */
  readonly extends: readonly number[];
  /**
   * How far a time-based belief may be off and still count as certain: a hold whose lease ends
   * within this of a step may or may not have expired by then. Also the slack of TTL checks.
   */
  readonly tolerance: number;
  /** How late a signal may abort after its lease ended (timer lag). */
  readonly signalSlack: number;
}

/** The default timing; `MODEL_TOLERANCE_MS` widens the tolerances on a loaded machine. */
export function modelTiming(env: NodeJS.ProcessEnv = process.env): ModelTiming {
  const tolerance = Number(env['MODEL_TOLERANCE_MS'] ?? 80);
  return {
    watchdogTimeout: 900,
    commandTimeout: 2_000,
    leases: [120, 300, 700, 1_200, 2_000],
    waits: [60, 250],
    sleeps: [10, 80, 250, 600],
    extends: [150, 600, 1_500],
    tolerance,
    signalSlack: 4 * tolerance,
  };
}

/** Milliseconds on the monotonic clock, as the library measures leases. */
export function now(): number {
  return performance.now();
}
