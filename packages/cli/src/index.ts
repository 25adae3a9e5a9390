/**
 * The `deadbolt` command's building blocks, for scripts and tools of your own: connect to a
 * server or cluster, list and read locks in Redisson's layout (taken by Deadbolt or by Java
 * services using Redisson), and force-unlock one through its kind's own `forceUnlock()`.
 *
 * @packageDocumentation
 */
export { connect, type Connection, type ConnectOptions, type TlsSettings } from './connection.js';
export { CliError, EXIT_CODES, type CliErrorCode } from './errors.js';
export { forceUnlock } from './forceUnlock.js';
export { inspectLock, listLocks, type ListOptions } from './inspect.js';
export type { Holder, LockInfo, LockKindName, OwnerName, QueuedWaiter } from './LockInfo.js';
export { runCli } from './cli.js';
export type { CommandIo } from './io.js';
export type { WatchLook } from './commands/watch.js';
export type { LockEvent } from './watchEvents.js';
export { DEFAULT_URL, parseRedisUrl, type ServerAddress } from './url.js';
