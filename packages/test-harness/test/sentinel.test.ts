import { describe, expect, it } from 'vitest';
import { parseInfo, sendCommand, startSentinel } from '../src/index.js';

describe('startSentinel', () => {
  it('starts a master, two replicas and three sentinels, fails over by command and by a kill', async () => {
    const deployment = await startSentinel();
    try {
      const first = deployment.master();
      expect(deployment.replicas()).toHaveLength(2);
      const [sentinel] = deployment.sentinelAddresses;
      if (sentinel === undefined) throw new Error('no sentinel');
      const named = await sendCommand(sentinel, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', deployment.masterName]);
      expect(named).toEqual([first.host, String(first.port)]);

      await first.command('SET', 'before', '1');
      expect(await first.command('WAIT', 2, 5000)).toBe(2);
      const promoted = await deployment.failover();
      expect(promoted).not.toBe(first);
      expect(parseInfo(await promoted.command('INFO', 'replication')).get('role')).toBe('master');
      expect(await promoted.command('GET', 'before')).toBe('1');
      expect(parseInfo(await first.command('INFO', 'replication')).get('master_port')).toBe(String(promoted.port));

      const survivor = await deployment.killMaster();
      expect(survivor).not.toBe(promoted);
      expect(promoted.running).toBe(false);
      expect(deployment.replicas()).toHaveLength(1);
      expect(await sendCommand(sentinel, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', deployment.masterName])).toEqual([
        survivor.host,
        String(survivor.port),
      ]);

      await deployment.revive();
      expect(deployment.replicas()).toHaveLength(2);
      expect(await promoted.command('GET', 'before')).toBe('1');
    } finally {
      await deployment.stop();
    }
    for (const node of [...deployment.dataNodes, ...deployment.sentinels]) expect(node.running).toBe(false);
  });
});
