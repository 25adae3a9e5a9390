// A horizontal bar chart as a standalone SVG: one group of bars per label (one bar per series),
// on a linear axis from 0 or a log axis around 1 (see barAxis.mts), each bar's value written past
// its end (past the whisker of its spread, where it has one: a median of repetitions, the whisker
// spanning their smallest to largest), on the side the bar points to.
// Meaning never rests on colour alone: every bar has its group's label beside it and its value
// (with the series' name when there are several) at its end, and highlighted groups (Deadbolt's
// rows) are hatched and bold.
import { linearAxis, logAxis, pointsLeft, type BarAxis } from './barAxis.mjs';
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
  /**
   * The value axis: linear from 0 (the default), or log, symmetric around 1, for ratios: bars start
   * at 1 and go right for values above it, left for values below.
   */
  readonly axis?: 'linear' | 'log';
  /** A dashed vertical line at a value, labelled (e.g. 1 = even); at the bars' origin, it is drawn instead of the axis line. */
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

/** One entry of the legend: a series' colour, or the hatching of highlighted bars. */
interface LegendItem {
  readonly text: string;
  readonly series: number;
  readonly hatched: boolean;
}

/** The legend: the series (when several) and the highlighted kind of bar. */
function legendOf(spec: BarChartSpec): LegendItem[] {
  const highlighted = spec.groups.some((group) => group.highlight === true);
  return [
    ...(spec.series.length > 1 ? spec.series.map((name, series) => ({ text: name, series, hatched: false })) : []),
    ...(highlighted && spec.highlightName !== undefined
      ? [{ text: `${spec.highlightName}: hatched, label in bold`, series: 0, hatched: true }]
      : []),
  ];
}

const legendWidth = (legend: readonly LegendItem[]) =>
  legend.reduce((sum, item) => sum + SWATCH + 6 + textWidth(item.text, FONT) + 18, 0);

/** The chart's axis, covering every value, whisker end and the reference. */
function axisOf(spec: BarChartSpec): BarAxis {
  const drawn = spec.groups.flatMap((group) => [
    ...group.values,
    ...(group.spreads ?? []).flatMap((spread) => [spread?.min, spread?.max]),
  ]);
  const values = [
    ...(spec.reference === undefined ? [] : [spec.reference.value]),
    ...drawn.filter((value): value is number => value !== undefined),
  ];
  return spec.axis === 'log' ? logAxis(values) : linearAxis(values);
}

/** The widest value text written left of its bar, and the widest written right (a missing figure's: at the origin, right). */
function valueWidths(spec: BarChartSpec, axis: BarAxis): { left: number; right: number } {
  const widths = { left: 0, right: 0 };
  for (const group of spec.groups) {
    for (let series = 0; series < Math.max(1, spec.series.length); series++) {
      const value = group.values[series];
      const side = value !== undefined && pointsLeft(axis, value) ? 'left' : 'right';
      widths[side] = Math.max(widths[side], textWidth(valueText(spec, series, value), FONT, group.highlight));
    }
  }
  return widths;
}

/** Where everything goes. */
interface Layout {
  readonly width: number;
  readonly height: number;
  /** Where the group labels end: they are right-aligned. */
  readonly labelRight: number;
  readonly plotTop: number;
  readonly plotBottom: number;
  readonly groupHeight: number;
  readonly groupGap: number;
  /** The x of a value on the axis. */
  readonly xOf: (value: number) => number;
}

/** Widths: labels on the left, values written left of their bars, the plot, values on the right; heights: the header, the reference label, the groups, the tick labels. */
function layoutOf(spec: BarChartSpec, axis: BarAxis, legend: readonly LegendItem[], headerBottom: number): Layout {
  const seriesCount = Math.max(1, spec.series.length);
  const labelWidth = Math.max(0, ...spec.groups.map((group) => textWidth(group.label, FONT, group.highlight)));
  const values = valueWidths(spec, axis);
  const left = values.left > 0 ? values.left + 6 : 0;
  const headerWidth = Math.max(
    textWidth(spec.title, TITLE_FONT, true),
    ...(spec.subtitle ?? []).map((line) => textWidth(line, FONT)),
  );
  const fixed = PAD + labelWidth + 10 + left + 6 + values.right + PAD;
  const plotWidth = Math.max(MIN_PLOT, headerWidth + 2 * PAD - fixed, legendWidth(legend) + 2 * PAD - fixed);
  const plotX = PAD + labelWidth + 10 + left;
  const plotTop = headerBottom + (spec.reference === undefined ? 0 : LINE) + 14;
  const groupHeight = seriesCount * BAR + (seriesCount - 1) * BAR_GAP;
  const groupGap = seriesCount > 1 ? 12 : 6;
  const plotBottom = plotTop + spec.groups.length * groupHeight + Math.max(0, spec.groups.length - 1) * groupGap;
  return {
    width: Math.ceil(fixed + plotWidth),
    height: Math.ceil(plotBottom + LINE + PAD),
    labelRight: PAD + labelWidth,
    plotTop,
    plotBottom,
    groupHeight,
    groupGap,
    xOf: (value) => plotX + axis.position(value) * plotWidth,
  };
}

/** The title, the subtitle lines and the legend, and the y of the last. */
function drawHeader(spec: BarChartSpec, legend: readonly LegendItem[]): { body: string[]; bottom: number } {
  let y = PAD + TITLE_FONT;
  const body = [
    `<text x="${PAD}" y="${c(y)}" font-size="${TITLE_FONT}" font-weight="bold" fill="${TEXT}">${escapeXml(spec.title)}</text>`,
  ];
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
  return { body, bottom: y };
}

