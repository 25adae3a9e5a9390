import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startProcessNode } from '../src/node/process-node.js';
import { requireExecutable } from '../src/server/binaries.js';
import {
  SERVER_ENV,
  SERVERS_DIR_ENV,
  ServerBuildError,
  selectedServerBuild,
  serversDir,
} from '../src/server/built-servers.js';

// DEADBOLT_SERVER picks a server build by id; an unknown id or a build that is not there fails
// loudly, never falling back to the redis-server on PATH.

let dir: string;
const saved = { server: process.env[SERVER_ENV], dir: process.env[SERVERS_DIR_ENV] };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-servers-'));
  process.env[SERVERS_DIR_ENV] = dir;
});

afterEach(() => {
  for (const [name, value] of [
    [SERVER_ENV, saved.server],
    [SERVERS_DIR_ENV, saved.dir],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A build of `id` in the temporary servers folder whose server is the redis-server on PATH. */
function linkSystemServer(id: string): void {
  delete process.env[SERVER_ENV];
  const system = requireExecutable('redis-server', 'the test');
  fs.mkdirSync(path.join(dir, id, 'bin'), { recursive: true });
  fs.symlinkSync(system, path.join(dir, id, 'bin', 'redis-server'));
  fs.symlinkSync(requireExecutable('redis-cli', 'the test'), path.join(dir, id, 'bin', 'redis-cli'));
  const manifest = { id, server: 'redis-server', cli: 'redis-cli', version: '7.0.15' };
  fs.writeFileSync(path.join(dir, id, 'server.json'), JSON.stringify(manifest));
}

describe('DEADBOLT_SERVER', () => {
  it.each([undefined, '', 'system'])('%j means the redis-server on PATH', (id) => {
    if (id === undefined) delete process.env[SERVER_ENV];
    else process.env[SERVER_ENV] = id;
    expect(selectedServerBuild()).toBeUndefined();
  });

  it('names a built server, which every start uses', async () => {
    linkSystemServer('redis-8.0');
    process.env[SERVER_ENV] = 'redis-8.0';
    expect(selectedServerBuild()).toEqual({
      id: 'redis-8.0',
      server: path.join(dir, 'redis-8.0', 'bin', 'redis-server'),
      cli: path.join(dir, 'redis-8.0', 'bin', 'redis-cli'),
      version: '7.0.15',
    });
    expect(requireExecutable('redis-server', 'the test')).toBe(path.join(dir, 'redis-8.0', 'bin', 'redis-server'));
    const node = await startProcessNode();
    try {
      const commandLine = fs.readFileSync(`/proc/${node.pid}/cmdline`, 'utf8');
      expect(commandLine.startsWith(path.join(dir, 'redis-8.0', 'bin', 'redis-server'))).toBe(true);
    } finally {
      await node.stop();
    }
  });

  it('an unknown id fails, naming the ids', () => {
    process.env[SERVER_ENV] = 'redis-9.9';
    expect(() => requireExecutable('redis-server', 'the test')).toThrow(ServerBuildError);
    expect(() => selectedServerBuild()).toThrow(
      'DEADBOLT_SERVER=redis-9.9 is no server id; the ids are system, redis-8.0, valkey-8.1, redis-6.0',
    );
  });

  it('a build that is not there fails with how to build it, and starts nothing', async () => {
    process.env[SERVER_ENV] = 'valkey-8.1';
    await expect(startProcessNode()).rejects.toThrow(ServerBuildError);
    expect(() => selectedServerBuild()).toThrow(/bash scripts\/bootstrap\.sh --servers.*build\.sh valkey-8\.1/);
  });

  it('a build whose binary is gone fails too', () => {
    linkSystemServer('redis-6.0');
    fs.rmSync(path.join(dir, 'redis-6.0', 'bin', 'redis-cli'));
    process.env[SERVER_ENV] = 'redis-6.0';
    expect(() => selectedServerBuild()).toThrow(/redis-cli is missing or not executable/);
  });

  it('the builds live in DEADBOLT_SERVERS_DIR, else the user cache folder', () => {
    expect(serversDir()).toBe(dir);
    delete process.env[SERVERS_DIR_ENV];
    expect(serversDir()).toMatch(/deadbolt\/servers$/);
  });
});
