// A horizontal bar chart as a standalone SVG: one group of bars per label (one bar per series),
// on a linear scale from 0, each bar's value written at its end (past the whisker of its spread,
// where it has one: a median of repetitions, the whisker spanning their smallest to largest).
// Meaning never rests on colour alone: every bar has its group's label beside it and its value
// (with the series' name when there are several) at its end, and highlighted groups (Deadbolt's
// rows) are hatched and bold.
import { linearScale } from './scale.mjs';
import { coordinate as c, escapeXml, formatNumber, svgDocument, textWidth } from './svg.mjs';

/** How far a value varied over repeated measurements: drawn as a whisker across its bar's end. */
export interface Spread {
  readonly min: number;
  readonly max: number;
}

/** One label's bars: a value per series (undefined: no figure). */
export interface BarGroup {
  readonly label: string;
  readonly values: readonly (number | undefined)[];
  /** Per series, the spread of the value (a median of repetitions: their smallest to largest); none: no whisker. */
  readonly spreads?: readonly (Spread | undefined)[];
  /** Drawn hatched with a bold label, and named in the legend (Deadbolt's rows). */
  readonly highlight?: boolean;
}

export interface BarChartSpec {
  /** Ids inside the SVG start with it (a file name stem will do). */
  readonly id: string;
  /** The chart's heading, and its accessible name (`<title>`). */
  readonly title: string;
  /** Lines under the title: the unit, which way is better. */
  readonly subtitle?: readonly string[];
  /** What the chart shows, for `<desc>`; every value is listed after it. */
  readonly description: string;
  /** One name per bar in a group; with more than one, each value is written after its series' name. */
  readonly series: readonly string[];
  readonly groups: readonly BarGroup[];
  /** What highlighted groups are, for the legend (e.g. "Deadbolt"). */
  readonly highlightName?: string;
  /** A dashed vertical line at a value, labelled (e.g. 1 = the floor). */
  readonly reference?: { readonly value: number; readonly label: string };
}

const PAD = 16;
const FONT = 12;
const TITLE_FONT = 15;
const LINE = 18;
const BAR = 16;
const BAR_GAP = 3;
const MIN_PLOT = 320;
const SWATCH = 12;
const TEXT = '#1f2328';
const MUTED = '#57606a';
const GRID = '#d0d7de';

/** Series colours, light (plain bars) and strong (outline, and the ground of hatched bars); colour-blind-safe hues. */
const PALETTE: readonly { readonly light: string; readonly strong: string }[] = [
  { light: '#9ebcda', strong: '#1f4e79' },
  { light: '#f5c28e', strong: '#9c4a00' },
  { light: '#b9d7a8', strong: '#2f6b1b' },
  { light: '#d2b8e3', strong: '#5b3c8c' },
];
const colours = (series: number) => PALETTE[series % PALETTE.length] ?? { light: '#cccccc', strong: '#333333' };

/** The text at a bar's end. */
function valueText(spec: BarChartSpec, series: number, value: number | undefined): string {
  const figure = value === undefined ? 'no figure' : formatNumber(value);
  return spec.series.length > 1 ? `${spec.series[series] ?? ''} ${figure}` : figure;
}

/** A spread in words, after its value: ` (from 110 to 130)`; nothing without one. */
const spreadText = (spread: Spread | undefined) =>
  spread === undefined ? '' : ` (from ${formatNumber(spread.min)} to ${formatNumber(spread.max)})`;

/** Every value, with its spread, in words, for `<desc>`. */
function listing(spec: BarChartSpec): string {
  const described = (group: BarGroup, series: number) =>
    `${valueText(spec, series, group.values[series])}${spreadText(group.spreads?.[series])}`;
  const groups = spec.groups.map((group) =>
    spec.series.length > 1
      ? `${group.label}: ${group.values.map((_, series) => described(group, series)).join(', ')}`
      : `${group.label} ${described(group, 0)}`,
  );
  return `Values: ${groups.join('; ')}.`;
}

