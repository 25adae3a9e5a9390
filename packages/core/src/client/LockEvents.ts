import type { EventEmitter } from 'node:events';
import type { LockClientEvents } from './LockClientEvents.js';

/**
 * Tells a client's listeners what its locks do (see `LockClientEvents`). For lock kinds, through
 * `LockRuntime.events`.
 */
export interface LockEvents {
  /** Whether anyone listens to `event`: checked before a payload is built, so that events cost nothing unheard. */
  listening(event: keyof LockClientEvents): boolean;
  /** Tells the listeners of `event`. Never throws: a listener that throws becomes a process warning. */
  emit<Event extends keyof LockClientEvents>(event: Event, ...payload: LockClientEvents[Event]): void;
}

/** The {@link LockEvents} of a client, emitted on `emitter`. */
export function lockEvents(emitter: EventEmitter<LockClientEvents>): LockEvents {
  return {
    listening: (event) => emitter.listenerCount(event) > 0,
    emit: (event, ...payload) => {
      try {
        // The payload matches `event` by the signature; the emitter's overloads cannot see it.
        (emitter as EventEmitter).emit(event, ...payload);
      } catch (listenerError) {
        // A listener's bug must not break the lock operation it was told about (a lock taken and
        // then reported as failed would be held by nobody who knows it).
        const message = listenerError instanceof Error ? listenerError.message : String(listenerError);
        process.emitWarning(`A listener of the lock client's "${event}" event threw: ${message}`, {
          type: 'DeadboltListenerError',
          ...(listenerError instanceof Error && listenerError.stack ? { detail: listenerError.stack } : {}),
        });
      }
    },
  };
}
