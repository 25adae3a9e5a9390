import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderBarChart, type BarChartSpec } from '../../scripts/charts/barChart.mjs';
import {
  advantageChartId,
  benchmarkCharts,
  headlineChartId,
  type BenchResultsJson,
} from '../../scripts/charts/benchmarkCharts.mjs';
import { embedCharts } from '../../scripts/charts/embed.mjs';
import type { ReliabilityResultsJson } from '../../scripts/charts/reliabilityCharts.mjs';
import { logScale } from '../../scripts/charts/scale.mjs';
import { formatNumber, textWidth } from '../../scripts/charts/svg.mjs';
import { resultsPage } from '../../scripts/results-page.mjs';

// The charts of the results pages (scripts/charts/, drawn by scripts/docs-pages.mts): what one
// SVG holds, and that the pages generated from the checked-in results place them by their tables.
const root = fileURLToPath(new URL('../../', import.meta.url));

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const texts = (svg: string, kind: 'label' | 'value') =>
  [...svg.matchAll(new RegExp(`<text class="${kind}"[^>]*>([^<]*)</text>`, 'g'))].map((match) =>
    unescape(match[1] ?? ''),
  );
const bars = (svg: string) =>
  [
    ...svg.matchAll(
      /<rect class="bar" x="([\d.]+)"[^>]*width="([\d.]+)"[^>]*fill="([^"]+)"[^>]*><title>([^<]*)<\/title>/g,
    ),
  ].map((match) => ({
    x: Number(match[1]),
    width: Number(match[2]),
    fill: match[3] ?? '',
    title: unescape(match[4] ?? ''),
  }));
const whiskers = (svg: string) =>
  [
    ...svg.matchAll(/<g class="whisker"[^>]*><title>([^<]*)<\/title><line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"/g),
  ].map((match) => ({
    title: unescape(match[1] ?? ''),
    from: Number(match[2]),
    to: Number(match[3]),
  }));
const valueX = (svg: string) => [...svg.matchAll(/<text class="value" x="([\d.]+)"/g)].map((match) => Number(match[1]));
/** The x of the dashed reference line. */
const referenceX = (svg: string) => Number(/<line class="reference" x1="([\d.]+)"/.exec(svg)?.[1]);
const tag = (svg: string, name: 'title' | 'desc') =>
  unescape(new RegExp(`<${name} id="[^"]+">([^<]*)</${name}>`).exec(svg)?.[1] ?? '');
const images = (markdown: string) =>
  [...markdown.matchAll(/!\[([^\]]*)\]\(\.\/charts\/([^)]+)\)/g)].map((match) => match[2] ?? '');

const fixture: BarChartSpec = {
  id: 'fixture',
  title: 'Cycles <per> second',
  subtitle: ['cycles/s, higher is better'],
  description: 'A test chart.',
  series: ['cycles/s'],
  groups: [
    { label: 'deadbolt/ioredis', values: [120], highlight: true },
    { label: 'peer/ioredis', values: [80] },
    { label: 'a<b & "c"', values: [1234.5] },
    { label: 'count', values: [5303] },
  ],
  highlightName: 'Deadbolt',
};

