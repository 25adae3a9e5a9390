import { checkTransition, type Transitions } from './statusTransition.js';

/**
 * Where a {@link RerouteSchedule} stands: `idle`; `waiting` for the timer of the next reroute;
 * `running` one; `rerunning`: running one while another was asked for, which follows it;
 * `stopped` for good.
 */
export type RerouteStatus = 'idle' | 'waiting' | 'running' | 'rerunning' | 'stopped';

/** Every status change a {@link RerouteSchedule} makes; any other is a bug. */
export const REROUTE_TRANSITIONS: Transitions<RerouteStatus> = {
  idle: ['waiting', 'stopped'],
  waiting: ['running', 'stopped'],
  running: ['idle', 'rerunning', 'stopped'],
  rerunning: ['waiting', 'stopped'],
  stopped: [],
};

/**
 * When the subscriber router's reroutes run: one at a time, after the delay the first request
 * asked for; requests made while one runs come down to one more run, after the shortest delay
 * they asked for (a run's own recheck of a node that is down keeps its pause).
 */
export class RerouteSchedule {
  readonly #reroute: (refreshFirst: boolean) => Promise<void>;
  #status: RerouteStatus = 'idle';
  #timer: NodeJS.Timeout | undefined;
  // Whether the next run reloads the slot map first: one of the requests since the last run asked.
  #refreshFirst = false;
  // The shortest delay asked for while a reroute ran: the wait before the one that follows it.
  #delayAfterRun = Infinity;

  /**
   * @param reroute - one reroute; `refreshFirst` tells it to reload the slot map before it starts
   */
  constructor(reroute: (refreshFirst: boolean) => Promise<void>) {
    this.#reroute = reroute;
  }

  /** Where the schedule stands. */
  get status(): RerouteStatus {
    return this.#status;
  }

  /**
   * Asks for a reroute in `delay` ms. A reroute already waiting keeps its own delay; one already
   * running is followed by another, `delay` ms after it ends at the latest. Nothing happens once
   * stopped.
   */
  request(delay: number, refreshFirst: boolean): void {
    if (this.#status === 'stopped') return;
    this.#refreshFirst ||= refreshFirst;
    if (this.#status === 'idle') this.#wait(delay);
    else if (this.#status === 'running' || this.#status === 'rerunning') {
      this.#delayAfterRun = Math.min(this.#delayAfterRun, delay);
      if (this.#status === 'running') this.#setStatus('rerunning');
    }
  }

  /** Cancels the reroute waiting, if any, and every later one; a run under way finishes. Idempotent. */
  stop(): void {
    if (this.#status === 'stopped') return;
    this.#setStatus('stopped');
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #wait(delay: number): void {
    this.#setStatus('waiting');
    this.#timer = setTimeout(() => this.#run(), delay);
    // A pending recheck must not keep the process alive on its own.
    this.#timer.unref();
  }

  #run(): void {
    this.#timer = undefined;
    this.#setStatus('running');
    const refreshFirst = this.#refreshFirst;
    this.#refreshFirst = false;
    void this.#reroute(refreshFirst).finally(() => {
      if (this.#status === 'running') this.#setStatus('idle');
      else if (this.#status === 'rerunning') {
        const delay = this.#delayAfterRun;
        this.#delayAfterRun = Infinity;
        this.#wait(delay);
      }
    });
  }

  #setStatus(next: RerouteStatus): void {
    checkTransition('RerouteSchedule', REROUTE_TRANSITIONS, this.#status, next);
    this.#status = next;
  }
}