/** Grid lines and tick labels. */
function drawGrid(axis: BarAxis, layout: Layout): string[] {
  return axis.ticks.flatMap((tick) => {
    const x = c(layout.xOf(tick));
    return [
      `<line x1="${x}" y1="${c(layout.plotTop - 4)}" x2="${x}" y2="${c(layout.plotBottom + 4)}" stroke="${GRID}"/>`,
      `<text x="${x}" y="${c(layout.plotBottom + LINE)}" text-anchor="middle" fill="${MUTED}">${escapeXml(formatNumber(tick))}</text>`,
    ];
  });
}

/** Hatches for highlighted bars, one per series colour. */
function hatches(spec: BarChartSpec): string[] {
  if (!spec.groups.some((group) => group.highlight === true)) return [];
  return Array.from({ length: Math.max(1, spec.series.length) }, (_, series) => {
    const { light, strong } = colours(series);
    return [
      `<pattern id="${spec.id}-hatch-${series}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">`,
      `<rect width="6" height="6" fill="${strong}"/>`,
      `<line x1="0" y1="0" x2="0" y2="6" stroke="${light}" stroke-width="3"/>`,
      `</pattern>`,
    ];
  }).flat();
}

/** One bar from the origin, its whisker, and its value past both, on the side the bar points to. */
function drawBar(spec: BarChartSpec, axis: BarAxis, layout: Layout, group: BarGroup, series: number, top: number) {
  const value = group.values[series];
  const middle = top + BAR / 2;
  const weight = group.highlight === true ? ' font-weight="bold"' : '';
  const origin = layout.xOf(axis.origin);
  const left = value !== undefined && pointsLeft(axis, value);
  const body: string[] = [];
  let end = origin;
  if (value !== undefined) {
    end = layout.xOf(value);
    const { light, strong } = colours(series);
    const fill = group.highlight === true ? `url(#${spec.id}-hatch-${series})` : light;
    const name = spec.series.length > 1 ? `${group.label}, ${spec.series[series] ?? ''}` : group.label;
    body.push(
      `<rect class="bar" x="${c(Math.min(origin, end))}" y="${c(top)}" width="${c(Math.abs(end - origin))}" height="${BAR}" fill="${fill}" stroke="${strong}"><title>${escapeXml(`${name}: ${formatNumber(value)}`)}</title></rect>`,
    );
    const spread = group.spreads?.[series];
    if (spread !== undefined) {
      body.push(whisker(spread, name, layout.xOf, middle));
      // The value is written past the whisker, not over it.
      end = left ? Math.min(end, layout.xOf(spread.min)) : Math.max(end, layout.xOf(spread.max));
    }
  }
  const at = left ? `x="${c(end - 6)}" y="${c(middle)}" text-anchor="end"` : `x="${c(end + 6)}" y="${c(middle)}"`;
  body.push(
    `<text class="value" ${at} dominant-baseline="central" fill="${TEXT}"${weight}>${escapeXml(valueText(spec, series, value))}</text>`,
  );
  return body;
}

/** A group's label and its bars. */
function drawGroup(spec: BarChartSpec, axis: BarAxis, layout: Layout, group: BarGroup, index: number): string[] {
  const top = layout.plotTop + index * (layout.groupHeight + layout.groupGap);
  const weight = group.highlight === true ? ' font-weight="bold"' : '';
  return [
    `<text class="label" x="${c(layout.labelRight)}" y="${c(top + layout.groupHeight / 2)}" text-anchor="end" dominant-baseline="central" fill="${TEXT}"${weight}>${escapeXml(group.label)}</text>`,
    ...Array.from({ length: Math.max(1, spec.series.length) }, (_, series) =>
      drawBar(spec, axis, layout, group, series, top + series * (BAR + BAR_GAP)),
    ).flat(),
  ];
}

/** The axis line where the bars start, and the reference line over the bars (instead of the axis line, dashed, where they meet). */
function drawAxisLines(spec: BarChartSpec, axis: BarAxis, layout: Layout): string[] {
  const { plotTop, plotBottom } = layout;
  const lines: string[] = [];
  if (spec.reference?.value !== axis.origin) {
    const x = c(layout.xOf(axis.origin));
    lines.push(`<line x1="${x}" y1="${c(plotTop - 4)}" x2="${x}" y2="${c(plotBottom + 4)}" stroke="${MUTED}"/>`);
  }
  if (spec.reference !== undefined) {
    const x = c(layout.xOf(spec.reference.value));
    lines.push(
      `<line class="reference" x1="${x}" y1="${c(plotTop - 6)}" x2="${x}" y2="${c(plotBottom + 4)}" stroke="${TEXT}" stroke-width="1.5" stroke-dasharray="5 3"/>`,
      `<text x="${x}" y="${c(plotTop - 10)}" text-anchor="middle" fill="${TEXT}">${escapeXml(spec.reference.label)}</text>`,
    );
  }
  return lines;
}

/** The SVG of a horizontal bar chart. */
export function renderBarChart(spec: BarChartSpec): string {
  const legend = legendOf(spec);
  const axis = axisOf(spec);
  const header = drawHeader(spec, legend);
  const layout = layoutOf(spec, axis, legend, header.bottom);
  const defs = hatches(spec);
  const body = [
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...header.body,
    ...drawGrid(axis, layout),
    ...spec.groups.flatMap((group, index) => drawGroup(spec, axis, layout, group, index)),
    ...drawAxisLines(spec, axis, layout),
  ];
  return svgDocument({
    id: spec.id,
    width: layout.width,
    height: layout.height,
    title: spec.title,
    description: `${spec.description} ${listing(spec)}`,
    body: defs.length > 0 ? [`<defs>`, ...defs, `</defs>`, ...body] : body,
  });
}