describe('bar chart', () => {
  const svg = renderBarChart(fixture);

  it('draws one bar per value, each labelled, with its value at the end', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(texts(svg, 'label')).toEqual(['deadbolt/ioredis', 'peer/ioredis', 'a<b & "c"', 'count']);
    // Fractions to 3 significant digits as the tables give them; whole numbers (counts) exactly.
    expect(texts(svg, 'value')).toEqual(['120', '80', '1,230', '5,303']);
    const drawn = bars(svg);
    expect(drawn.map((bar) => bar.title)).toEqual([
      'deadbolt/ioredis: 120',
      'peer/ioredis: 80',
      'a<b & "c": 1,230',
      'count: 5,303',
    ]);
    // One linear scale from 0: lengths in proportion to the values.
    expect((drawn[1]?.width ?? 0) / (drawn[0]?.width ?? 1)).toBeCloseTo(80 / 120, 2);
    expect((drawn[2]?.width ?? 0) / (drawn[0]?.width ?? 1)).toBeCloseTo(1234.5 / 120, 2);
  });

  it('marks the highlighted bars by hatching and a bold label, and says so in the legend', () => {
    const [ours, peer] = bars(svg);
    expect(ours?.fill).toBe('url(#fixture-hatch-0)');
    expect(peer?.fill).toMatch(/^#/);
    expect(svg).toContain('<pattern id="fixture-hatch-0"');
    expect(svg).toMatch(/<text class="label"[^>]*font-weight="bold"[^>]*>deadbolt\/ioredis</);
    expect(svg).not.toMatch(/<text class="label"[^>]*font-weight="bold"[^>]*>peer\/ioredis</);
    expect(svg).toContain('>Deadbolt: hatched, label in bold</text>');
  });

  it('has a title and a description listing every value, escaped', () => {
    expect(tag(svg, 'title')).toBe('Cycles <per> second');
    expect(tag(svg, 'desc')).toBe(
      'A test chart. Values: deadbolt/ioredis 120; peer/ioredis 80; a<b & "c" 1,230; count 5,303.',
    );
    expect(svg).toContain('role="img" aria-labelledby="fixture-title fixture-desc"');
    expect(svg).toContain('>a&lt;b &amp; &quot;c&quot;</text>');
  });

  it('is the same bytes for the same input', () => {
    expect(renderBarChart(structuredClone(fixture))).toBe(svg);
  });

  it('puts series side by side, naming each value, and leaves out missing figures', () => {
    const pair = renderBarChart({
      id: 'pair',
      title: 'Handoff',
      description: 'Pairs.',
      series: ['p50', 'p99'],
      groups: [
        { label: 'one', values: [1.5, 9] },
        { label: 'two', values: [undefined, 3] },
      ],
      reference: { value: 1, label: '1 = the floor' },
    });
    expect(texts(pair, 'value')).toEqual(['p50 1.5', 'p99 9', 'p50 no figure', 'p99 3']);
    expect(bars(pair).map((bar) => bar.title)).toEqual(['one, p50: 1.5', 'one, p99: 9', 'two, p99: 3']);
    expect(tag(pair, 'desc')).toBe('Pairs. Values: one: p50 1.5, p99 9; two: p50 no figure, p99 3.');
    expect(pair).toContain('class="reference"');
    expect(pair).toContain('>1 = the floor</text>');
  });
});

describe('bar chart with spreads', () => {
  const svg = renderBarChart({
    ...fixture,
    groups: [
      { label: 'deadbolt/ioredis', values: [120], spreads: [{ min: 100, max: 150 }], highlight: true },
      { label: 'peer/ioredis', values: [80] },
    ],
  });

  it("draws a whisker from the smallest to the largest repetition, on the bars' scale, and writes the value past it", () => {
    const [drawn] = whiskers(svg);
    expect(whiskers(svg)).toHaveLength(1);
    expect(drawn?.title).toBe('deadbolt/ioredis: from 100 to 150');
    const [ours, peer] = bars(svg);
    // The bar starts at 0: its width is the value's length on the scale.
    const start = Number(/<rect class="bar" x="([\d.]+)"/.exec(svg)?.[1]);
    const perUnit = (ours?.width ?? 0) / 120;
    expect(drawn?.from ?? 0).toBeCloseTo(start + 100 * perUnit, 0);
    expect(drawn?.to ?? 0).toBeCloseTo(start + 150 * perUnit, 0);
    expect((peer?.width ?? 0) / perUnit).toBeCloseTo(80, 0);
    expect(valueX(svg)[0]).toBeGreaterThan(drawn?.to ?? Infinity);
    expect(texts(svg, 'value')).toEqual(['120', '80']);
    expect(tag(svg, 'desc')).toBe('A test chart. Values: deadbolt/ioredis 120 (from 100 to 150); peer/ioredis 80.');
  });
});

