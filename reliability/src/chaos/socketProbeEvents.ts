/** What the test process hands a socket probe (`src/workers/socketProbe.ts`). */
export interface SocketProbeJob {
  readonly host: string;
  readonly port: number;
}

/** The environment variable a socket probe reads its job from. */
export const SOCKET_PROBE_JOB_VARIABLE = 'DEADBOLT_CHAOS_SOCKET_PROBE_JOB';

/** What a socket probe prints, one JSON line each. */
export type SocketProbeEvent =
  | { readonly event: 'ready' }
  | { readonly event: 'pong' }
  | { readonly event: 'silent' }
  | { readonly event: 'closed'; readonly reason: string };
