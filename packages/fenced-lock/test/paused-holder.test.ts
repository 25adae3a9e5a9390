// The fencing token at work: a holder paused (SIGSTOP) past its lease, resumed after another
// process took the lock and wrote, has its write refused by the fenced storage of the example.
import { BACKENDS, useSuiteContext } from '@deadbolt/conformance';
import { FENCED_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { FencedLock } from '@deadbolt/fenced-lock';
import { afterEach, describe, expect, it } from 'vitest';
import { FencedStorage } from '../../../examples/src/FencedStorage.js';
import { ChildProcess } from './child/ChildProcess.js';

describe.each(BACKENDS)('A paused FencedLock holder on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FENCED_LOCK), adapter, topology);
  afterEach(() => ChildProcess.killAll());

  it('writes with its old token after resuming and is refused; its signal is aborted and its release fails', async () => {
    const name = ctx.uniqueName('paused');
    const resource = name;
    const holder = ChildProcess.start('./pausedWriter.ts', {
      spec: ctx.backend().spec,
      lockName: name,
      resource,
      leaseTime: 1_000,
    });
    const [, childToken, childWrote] = (await holder.line()).split(' ');
    expect(childWrote).toBe('true');

    holder.signal('SIGSTOP');
    // The stopped holder cannot renew or release: the lock is free once its lease ends.
    const client = await ctx.client();
    const storage = new FencedStorage(await ctx.backend().createExecutor());
    const held = await new FencedLock(client, name).acquire({ waitTime: 20_000 });
    expect(held.token).toBeGreaterThan(BigInt(childToken!));
    expect(await storage.write(resource, 'parent', held.token)).toBe(true);

    // The holder resumes straight into its write, before anything could tell it the lease ended.
    holder.send('write');
    holder.signal('SIGCONT');
    expect(JSON.parse(await holder.line())).toEqual({ accepted: false, aborted: true, release: 'LockLostError' });
    await holder.finish();
    expect(await storage.read(resource)).toBe('parent');
    expect(await new FencedLock(client, name).isHeldBy(held.owner)).toBe(true);
    await held.release();
  }, 60_000);
});