describe('log scale around 1', () => {
  it('is symmetric around 1, to a nice bound covering the values, with a few ticks each side as factors', () => {
    expect(logScale(0.9, 1.1)).toEqual({ bound: 1.25, ticks: [0.8, 1, 1.25] });
    expect(logScale(0.6, 1.9)).toEqual({ bound: 2, ticks: [0.5, 0.8, 1, 1.25, 2] });
    // The smallest value decides when it is further from 1: 1 / 0.3 is above 3.
    expect(logScale(0.3, 1.2)).toEqual({ bound: 5, ticks: [0.2, 0.5, 1, 2, 5] });
    expect(logScale(0.9, 5.26)).toEqual({ bound: 10, ticks: [0.1, 0.2, 0.5, 1, 2, 5, 10] });
    expect(logScale(0.9, 150)).toEqual({ bound: 200, ticks: [0.005, 0.02, 0.1, 1, 10, 50, 200] });
    expect(logScale(1000, 1000)).toEqual({ bound: 1000, ticks: [0.001, 0.01, 0.1, 1, 10, 100, 1000] });
  });

  it('is 0.8 to 1.25 when nothing is further from 1, or nothing is a ratio (0, infinite)', () => {
    expect(logScale(1, 1).bound).toBe(1.25);
    expect(logScale(0, Infinity)).toEqual({ bound: 1.25, ticks: [0.8, 1, 1.25] });
  });
});

describe('bar chart on a log axis around 1', () => {
  const ratios = (groups: BarChartSpec['groups']) =>
    renderBarChart({
      id: 'ratios',
      title: 'Deadbolt × each peer',
      description: 'Ratios.',
      series: ['ratio'],
      groups,
      axis: 'log',
      reference: { value: 1, label: '1 = even' },
    });
  const svg = ratios([
    { label: 'ahead', values: [1.6], spreads: [{ min: 1.3, max: 1.9 }] },
    { label: 'behind, with a long name', values: [0.8], spreads: [{ min: 0.6, max: 0.95 }] },
    { label: 'level', values: [1.1] },
  ]);
  const one = referenceX(svg);
  const [ahead, behind, level] = bars(svg);

  it('starts every bar at the dashed line at 1: to the right above 1, to the left below', () => {
    expect(ahead?.x).toBeCloseTo(one, 1);
    expect(level?.x).toBeCloseTo(one, 1);
    expect((behind?.x ?? 0) + (behind?.width ?? 0)).toBeCloseTo(one, 1);
    expect(behind?.x).toBeLessThan(one - 10);
    // Lengths in proportion to the logs: 1.6, and 0.8 as far from 1 as 1.25.
    expect((ahead?.width ?? 0) / (behind?.width ?? 1)).toBeCloseTo(Math.log(1.6) / Math.log(1.25), 1);
    expect(svg).toContain('>1 = even</text>');
    for (const tick of ['0.5', '0.8', '1', '1.25', '2']) expect(svg).toContain(`>${tick}</text>`);
  });

  it('draws the whiskers on the same axis and writes each value past its end, on the side it points to', () => {
    const [up, down] = whiskers(svg);
    const perLog = (ahead?.width ?? 0) / Math.log(1.6);
    expect(up?.from ?? 0).toBeCloseTo(one + Math.log(1.3) * perLog, 0);
    expect(up?.to ?? 0).toBeCloseTo(one + Math.log(1.9) * perLog, 0);
    expect(down?.from ?? 0).toBeCloseTo(one + Math.log(0.6) * perLog, 0);
    expect(down?.to ?? 0).toBeCloseTo(one + Math.log(0.95) * perLog, 0);
    const [aheadX, behindX, levelX] = valueX(svg);
    expect(aheadX).toBeGreaterThan(up?.to ?? Infinity);
    expect(levelX).toBeGreaterThan((level?.x ?? Infinity) + (level?.width ?? 0));
    // Below 1 the value ends left of the whisker, and clear of the group labels (right-aligned).
    expect(svg).toMatch(/<text class="value" x="[\d.]+" y="[\d.]+" text-anchor="end"[^>]*>0\.8</);
    expect(behindX).toBeLessThan(down?.from ?? -Infinity);
    const labelRight = Math.max(...[...svg.matchAll(/<text class="label" x="([\d.]+)"/g)].map((m) => Number(m[1])));
    expect((behindX ?? 0) - textWidth('0.8', 12)).toBeGreaterThan(labelRight);
    expect(texts(svg, 'value')).toEqual(['1.6', '0.8', '1.1']);
  });

  it('keeps a bar near 1 visible beside a huge ratio: lengths go by the log, not the ratio', () => {
    const [huge, close] = bars(
      ratios([
        { label: 'huge', values: [150] },
        { label: 'close', values: [0.9] },
      ]),
    );
    // On a linear axis from 0 the 0.9 bar would be 0.9 / 150 of the other, about 1:167; here 1:48, to the left.
    expect((close?.width ?? 0) / (huge?.width ?? 1)).toBeCloseTo(Math.log(1 / 0.9) / Math.log(150), 2);
    expect(close?.width).toBeGreaterThan(3);
    expect(close?.x).toBeLessThan(huge?.x ?? -Infinity);
  });
});

