/** One scenario's figures for one adapter. */
export interface ScenarioResult {
  scenario: string;
  adapter: string;
  figures: Record<string, number>;
}

/** Everything one `pnpm bench` run measured. */
export interface BenchResults {
  date: string;
  machine: string;
  smoke: boolean;
  scenarios: ScenarioResult[];
}

/** The results as markdown tables, one per scenario. */
export function renderMarkdown(results: BenchResults): string {
  const lines = [`# Deadbolt benchmarks`, '', `${results.date} — ${results.machine}${results.smoke ? ' — smoke run' : ''}`, ''];
  const byScenario = new Map<string, ScenarioResult[]>();
  for (const result of results.scenarios) byScenario.set(result.scenario, [...(byScenario.get(result.scenario) ?? []), result]);
  for (const [scenario, rows] of byScenario) {
    const columns = Object.keys(rows[0]?.figures ?? {});
    lines.push(`## ${scenario}`, '', `| adapter | ${columns.join(' | ')} |`, `| --- |${' --- |'.repeat(columns.length)}`);
    for (const row of rows) lines.push(`| ${row.adapter} | ${columns.map((column) => row.figures[column]).join(' | ')} |`);
    lines.push('');
  }
  return lines.join('\n');
}
