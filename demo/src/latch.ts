// `pnpm demo latch`: a CountDownLatch of 3. A deploy waits on it while three services report ready
// one after another (here from one process; in a real system each from its own), and the deploy
// goes ahead only after the third. Measured: how many had reported when the wait ended.
import { CountDownLatch } from '@deadbolt/countdown-latch';
import { sleep, stamp, type Section } from './section.js';

const SERVICES = ['api', 'worker', 'scheduler'];
const REPORT_EVERY = 100;

export const latchSection: Section = {
  name: 'latch',
  kind: 'CountDownLatch',
  about: `a deploy waits until ${SERVICES.length} services have counted the latch down`,
  async run(context) {
    const { redis, locks } = await context.shared();
    await redis.del('demo:ready');
    const ready = new CountDownLatch(locks, 'demo:ready');
    await ready.trySetCount(SERVICES.length);
    const started = performance.now();
    const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
    console.log(`Count-down latch "${ready.name}" of ${SERVICES.length}: a deploy waits for every service`);
    let reported = 0;
    let reportedWhenOpened = -1;
    const deploy = ready.await({ waitTime: 10_000 }).then((opened) => {
      reportedWhenOpened = reported;
      log(`deploy ${opened ? 'starts' : 'gave up'}  (${reported} of ${SERVICES.length} reported)`);
      return opened;
    });
    for (const service of SERVICES) {
      await sleep(REPORT_EVERY);
      reported++;
      log(`${service} reports ready`);
      await ready.countDown();
    }
    const opened = await deploy;
    await ready.delete();

    const ok = opened && reportedWhenOpened === SERVICES.length;
    return {
      kind: 'CountDownLatch',
      ok,
      text: ok
        ? `the deploy waited until all ${SERVICES.length} services had reported`
        : `the deploy's wait ended ${opened ? 'open' : 'timed out'} after ${reportedWhenOpened} of ${SERVICES.length} reports`,
    };
  },
};
