/** One lock kind on one backend over a soak. */
export interface SoakEntry {
  readonly kind: string;
  readonly backend: string;
  runs: number;
  steps: number;
  overlaps: number;
  /** The seed of every model check made, in order (each check is `--runs-per-check` runs). */
  readonly seeds: number[];
  readonly failures: {
    readonly seed: number;
    readonly replay: string;
    readonly categories: readonly string[];
    readonly message: string;
  }[];
}

/** What a soak writes to reliability/results/soak.json. */
export interface SoakResults {
  readonly date: string;
  readonly minutes: number;
  /** Whether the standalone backends also ran through the fault proxy. */
  readonly faultProxy: boolean;
  readonly totals: {
    readonly runs: number;
    readonly steps: number;
    /** Latency and jitter changes of the fault proxy. */
    readonly faults: number;
    /** Overlapping holds of distinct owners of an exclusive lock: must be 0. */
    readonly overlaps: number;
    /** Increments lost under contention: must be 0. */
    readonly lostUpdates: number;
    readonly contendedWrites: number;
    readonly failures: number;
  };
  readonly entries: readonly SoakEntry[];
}

/** The soak's figures as markdown. */
export function renderSoakMarkdown(results: SoakResults): string {
  const { totals } = results;
  const failures = results.entries.flatMap((entry) =>
    entry.failures.map((failure) => ({ ...failure, where: `${entry.kind} on ${entry.backend}` })),
  );
  return [
    '# Deadbolt model-based soak',
    '',
    `${results.date} — ${results.minutes} minute(s)${results.faultProxy ? ', standalone backends also through the fault proxy (latency and jitter)' : ''}`,
    '',
    'Random sequences of acquisitions, releases, extends, force-unlocks, sleeps and queries over',
    'every lock kind and lock group, checked after every step against the reference model and',
    "Redis's state (see `packages/conformance/src/model/README.md`), plus contended increments",
    'under each lock for lost updates. Replay a failure with its line:',
    '`FC_SEED=… FC_PATH=… MODEL_KINDS=… DEADBOLT_BACKENDS=… pnpm exec vitest run --project conformance packages/conformance/test/model-locks.test.ts`',
    '(`model-groups.test.ts` for MultiLock and RedLock; a `+proxy` backend replays on the plain one, without the latency).',
    '',
    '| figure | count |',
    '| --- | ---: |',
    `| model runs | ${totals.runs} |`,
    `| model steps | ${totals.steps} |`,
    `| faults injected | ${totals.faults} |`,
    `| overlaps | ${totals.overlaps} |`,
    `| contended writes | ${totals.contendedWrites} |`,
    `| lost updates | ${totals.lostUpdates} |`,
    `| failures | ${totals.failures} |`,
    '',
    '| kind | backend | runs | steps | overlaps | failures | seeds |',
    '| --- | --- | ---: | ---: | ---: | ---: | --- |',
    ...results.entries.map(
      (entry) =>
        `| ${entry.kind} | ${entry.backend} | ${entry.runs} | ${entry.steps} | ${entry.overlaps} | ${entry.failures.length} | ${entry.seeds.slice(0, 4).join(', ')}${entry.seeds.length > 4 ? ', …' : ''} |`,
    ),
    '',
    ...(failures.length === 0
      ? ['No failures.', '']
      : [
          '## Failures',
          '',
          ...failures.flatMap((failure) => [
            `- ${failure.where} [${failure.categories.join(', ')}]: \`${failure.replay}\``,
            '',
            '```text',
            failure.message.split('\n').slice(0, 30).join('\n'),
            '```',
            '',
          ]),
        ]),
  ].join('\n');
}
