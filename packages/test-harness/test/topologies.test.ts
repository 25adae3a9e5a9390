import { describe, expect, it } from 'vitest';
import { parseInfo, startReplicated, startServers } from '../src/index.js';

describe('startServers', () => {
  it('starts independent servers on distinct ports', async () => {
    const servers = await startServers(3);
    try {
      expect(new Set(servers.nodes.map((n) => n.port)).size).toBe(3);
      for (const node of servers.nodes) expect(await node.command('PING')).toBe('PONG');
      await servers.nodes[0]?.command('SET', 'only-here', '1');
      expect(await servers.nodes[1]?.command('GET', 'only-here')).toBeNull();
      expect(servers.urls).toEqual(servers.nodes.map((n) => n.url));
    } finally {
      await servers.stop();
    }
    for (const node of servers.nodes) expect(node.running).toBe(false);
  });
});

describe('startReplicated', () => {
  it('starts a master and a linked replica that receives writes', async () => {
    const pair = await startReplicated();
    try {
      const info = parseInfo(await pair.replica.command('INFO', 'replication'));
      expect(info.get('role')).toBe('slave');
      expect(info.get('master_link_status')).toBe('up');
      expect(info.get('master_port')).toBe(String(pair.master.port));
      await pair.master.command('SET', 'replicated', 'yes');
      expect(await pair.master.command('WAIT', 1, 5000)).toBe(1);
      expect(await pair.replica.command('GET', 'replicated')).toBe('yes');
    } finally {
      await pair.stop();
    }
  });

  it('resyncs after the master restarts empty', async () => {
    const pair = await startReplicated();
    try {
      await pair.master.command('SET', 'lost', '1');
      await pair.master.command('WAIT', 1, 5000);
      await pair.master.restart();
      await pair.waitForReplicaSync();
      await pair.master.command('SET', 'after', '1');
      await pair.master.command('WAIT', 1, 5000);
      expect(await pair.replica.command('GET', 'after')).toBe('1');
      expect(await pair.replica.command('GET', 'lost')).toBeNull();
    } finally {
      await pair.stop();
    }
  });
});
