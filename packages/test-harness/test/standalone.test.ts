import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, parseInfo, RedisTimeoutError, RUN_DIR_ENV, startStandalone, type RedisNode } from '../src/index.js';

describe('startStandalone', () => {
  let node: RedisNode;

  beforeAll(async () => {
    node = await startStandalone();
  });
  afterAll(async () => {
    await node.stop();
  });

  it('answers PING on a free port that is not 6379', async () => {
    expect(await node.command('PING')).toBe('PONG');
    expect(node.port).not.toBe(6379);
    expect(node.port + 10_000).toBeLessThanOrEqual(65_535);
    expect(node.url).toBe(`redis://127.0.0.1:${node.port}`);
    expect(isAlive(node.pid)).toBe(true);
  });

  it('runs without persistence, bound to 127.0.0.1, in a temp dir', async () => {
    expect(await node.command('CONFIG', 'GET', 'save')).toEqual(['save', '']);
    expect(await node.command('CONFIG', 'GET', 'appendonly')).toEqual(['appendonly', 'no']);
    expect(await node.command('CONFIG', 'GET', 'bind')).toEqual(['bind', '127.0.0.1']);
    const [, dir] = (await node.command('CONFIG', 'GET', 'dir')) as [string, string];
    expect(dir.startsWith(fs.realpathSync(os.tmpdir()))).toBe(true);
  });

  it('records its pid in the run dir the global setup made (the env var reached this worker)', () => {
    const runDir = process.env[RUN_DIR_ENV];
    expect(runDir).toBeTruthy();
    expect(fs.existsSync(path.join(runDir ?? '', `${node.pid}.json`))).toBe(true);
  });

  it('kills a named client connection and leaves the others alone', async () => {
    const victim = await node.connect({ name: 'victim' });
    const bystander = await node.connect({ name: 'bystander' });
    expect(await node.killClientByName('victim')).toBe(1);
    await expect(victim.command('PING')).rejects.toThrow();
    expect(victim.closed).toBe(true);
    expect(await bystander.command('PING')).toBe('PONG');
    expect(await node.killClientByName('nobody-has-this-name')).toBe(0);
    bystander.close();
  });

  it('pauses: a command times out while paused and is answered after resume', async () => {
    await node.pause();
    const connection = await node.connect({ timeoutMs: 300 });
    await expect(connection.command('PING')).rejects.toBeInstanceOf(RedisTimeoutError);
    await node.resume();
    expect(await node.command('PING')).toBe('PONG');
  });

  it('kills: the process is gone and connections are refused', async () => {
    const pid = node.pid;
    await node.kill();
    expect(isAlive(pid)).toBe(false);
    expect(node.running).toBe(false);
    await expect(node.command('PING')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await node.kill(); // killing a dead node is fine
  });

  it('restarts on the same port with the data gone', async () => {
    await node.restart();
    await node.command('SET', 'before-crash', 'v');
    const oldPid = node.pid;
    await node.restart();
    expect(node.pid).not.toBe(oldPid);
    expect(isAlive(oldPid)).toBe(false);
    expect(await node.command('PING')).toBe('PONG');
    expect(await node.command('GET', 'before-crash')).toBeNull();
    expect(parseInfo(await node.command('INFO', 'server')).get('tcp_port')).toBe(String(node.port));
  });
});

describe('restart', () => {
  it('retries while something else still holds the port', async () => {
    const node = await startStandalone();
    try {
      await node.kill();
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(node.port, '127.0.0.1', resolve));
      setTimeout(() => squatter.close(), 600);
      await node.restart();
      expect(await node.command('PING')).toBe('PONG');
    } finally {
      await node.stop();
    }
  });
});

describe('stop', () => {
  it('is quick, even for a paused server, and idempotent', async () => {
    const node = await startStandalone();
    await node.pause();
    const started = Date.now();
    await node.stop();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(isAlive(node.pid)).toBe(false);
    await node.stop();
  });

  it('does not throw for a node that was killed, or died on its own', async () => {
    const killed = await startStandalone();
    await killed.kill();
    await killed.stop();
    const died = await startStandalone();
    process.kill(died.pid, 'SIGKILL');
    await died.stop();
    expect(isAlive(died.pid)).toBe(false);
    await expect(died.restart()).rejects.toThrow(/was stopped/);
  });
});
