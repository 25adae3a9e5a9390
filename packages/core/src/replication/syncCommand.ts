/** The command that waits for replicas: `WAIT`, or `WAITAOF` where the server has AOF on and knows it. */
export type SyncCommand = 'WAIT' | 'WAITAOF';

/**
 * Chooses the sync command from a server's `INFO` text: `WAITAOF` when AOF is on
 * (`aof_enabled:1`) and the server is Redis 7.2 or later, which introduced it; `WAIT` otherwise.
 */
export function syncCommandFor(info: string): SyncCommand {
  const fields = new Map<string, string>();
  for (const line of info.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const [major = 0, minor = 0] = (fields.get('redis_version') ?? '').split('.').map(Number);
  const hasWaitaof = major > 7 || (major === 7 && minor >= 2);
  return hasWaitaof && fields.get('aof_enabled') === '1' ? 'WAITAOF' : 'WAIT';
}
