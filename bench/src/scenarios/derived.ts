// Tables derived from the handoff runs: what an acquisition costs at 8 and at 128 waiters, and
// what fairness costs Deadbolt.
import type { Contender } from '../contenders/Contender.js';
import { isDeadbolt } from '../contenders/index.js';
import { byRepetition, type Figures } from '../repetitions.js';
import { startScenario, summarizeRow, type Row, type ScenarioReport } from '../report.js';

/** The handoff scenarios' reports, by lock kind and number of waiters. */
export interface HandoffReports {
  readonly plain8: ScenarioReport;
  readonly plain128: ScenarioReport;
  readonly fair8: ScenarioReport;
  readonly fair128: ScenarioReport;
}

/** Commands and round trips per acquisition side by side at 8 and 128 waiters, plain and fair. */
export function costByWaiters(
  { plain8, plain128, fair8, fair128 }: HandoffReports,
  contenders: readonly Contender[],
): ScenarioReport {
  const report = startScenario(
    {
      id: 'cost-by-waiters',
      title: '3b. Cost per acquisition: 8 against 128 waiters',
      measures:
        "commands Redis ran (script-run ones included) and round trips the clients sent, per acquisition, in the handoff runs above; fair rows are the fair lock's runs.",
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
      report.rows.push(
        derivedRow(report, `${row8.contender}${suffix}`, row8, row128, (at8, at128) => ({
          commandsAt8: figure(at8, 'commandsPerAcquisition'),
          commandsAt128: figure(at128, 'commandsPerAcquisition'),
          commands128To8: figure(at128, 'commandsPerAcquisition') / figure(at8, 'commandsPerAcquisition'),
          roundTripsAt8: figure(at8, 'roundTripsPerAcquisition'),
          roundTripsAt128: figure(at128, 'roundTripsPerAcquisition'),
          roundTrips128To8: figure(at128, 'roundTripsPerAcquisition') / figure(at8, 'roundTripsPerAcquisition'),
        })),
      );
    }
  }
  report.absent.push(
    ...plain8.absent,
    ...plain128.absent.filter((absence) => !plain8.absent.some((other) => other.contender === absence.contender)),
  );
  return report;
}

/** Deadbolt's fair lock against its plain lock, at each number of waiters. */
export function fairVersusPlain(
  { plain8, plain128, fair8, fair128 }: HandoffReports,
  contenders: readonly Contender[],
): ScenarioReport {
  const report = startScenario(
    {
      id: 'fair-vs-plain',
      title: '4b. What fairness costs Deadbolt',
      measures:
        "the fair lock's handoff figures over the plain lock's from the same runs, and the grants each made out of order.",
      floor: "Deadbolt's plain lock at the same number of waiters.",
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
  for (const [plain, fair, waiters] of [
    [plain8, fair8, 8],
    [plain128, fair128, 128],
  ] as const) {
    for (const fairRow of fair.rows) {
      const plainRow = plain.rows.find((row) => row.contender === fairRow.contender);
      if (!plainRow) continue;
      report.rows.push(
        derivedRow(report, fairRow.contender, plainRow, fairRow, (plainFigures, fairFigures) => {
          const ratio = (key: string) => figure(fairFigures, key) / figure(plainFigures, key);
          return {
            waiters,
            handoffP50Ratio: ratio('handoffP50Ms'),
            acquisitionsPerSecondRatio: ratio('acquisitionsPerSecond'),
            commandsRatio: ratio('commandsPerAcquisition'),
            outOfOrderPlain: figure(plainFigures, 'outOfOrderGrants'),
            outOfOrderFair: figure(fairFigures, 'outOfOrderGrants'),
          };
        }),
      );
    }
  }
  for (const contender of contenders.filter((candidate) => !isDeadbolt(candidate))) {
    report.absent.push({
      contender: contender.id,
      reason: typeof contender.features.fair === 'string' ? contender.features.fair : 'see scenario 4',
    });
  }
  return report;
}

const figure = (figures: Figures, key: string) => figures[key] ?? Number.NaN;

/**
 * A row of a derived table for `contender`, on `first`'s library and driver: `derive` of the two
 * source rows' figures repetition by repetition (the first of one with the first of the other),
 * so that the table's medians and spreads are of the derived figures themselves.
 */
function derivedRow(
  report: ScenarioReport,
  contender: string,
  first: Row,
  second: Row,
  derive: (first: Figures, second: Figures) => Figures,
): Row {
  // Every row has its repetitions until the results are written; one without ran once.
  const repetitionsOf = (row: Row) => (row.repetitions ? byRepetition(row.repetitions) : [row.figures]);
  const firsts = repetitionsOf(first);
  const seconds = repetitionsOf(second);
  const derived = firsts.slice(0, seconds.length).map((figures, index) => derive(figures, seconds[index]!));
  return { contender, library: first.library, driver: first.driver, ...summarizeRow(report, derived) };
}
