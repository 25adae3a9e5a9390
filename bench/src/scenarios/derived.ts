// Tables derived from the handoff runs: what an acquisition costs at 8 and at 128 waiters, and
// what fairness costs Deadbolt.
import type { Contender } from '../contenders/Contender.js';
import { isDeadbolt } from '../contenders/index.js';
import { roundAll, startScenario, type Row, type ScenarioReport } from '../report.js';

/** The handoff scenarios' reports, by lock kind and number of waiters. */
export interface HandoffReports {
  readonly plain8: ScenarioReport;
  readonly plain128: ScenarioReport;
  readonly fair8: ScenarioReport;
  readonly fair128: ScenarioReport;
}

/** Commands and round trips per acquisition side by side at 8 and 128 waiters, plain and fair. */
export function costByWaiters({ plain8, plain128, fair8, fair128 }: HandoffReports, contenders: readonly Contender[]): ScenarioReport {
  const report = startScenario(
    {
      id: 'cost-by-waiters',
      title: '3b. Cost per acquisition: 8 against 128 waiters',
      measures:
        'commands Redis ran (script-run ones included) and round trips the clients sent, per acquisition, in the handoff runs above; fair rows are the fair lock\'s runs.',
      floor: 'the same lock at 8 waiters: a cost that does not grow with the waiters keeps `128 ÷ 8` at 1.',
      columns: [
        { key: 'commandsAt8', label: 'commands/acq. at 8' },
        { key: 'commandsAt128', label: 'commands/acq. at 128' },
        { key: 'commands128To8', label: 'commands 128 ÷ 8' },
        { key: 'roundTripsAt8', label: 'round trips/acq. at 8' },
        { key: 'roundTripsAt128', label: 'round trips/acq. at 128' },
        { key: 'roundTrips128To8', label: 'round trips 128 ÷ 8' },
      ],
      headlines: [{ key: 'commandsAt128', better: 'lower' }],
    },
    contenders,
  );
  const pairs: [ScenarioReport, ScenarioReport, string][] = [
    [plain8, plain128, ''],
    [fair8, fair128, ' (fair)'],
  ];
  for (const [at8, at128, suffix] of pairs) {
    for (const row8 of at8.rows) {
      const row128 = at128.rows.find((row) => row.contender === row8.contender);
      if (!row128) continue;
      const figure = (row: Row, key: string) => row.figures[key] ?? Number.NaN;
      report.rows.push({
        ...row8,
        contender: `${row8.contender}${suffix}`,
        figures: roundAll({
          commandsAt8: figure(row8, 'commandsPerAcquisition'),
          commandsAt128: figure(row128, 'commandsPerAcquisition'),
          commands128To8: figure(row128, 'commandsPerAcquisition') / figure(row8, 'commandsPerAcquisition'),
          roundTripsAt8: figure(row8, 'roundTripsPerAcquisition'),
          roundTripsAt128: figure(row128, 'roundTripsPerAcquisition'),
          roundTrips128To8: figure(row128, 'roundTripsPerAcquisition') / figure(row8, 'roundTripsPerAcquisition'),
        }),
      });
    }
  }
  report.absent.push(...plain8.absent, ...plain128.absent.filter((absence) => !plain8.absent.some((other) => other.contender === absence.contender)));
  return report;
}

/** Deadbolt's fair lock against its plain lock, at each number of waiters. */
export function fairVersusPlain({ plain8, plain128, fair8, fair128 }: HandoffReports, contenders: readonly Contender[]): ScenarioReport {
  const report = startScenario(
    {
      id: 'fair-vs-plain',
      title: '4b. What fairness costs Deadbolt',
      measures: 'the fair lock\'s handoff figures over the plain lock\'s from the same runs, and the grants each made out of order.',
      floor: 'Deadbolt\'s plain lock at the same number of waiters.',
      columns: [
        { key: 'waiters', label: 'waiters' },
        { key: 'handoffP50Ratio', label: 'handoff p50 fair ÷ plain' },
        { key: 'acquisitionsPerSecondRatio', label: 'acquisitions/s fair ÷ plain' },
        { key: 'commandsRatio', label: 'commands/acq. fair ÷ plain' },
        { key: 'outOfOrderPlain', label: 'out-of-order plain' },
        { key: 'outOfOrderFair', label: 'out-of-order fair' },
      ],
    },
    contenders,
  );
  for (const [plain, fair, waiters] of [[plain8, fair8, 8], [plain128, fair128, 128]] as const) {
    for (const fairRow of fair.rows) {
      const plainRow = plain.rows.find((row) => row.contender === fairRow.contender);
      if (!plainRow) continue;
      const ratio = (key: string) => (fairRow.figures[key] ?? Number.NaN) / (plainRow.figures[key] ?? Number.NaN);
      report.rows.push({
        ...fairRow,
        figures: roundAll({
          waiters,
          handoffP50Ratio: ratio('handoffP50Ms'),
          acquisitionsPerSecondRatio: ratio('acquisitionsPerSecond'),
          commandsRatio: ratio('commandsPerAcquisition'),
          outOfOrderPlain: plainRow.figures['outOfOrderGrants'] ?? Number.NaN,
          outOfOrderFair: fairRow.figures['outOfOrderGrants'] ?? Number.NaN,
        }),
      });
    }
  }
  for (const contender of contenders.filter((candidate) => !isDeadbolt(candidate))) {
    report.absent.push({ contender: contender.id, reason: typeof contender.features.fair === 'string' ? contender.features.fair : 'see scenario 4' });
  }
  return report;
}
