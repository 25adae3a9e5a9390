import type { Contender, Mutex } from './Contender.js';

/** How a semaphore stands in for a lock: see {@link semaphoreView}. */
export interface SemaphoreShape {
  /** The semaphore's permits. */
  readonly limit: number;
  /** The permits each acquisition takes. */
  readonly permits: number;
}

// `<contender id>~semaphore:<limit>:<permits>`: a view's id, which names it in worker processes too.
const VIEW_ID = /^(.+)~semaphore:(\d+):(\d+)$/;

/** The id of {@link semaphoreView}'s contender, by which a worker process finds it (see {@link parseSemaphoreViewId}). */
export function semaphoreViewId(contenderId: string, { limit, permits }: SemaphoreShape): string {
  return `${contenderId}~semaphore:${limit}:${permits}`;
}

/** The contender id and shape a {@link semaphoreViewId} names, or `undefined` for any other id. */
export function parseSemaphoreViewId(
  id: string,
): { readonly contenderId: string; readonly shape: SemaphoreShape } | undefined {
  const [, contenderId, limit, permits] = VIEW_ID.exec(id) ?? [];
  return contenderId === undefined
    ? undefined
    : { contenderId, shape: { limit: Number(limit), permits: Number(permits) } };
}

/**
 * `contender` as a lock library whose lock named `name` is `permits` permits of its semaphore
 * `<name>:semaphore` of `limit` permits, set up on the lock's first acquisition: every scenario
 * written for locks (its turns, its floor, its worker processes) then runs the semaphore. Its id is
 * {@link semaphoreViewId}; the contender must have the `semaphore` feature.
 */
export function semaphoreView(contender: Contender, shape: SemaphoreShape): Contender {
  return {
    ...contender,
    id: semaphoreViewId(contender.id, shape),
    connect: async (address, options) => {
      const session = await contender.connect(address, options);
      const { semaphore } = session;
      if (!semaphore) {
        await session.close();
        throw new Error(`${contender.id} has no semaphore`);
      }
      return {
        ...session,
        mutex: (name): Mutex => {
          let ready: Promise<Mutex> | undefined;
          return {
            acquire: async () =>
              (await (ready ??= semaphore(`${name}:semaphore`, shape.limit, shape.permits))).acquire(),
          };
        },
      };
    },
  };
}
