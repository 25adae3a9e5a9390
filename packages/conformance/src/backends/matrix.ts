// What the suites run on: every adapter over every topology and both majors of each driver,
// narrowed by environment variables, and what each driver can do there.
import {
  DEFAULT_MAJOR,
  type AdapterName,
  type DriverMajor,
  type RespVersion,
  type TopologyName,
} from './ConnectionSpec.js';

/** An adapter on a topology: one entry of {@link BACKENDS}. */
export interface AdapterOnTopology {
  readonly adapter: AdapterName;
  readonly topology: TopologyName;
}

const ALL_BACKENDS: readonly AdapterOnTopology[] = [
  { adapter: 'ioredis', topology: 'standalone' },
  { adapter: 'ioredis', topology: 'cluster' },
  { adapter: 'node-redis', topology: 'standalone' },
  { adapter: 'node-redis', topology: 'cluster' },
  { adapter: 'valkey-glide', topology: 'standalone' },
  { adapter: 'valkey-glide', topology: 'cluster' },
];

/**
 * Every adapter × topology, for `describe.each(BACKENDS)`. `DEADBOLT_BACKENDS` narrows it, e.g.
 * `DEADBOLT_BACKENDS=ioredis/cluster,node-redis/standalone`.
 */
export const BACKENDS: readonly AdapterOnTopology[] = selectBackends(ALL_BACKENDS, process.env['DEADBOLT_BACKENDS']);

/**
 * The adapters whose driver has a Sentinel client (ioredis and node-redis; Valkey GLIDE for Node.js
 * has none) on the `sentinel` topology, for the suites that also run there. `DEADBOLT_BACKENDS`
 * narrows it as it does {@link BACKENDS}, e.g. `DEADBOLT_BACKENDS=ioredis/sentinel`.
 */
export const SENTINEL_BACKENDS: readonly AdapterOnTopology[] = selectBackends(
  [
    { adapter: 'ioredis', topology: 'sentinel' },
    { adapter: 'node-redis', topology: 'sentinel' },
  ],
  process.env['DEADBOLT_BACKENDS'],
);

/** {@link BACKENDS} and {@link SENTINEL_BACKENDS}: every deployment, for the suites that run on all of them. */
export const BACKENDS_WITH_SENTINEL: readonly AdapterOnTopology[] = [...BACKENDS, ...SENTINEL_BACKENDS];

/**
 * Both majors of each driver, for the tests where the driver's version matters: the executor
 * contract and its faults (reconnects, failovers). The lock suites above the executor run on
 * {@link DEFAULT_MAJOR} only. `DEADBOLT_MAJORS` narrows it, e.g. `DEADBOLT_MAJORS=6`.
 */
export const MAJORS: readonly DriverMajor[] = selectFrom<DriverMajor>([5, 6], process.env['DEADBOLT_MAJORS'], String);

/** {@link MAJORS} for a driver that has both, the one GLIDE major (as {@link DEFAULT_MAJOR}) for GLIDE. */
export function majorsOf(adapter: AdapterName): readonly DriverMajor[] {
  return adapter === 'valkey-glide' ? MAJORS.filter((major) => major === DEFAULT_MAJOR) : MAJORS;
}

/**
 * Whether the adapter can subscribe a sharded channel (`SSUBSCRIBE`) on a standalone server:
 * Valkey GLIDE cannot, its standalone client has classic pub/sub only (sharded pub/sub is a
 * cluster feature there).
 */
export function shardedOnStandalone(adapter: AdapterName): boolean {
  return adapter !== 'valkey-glide';
}

/**
 * The RESP versions the driver can speak: ioredis 5 has RESP2 only, the others both. A
 * connection asked for another fails.
 */
export function respVersions(adapter: AdapterName, major: DriverMajor = DEFAULT_MAJOR): readonly RespVersion[] {
  return adapter === 'ioredis' && major === 5 ? [2] : [2, 3];
}

function selectBackends(all: readonly AdapterOnTopology[], filter: string | undefined) {
  return selectFrom(all, filter, ({ adapter, topology }) => `${adapter}/${topology}`);
}

/** The entries whose label a comma-separated filter names; all of them when it is unset or blank. */
function selectFrom<T>(all: readonly T[], filter: string | undefined, label: (entry: T) => string): readonly T[] {
  if (filter === undefined || filter.trim() === '') return all;
  const wanted = new Set(filter.split(',').map((entry) => entry.trim()));
  return all.filter((entry) => wanted.has(label(entry)));
}