describe('benchmark charts from results with repetitions', () => {
  const results: BenchResultsJson = {
    scenarios: [
      {
        id: 'uncontended',
        title: '1. Uncontended',
        columns: [{ key: 'cyclesPerSecond', label: 'cycles/s' }],
        headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
        rows: [
          {
            contender: 'deadbolt/ioredis',
            library: 'Deadbolt',
            driver: 'ioredis',
            figures: { cyclesPerSecond: 4200 },
            repetitions: { cyclesPerSecond: [4100, 4200, 4400] },
          },
          {
            contender: 'peer/ioredis',
            library: 'peer',
            driver: 'ioredis',
            figures: { cyclesPerSecond: 4500 },
            repetitions: { cyclesPerSecond: [4500, 4500, 4500] },
          },
        ],
      },
    ],
  };

  it("draws the median as the bar and the repetitions' spread as a whisker, and says so", () => {
    const chart = benchmarkCharts(results).find(
      (candidate) => candidate.file === 'benchmarks-uncontended-cyclespersecond.svg',
    );
    const svg = chart?.svg ?? '';
    expect(texts(svg, 'value')).toEqual(['4,200', '4,500']);
    // The peer's repetitions agree exactly: no whisker to draw.
    expect(whiskers(svg).map((drawn) => drawn.title)).toEqual(['deadbolt/ioredis: from 4,100 to 4,400']);
    expect(svg).toContain('>Bars: the median of 3 repetitions; whiskers: their spread, smallest to largest.</text>');
  });
});

