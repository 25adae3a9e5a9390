import { EvictionRiskError } from '../errors/EvictionRiskError.js';
import { RedisUnavailableError } from '../errors/LockError.js';
import { askServer } from '../executor/askServer.js';
import type { Executor } from '../executor/Executor.js';

/** What a client does when the server may evict lock keys: see `LockClientOptions.evictionPolicy`. */
export type EvictionPolicyMode = 'warn' | 'throw' | 'ignore';

/** What the `evictionRisk` event reports. */
export interface EvictionRisk {
  readonly policy: string;
  readonly maxmemory: number;
}

// Policies that may evict a key with a TTL, which every lock key has; only `noeviction` is safe.
const EVICTING_POLICY = /^(allkeys|volatile)-/;
const NO_LIMIT = 0;

/** Whether a `maxmemory-policy` may evict lock keys. */
export function mayEvictLocks(policy: string): boolean {
  return EVICTING_POLICY.test(policy);
}

/**
 * Reads the server's `maxmemory-policy` once per client, on first use, with `INFO memory` (which
 * managed services allow where they refuse `CONFIG GET`), and reports a policy that may evict lock
 * keys: `warn` calls `report` once, `throw` rejects this and every later check with
 * {@link EvictionRiskError}, `ignore` sends nothing. A check that could not reach Redis is asked
 * again next time; a refusal (ACL) rejects with `PermissionDeniedError`.
 */
export class EvictionGuard {
  readonly #mode: EvictionPolicyMode;
  readonly #executor: Executor;
  readonly #timeout: number;
  readonly #report: (risk: EvictionRisk) => void;
  #checked: Promise<void> | undefined;

  constructor(mode: EvictionPolicyMode, executor: Executor, timeout: number, report: (risk: EvictionRisk) => void) {
    this.#mode = mode;
    this.#executor = executor;
    this.#timeout = timeout;
    this.#report = report;
  }

  /** Resolves once the policy is known safe or reported; `key` routes INFO in a cluster. */
  check(key: string): Promise<void> {
    if (this.#mode === 'ignore') return Promise.resolve();
    if (this.#checked === undefined) {
      const checking = this.#read(key).then((risk) => this.#act(risk));
      this.#checked = checking;
      checking.catch((error: unknown) => {
        if (error instanceof RedisUnavailableError && this.#checked === checking) this.#checked = undefined;
      });
    }
    return this.#checked;
  }

  #act(risk: EvictionRisk | undefined): void {
    if (risk === undefined) return;
    if (this.#mode === 'throw') throw new EvictionRiskError(risk.policy);
    this.#report(risk);
  }

  async #read(key: string): Promise<EvictionRisk | undefined> {
    const info = String(await this.#info(key));
    const fields = new Map(
      info.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
    );
    const policy = fields.get('maxmemory_policy')?.trim();
    if (policy === undefined || !mayEvictLocks(policy)) return undefined;
    return { policy, maxmemory: Number(fields.get('maxmemory') ?? NO_LIMIT) };
  }

  #info(key: string): Promise<unknown> {
    return askServer(this.#executor, key, ['INFO', 'memory'], this.#timeout, 'INFO memory (the eviction policy check)');
  }
}