/** A whisker from a spread's smallest to its largest value, at the middle of a bar, with end caps. */
function whisker(spread: Spread, name: string, xOf: (value: number) => number, middle: number): string {
  const [from, to, cap] = [c(xOf(spread.min)), c(xOf(spread.max)), BAR / 4];
  return [
    `<g class="whisker" stroke="${TEXT}" stroke-width="1.5"><title>${escapeXml(`${name}: from ${formatNumber(spread.min)} to ${formatNumber(spread.max)}`)}</title>`,
    `<line x1="${from}" y1="${c(middle)}" x2="${to}" y2="${c(middle)}"/>`,
    `<line x1="${from}" y1="${c(middle - cap)}" x2="${from}" y2="${c(middle + cap)}"/>`,
    `<line x1="${to}" y1="${c(middle - cap)}" x2="${to}" y2="${c(middle + cap)}"/>`,
    `</g>`,
  ].join('');
}

/** The SVG of a horizontal bar chart. */
export function renderBarChart(spec: BarChartSpec): string {
  const seriesCount = Math.max(1, spec.series.length);
  const highlighted = spec.groups.some((group) => group.highlight === true);

  // Legend: the series (when several) and the highlighted kind of bar.
  const legend: { readonly text: string; readonly series: number; readonly hatched: boolean }[] = [
    ...(spec.series.length > 1 ? spec.series.map((name, series) => ({ text: name, series, hatched: false })) : []),
    ...(highlighted && spec.highlightName !== undefined
      ? [{ text: `${spec.highlightName}: hatched, label in bold`, series: 0, hatched: true }]
      : []),
  ];

  // Widths: labels on the left, the plot, values on the right.
  const labelWidth = Math.max(0, ...spec.groups.map((group) => textWidth(group.label, FONT, group.highlight)));
  const valueWidth = Math.max(
    0,
    ...spec.groups.flatMap((group) =>
      Array.from({ length: seriesCount }, (_, series) =>
        textWidth(valueText(spec, series, group.values[series]), FONT, group.highlight),
      ),
    ),
  );
  const headerWidth = Math.max(
    textWidth(spec.title, TITLE_FONT, true),
    ...(spec.subtitle ?? []).map((line) => textWidth(line, FONT)),
  );
  const legendWidth = legend.reduce((sum, item) => sum + SWATCH + 6 + textWidth(item.text, FONT) + 18, 0);
  const fixed = PAD + labelWidth + 10 + 6 + valueWidth + PAD;
  const plotWidth = Math.max(MIN_PLOT, headerWidth + 2 * PAD - fixed, legendWidth + 2 * PAD - fixed);
  const width = Math.ceil(fixed + plotWidth);
  const plotX = PAD + labelWidth + 10;

  // Heights: title, subtitle lines, legend, reference label, then the groups and the tick labels.
  let y = PAD + TITLE_FONT;
  const body: string[] = [];
  const defs: string[] = [];
  body.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  body.push(
    `<text x="${PAD}" y="${c(y)}" font-size="${TITLE_FONT}" font-weight="bold" fill="${TEXT}">${escapeXml(spec.title)}</text>`,
  );
  for (const line of spec.subtitle ?? []) {
    y += LINE;
    body.push(`<text x="${PAD}" y="${c(y)}" fill="${MUTED}">${escapeXml(line)}</text>`);
  }
  if (legend.length > 0) {
    y += LINE + 4;
    let x = PAD;
    for (const item of legend) {
      const { light, strong } = colours(item.series);
      const fill = item.hatched ? `url(#${spec.id}-hatch-0)` : light;
      body.push(
        `<rect x="${c(x)}" y="${c(y - SWATCH + 2)}" width="${SWATCH}" height="${SWATCH}" fill="${fill}" stroke="${strong}"/>`,
      );
      x += SWATCH + 6;
      body.push(`<text x="${c(x)}" y="${c(y)}" fill="${TEXT}">${escapeXml(item.text)}</text>`);
      x += textWidth(item.text, FONT) + 18;
    }
  }
  if (spec.reference !== undefined) y += LINE;
  const plotTop = y + 14;
  const groupHeight = seriesCount * BAR + (seriesCount - 1) * BAR_GAP;
  const groupGap = seriesCount > 1 ? 12 : 6;
  const plotBottom = plotTop + spec.groups.length * groupHeight + Math.max(0, spec.groups.length - 1) * groupGap;
  const height = Math.ceil(plotBottom + LINE + PAD);

  const drawn = spec.groups.flatMap((group) => [
    ...group.values,
    ...(group.spreads ?? []).map((spread) => spread?.max),
  ]);
  const largest = Math.max(
    0,
    spec.reference?.value ?? 0,
    ...drawn.filter((value): value is number => value !== undefined),
  );
  const scale = linearScale(largest);
  const xOf = (value: number) => plotX + (Math.max(0, value) / scale.max) * plotWidth;

  // Grid and tick labels.
  for (const tick of scale.ticks) {
    const x = c(xOf(tick));
    body.push(`<line x1="${x}" y1="${c(plotTop - 4)}" x2="${x}" y2="${c(plotBottom + 4)}" stroke="${GRID}"/>`);
    body.push(
      `<text x="${x}" y="${c(plotBottom + LINE)}" text-anchor="middle" fill="${MUTED}">${escapeXml(formatNumber(tick))}</text>`,
    );
  }

  // Hatches for highlighted bars, one per series colour.
  if (highlighted) {
    for (let series = 0; series < seriesCount; series++) {
      const { light, strong } = colours(series);
      defs.push(
        `<pattern id="${spec.id}-hatch-${series}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`,
        `<rect width="6" height="6" fill="${strong}"/>`,
        `<line x1="0" y1="0" x2="0" y2="6" stroke="${light}" stroke-width="3"/>`,
        `</pattern>`,
      );
    }
  }

  // The bars.
  spec.groups.forEach((group, index) => {
    const top = plotTop + index * (groupHeight + groupGap);
    const weight = group.highlight === true ? ' font-weight="bold"' : '';
    body.push(
      `<text class="label" x="${c(plotX - 10)}" y="${c(top + groupHeight / 2)}" text-anchor="end" dominant-baseline="central" fill="${TEXT}"${weight}>${escapeXml(group.label)}</text>`,
    );
    for (let series = 0; series < seriesCount; series++) {
      const value = group.values[series];
      const barTop = top + series * (BAR + BAR_GAP);
      const { light, strong } = colours(series);
      let end = plotX;
      if (value !== undefined) {
        end = xOf(value);
        const fill = group.highlight === true ? `url(#${spec.id}-hatch-${series})` : light;
        const name = spec.series.length > 1 ? `${group.label}, ${spec.series[series] ?? ''}` : group.label;
        body.push(
          `<rect class="bar" x="${c(plotX)}" y="${c(barTop)}" width="${c(end - plotX)}" height="${BAR}" fill="${fill}" stroke="${strong}"><title>${escapeXml(`${name}: ${formatNumber(value)}`)}</title></rect>`,
        );
        const spread = group.spreads?.[series];
        if (spread !== undefined) {
          body.push(whisker(spread, name, xOf, barTop + BAR / 2));
          // The value is written past the whisker, not over it.
          end = Math.max(end, xOf(spread.max));
        }
      }
      body.push(
        `<text class="value" x="${c(end + 6)}" y="${c(barTop + BAR / 2)}" dominant-baseline="central" fill="${TEXT}"${weight}>${escapeXml(valueText(spec, series, value))}</text>`,
      );
    }
  });

  // The axis, and the reference line over the bars.
  body.push(
    `<line x1="${c(plotX)}" y1="${c(plotTop - 4)}" x2="${c(plotX)}" y2="${c(plotBottom + 4)}" stroke="${MUTED}"/>`,
  );
  if (spec.reference !== undefined) {
    const x = c(xOf(spec.reference.value));
    body.push(
      `<line class="reference" x1="${x}" y1="${c(plotTop - 6)}" x2="${x}" y2="${c(plotBottom + 4)}" stroke="${TEXT}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
    );
    body.push(
      `<text x="${x}" y="${c(plotTop - 10)}" text-anchor="middle" fill="${TEXT}">${escapeXml(spec.reference.label)}</text>`,
    );
  }

  return svgDocument({
    id: spec.id,
    width,
    height,
    title: spec.title,
    description: `${spec.description} ${listing(spec)}`,
    body: defs.length > 0 ? [`<defs>`, ...defs, `</defs>`, ...body] : body,
  });
}