describe('benchmark charts: Deadbolt × each peer', () => {
  const deadbolt = {
    contender: 'deadbolt/ioredis',
    library: 'Deadbolt',
    driver: 'ioredis',
    figures: { acquisitionsPerSecond: 1500, waitP99Ms: 10, commandsAt128: 20 },
  };
  const results: BenchResultsJson = {
    scenarios: [
      {
        id: 'handoff',
        title: '3. Handoff',
        columns: [
          { key: 'acquisitionsPerSecond', label: 'acquisitions/s' },
          { key: 'waitP99Ms', label: 'wait p99 (ms)' },
          { key: 'commandsAt128', label: 'commands at 128' },
        ],
        headlines: [
          { key: 'acquisitionsPerSecond', better: 'higher' },
          { key: 'waitP99Ms', better: 'lower' },
          { key: 'commandsAt128', better: 'lower' },
        ],
        rows: [
          deadbolt,
          {
            contender: 'slow/ioredis',
            library: 'slow',
            driver: 'ioredis',
            figures: { acquisitionsPerSecond: 10, waitP99Ms: 9 },
            deadboltAdvantage: {
              acquisitionsPerSecond: { median: 150, min: 120, max: 160, ratios: [150, 120, 160] },
              waitP99Ms: { median: 0.9, min: 0.9, max: 0.9, ratios: [0.9, 0.9, 0.9] },
            },
          },
          {
            contender: 'fast/ioredis',
            library: 'fast',
            driver: 'ioredis',
            figures: { acquisitionsPerSecond: 1900, waitP99Ms: 12 },
            deadboltAdvantage: {
              acquisitionsPerSecond: { median: 0.8, min: 0.7, max: 0.95, ratios: [0.8, 0.7, 0.95] },
              waitP99Ms: { median: 1.2, min: 1.1, max: 1.3, ratios: [1.2, 1.1, 1.3] },
            },
          },
        ],
      },
    ],
  };
  const charts = benchmarkCharts(results);
  const chartOf = (key: string) =>
    charts.find((chart) => chart.file === `${advantageChartId('benchmarks', 'handoff', key)}.svg`);

  it('draws one after the chart of each headline figure that peers are compared on, in its section', () => {
    expect(charts.map((chart) => chart.file)).toEqual([
      `${headlineChartId('benchmarks', 'handoff', 'acquisitionsPerSecond')}.svg`,
      `${advantageChartId('benchmarks', 'handoff', 'acquisitionsPerSecond')}.svg`,
      `${headlineChartId('benchmarks', 'handoff', 'waitP99Ms')}.svg`,
      `${advantageChartId('benchmarks', 'handoff', 'waitP99Ms')}.svg`,
      // No peer has this figure: nothing to compare.
      `${headlineChartId('benchmarks', 'handoff', 'commandsAt128')}.svg`,
    ]);
    expect(charts.map((chart) => chart.section)).toEqual(charts.map(() => '3. Handoff'));
  });

  it('gives each peer the median ratio as its bar on the log axis, whiskers spanning the repetitions', () => {
    const svg = chartOf('acquisitionsPerSecond')?.svg ?? '';
    expect(texts(svg, 'label')).toEqual(['slow/ioredis', 'fast/ioredis']);
    expect(texts(svg, 'value')).toEqual(['150', '0.8']);
    const [slow, fast] = bars(svg);
    const one = referenceX(svg);
    expect(slow?.x).toBeCloseTo(one, 1);
    expect((fast?.x ?? 0) + (fast?.width ?? 0)).toBeCloseTo(one, 1);
    expect(whiskers(svg).map((drawn) => drawn.title)).toEqual([
      'slow/ioredis: from 120 to 160',
      'fast/ioredis: from 0.7 to 0.95',
    ]);
    expect(svg).toContain(
      '>above 1: Deadbolt ahead (to the right); median of 3 repetitions, whiskers their spread</text>',
    );
    expect(tag(svg, 'title')).toBe('3. Handoff: Deadbolt × each peer, acquisitions/s');
  });

  it('turns lower-is-better figures already: the peer Deadbolt waits less than is to the right', () => {
    const svg = chartOf('waitP99Ms')?.svg ?? '';
    const [slow, fast] = bars(svg);
    const one = referenceX(svg);
    expect((slow?.x ?? 0) + (slow?.width ?? 0)).toBeCloseTo(one, 1);
    expect(fast?.x).toBeCloseTo(one, 1);
    // The ratios of every repetition agree for slow/ioredis: no whisker.
    expect(whiskers(svg).map((drawn) => drawn.title)).toEqual(['fast/ioredis: from 1.1 to 1.3']);
  });
});

describe('placing charts', () => {
  const chart = (file: string, section: string | null) => ({ file, section, alt: `chart [${file}]`, svg: '' });
  const markdown = [
    'Intro text.',
    '',
    '## One',
    '',
    'Before.',
    '',
    '| a |',
    '| --- |',
    '| 1 |',
    '',
    '- note',
    '',
    '## Two',
    '',
    'No table.',
    '',
  ].join('\n');

  it('puts each image after its section table, or at the end of the section', () => {
    const out = embedCharts(
      markdown,
      [chart('intro.svg', null), chart('one.svg', 'One'), chart('one-b.svg', 'One'), chart('two.svg', 'Two')],
      './charts',
    );
    expect(out.split('\n')).toEqual([
      'Intro text.',
      '',
      '![chart \\[intro.svg\\]](./charts/intro.svg)',
      '',
      '## One',
      '',
      'Before.',
      '',
      '| a |',
      '| --- |',
      '| 1 |',
      '',
      '![chart \\[one.svg\\]](./charts/one.svg)',
      '',
      '![chart \\[one-b.svg\\]](./charts/one-b.svg)',
      '',
      '- note',
      '',
      '## Two',
      '',
      'No table.',
      '',
      '![chart \\[two.svg\\]](./charts/two.svg)',
      '',
    ]);
  });

  it('fails for a section the markdown does not have', () => {
    expect(() => embedCharts(markdown, [chart('x.svg', 'Three')], './charts')).toThrow('no "## Three" for x.svg');
  });
});

