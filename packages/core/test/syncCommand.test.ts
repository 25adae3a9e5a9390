import { describe, expect, it } from 'vitest';
import { syncCommandFor } from '../src/replication/syncCommand.js';

// INFO as servers send it: CRLF line ends, `# Section` headers, `field:value` lines.
const info = (version: string, aof: 0 | 1) =>
  [
    '# Server',
    `redis_version:${version}`,
    'redis_mode:standalone',
    '',
    '# Persistence',
    'loading:0',
    `aof_enabled:${aof}`,
    '',
  ].join('\r\n');

describe('syncCommandFor', () => {
  it.each([
    ['7.2.0', 1, 'WAITAOF'],
    ['8.0.2', 1, 'WAITAOF'],
    ['7.2.4', 0, 'WAIT'],
    // Redis 7.0 has no WAITAOF, AOF or not: what this machine's 7.0.15 gets.
    ['7.0.15', 1, 'WAIT'],
    ['6.2.14', 1, 'WAIT'],
  ] as const)('Redis %s with aof_enabled:%i waits with %s', (version, aof, command) => {
    expect(syncCommandFor(info(version, aof))).toBe(command);
  });

  it('falls back to WAIT when the server does not say', () => {
    expect(syncCommandFor('')).toBe('WAIT');
    expect(syncCommandFor('aof_enabled:1\r\n')).toBe('WAIT');
  });
});
