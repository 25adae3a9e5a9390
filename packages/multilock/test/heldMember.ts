import type { HeldLock, LockLostError } from '@deadbolt/core';
import { heldLock } from '@deadbolt/core/kit';

/** A held lock that needs no Redis: its release succeeds at once, and `lose` loses it as its watchdog would. */
export interface HeldMember {
  readonly held: HeldLock;
  lose(error: LockLostError): void;
}

/** A {@link HeldMember} of the lock named `name`, kept by a fake watchdog. */
export function heldMember(name: string): HeldMember {
  let onLost: ((error: LockLostError) => void) | undefined;
  const held = heldLock({
    name,
    owner: 'worker-1',
    leaseTime: undefined,
    acquiredAt: performance.now(),
    keepAlive: (lose) => {
      onLost = lose;
      return { cancel: () => (onLost = undefined) };
    },
    release: () => Promise.resolve(true),
    extend: () => Promise.resolve(true),
  });
  return { held, lose: (error) => onLost?.(error) };
}