describe('the results pages, from the checked-in results', () => {
  /** The part of the page from the heading `## title` to the next one. */
  const section = (page: string, title: string) => {
    const start = page.indexOf(`\n## ${title}\n`);
    const end = page.indexOf('\n## ', start + 1);
    return start === -1 ? '' : page.slice(start, end === -1 ? undefined : end);
  };

  it('benchmarks: one chart per headline figure in the section of its scenario, from its figures', () => {
    const bench = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as BenchResultsJson;
    const generated = resultsPage(root, 'benchmarks.md');
    const page = generated.page ?? '';
    const headlines = bench.scenarios.flatMap((scenario) =>
      (scenario.headlines ?? []).map((headline) => ({ scenario, headline })),
    );
    expect(headlines.length).toBeGreaterThan(3);
    // Scenario 3 compares throughput and wait p99 side by side.
    expect(bench.scenarios.find((scenario) => scenario.id === 'handoff-8')?.headlines?.map(({ key }) => key)).toEqual(
      expect.arrayContaining(['acquisitionsPerSecond', 'waitP99Ms']),
    );

    const fileOf = ({ scenario, headline }: (typeof headlines)[number]) =>
      `${headlineChartId('benchmarks', scenario.id, headline.key)}.svg`;
    const headlineFiles = new Set(headlines.map(fileOf));
    expect(images(page).filter((file) => headlineFiles.has(file))).toEqual(headlines.map(fileOf));
    for (const entry of headlines) {
      const { scenario, headline } = entry;
      const file = fileOf(entry);
      // In the scenario's own section, after its table.
      const own = section(page, scenario.title);
      expect(own, file).toContain(`](./charts/${file})`);
      expect(own.indexOf(`](./charts/${file})`)).toBeGreaterThan(own.lastIndexOf('\n| '));
      // Every contender's headline figure, as the table gives it; Deadbolt's hatched.
      const svg = generated.charts.find((chart) => chart.file === file)?.svg ?? '';
      const rows = scenario.rows.filter((row) => row.figures[headline.key] !== undefined);
      expect(texts(svg, 'label')).toEqual(rows.map((row) => row.contender));
      expect(texts(svg, 'value')).toEqual(rows.map((row) => formatNumber(row.figures[headline.key] ?? NaN)));
      expect(bars(svg).map((bar) => bar.fill.startsWith('url(#'))).toEqual(
        rows.map((row) => row.library === 'Deadbolt'),
      );
      // A whisker per contender whose repetitions differ (none in results from before repetitions).
      const spread = rows.filter((row) => new Set(row.repetitions?.[headline.key] ?? []).size > 1);
      expect(whiskers(svg).map((drawn) => drawn.title.split(':')[0])).toEqual(spread.map((row) => row.contender));
      expect(tag(svg, 'title')).toContain(scenario.title);
    }
  });

  it('benchmarks: Deadbolt × each peer after the chart of each headline figure peers are compared on', () => {
    const bench = JSON.parse(readFileSync(join(root, 'bench/results/latest.json'), 'utf8')) as BenchResultsJson;
    const generated = resultsPage(root, 'benchmarks.md');
    const page = generated.page ?? '';
    const compared = bench.scenarios.flatMap((scenario) =>
      (scenario.headlines ?? []).flatMap((headline) => {
        const peers = scenario.rows.filter((row) => row.deadboltAdvantage?.[headline.key] !== undefined);
        return peers.length > 0 ? [{ scenario, headline, peers }] : [];
      }),
    );
    expect(compared.length).toBeGreaterThan(3);
    for (const { scenario, headline, peers } of compared) {
      const file = `${advantageChartId('benchmarks', scenario.id, headline.key)}.svg`;
      const own = images(section(page, scenario.title));
      expect(own.indexOf(file), file).toBe(
        own.indexOf(`${headlineChartId('benchmarks', scenario.id, headline.key)}.svg`) + 1,
      );
      const svg = generated.charts.find((chart) => chart.file === file)?.svg ?? '';
      const advantages = peers.map((row) => row.deadboltAdvantage?.[headline.key] ?? { median: NaN, min: 0, max: 0 });
      expect(texts(svg, 'label')).toEqual(peers.map((row) => row.contender));
      expect(texts(svg, 'value')).toEqual(advantages.map((advantage) => formatNumber(advantage.median)));
      // Ahead to the right of the line at 1, behind to its left.
      const one = referenceX(svg);
      bars(svg).forEach((bar, index) =>
        expect((advantages[index]?.median ?? 0) < 1 ? bar.x + bar.width : bar.x, `${file} ${bar.title}`).toBeCloseTo(
          one,
          1,
        ),
      );
      expect(whiskers(svg)).toHaveLength(advantages.filter((advantage) => advantage.min < advantage.max).length);
    }
  });

  it('benchmarks: handoff p50 and p99 side by side, and no chart before the tables', () => {
    const generated = resultsPage(root, 'benchmarks.md');
    const page = generated.page ?? '';
    const handoff = generated.charts.find((chart) => chart.file === 'benchmarks-handoff-8-handoff.svg');
    expect(texts(handoff?.svg ?? '', 'value')[0]).toMatch(/^p50 [\d.]+$/);
    expect(texts(handoff?.svg ?? '', 'value')[1]).toMatch(/^p99 [\d.]+$/);
    expect(images(page)).toContain('benchmarks-handoff-128-wait.svg');
    // The floor ratios are in the tables; the one chart mixing their directions is gone (issue 33).
    expect(images(page.slice(0, page.indexOf('\n## Contenders')))).toEqual([]);
    // Every chart is on the page once, and every image on the page is a chart drawn.
    expect([...images(page)].sort()).toEqual(generated.charts.map((chart) => chart.file).sort());
    for (const chart of generated.charts) {
      expect(tag(chart.svg, 'title'), chart.file).not.toBe('');
      expect(tag(chart.svg, 'desc'), chart.file).toContain('Values: ');
    }
  });

  it('reliability: the faults by type and the outcomes by adapter and topology', () => {
    const results = JSON.parse(
      readFileSync(join(root, 'reliability/results/latest.json'), 'utf8'),
    ) as ReliabilityResultsJson;
    const generated = resultsPage(root, 'reliability.md');
    const page = generated.page ?? '';
    expect(section(page, 'Faults injected')).toContain('](./charts/reliability-faults.svg)');
    expect(section(page, 'By adapter and topology')).toContain('](./charts/reliability-outcomes.svg)');
    const faults = generated.charts.find((chart) => chart.file === 'reliability-faults.svg')?.svg ?? '';
    const types = Object.keys(results.totals.faults).sort((a, b) => a.localeCompare(b));
    expect(texts(faults, 'label')).toEqual(types);
    expect(texts(faults, 'value')).toEqual(types.map((type) => formatNumber(results.totals.faults[type] ?? NaN)));
    const outcomes = generated.charts.find((chart) => chart.file === 'reliability-outcomes.svg')?.svg ?? '';
    expect(texts(outcomes, 'label')).toEqual(Object.keys(results.byScope));
    // Counts exactly as the record holds them.
    expect(texts(outcomes, 'value')).toEqual(
      Object.values(results.byScope).flatMap((figures) => [
        `operations completed ${figures.operations.toLocaleString('en-US')}`,
        `overlaps found ${figures.overlaps}`,
        `updates lost ${figures.lostUpdates}`,
      ]),
    );
    expect(bars(outcomes)).toHaveLength(Object.keys(results.byScope).length * 3);
  });
});
