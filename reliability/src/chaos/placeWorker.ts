import { WorkerProcess, type WorkerEvent } from '../process/WorkerProcess.js';
import type { ChaosHost } from './ChaosNetwork.js';
import type { ProcessClock } from './ProcessClock.js';

/**
 * Starts a worker process (see {@link WorkerProcess.start}) on `host`, on `clock` when given; it is
 * killed with the host's network if it still runs then.
 */
export function startWorkerOn<Event extends WorkerEvent>(
  host: ChaosHost,
  script: string,
  jobVariable: string,
  job: object,
  clock?: ProcessClock,
): WorkerProcess<Event> {
  const worker = WorkerProcess.start<Event>(script, jobVariable, job, {
    prefix: host.exec,
    ...(clock === undefined ? {} : { environment: clock.environment }),
  });
  const placed = {
    stop: () => worker.kill(),
    stopSync: () => {
      if (worker.exit === undefined && worker.pid !== 0) process.kill(worker.pid, 'SIGKILL');
    },
  };
  host.network.adopt(placed);
  return worker;
}
