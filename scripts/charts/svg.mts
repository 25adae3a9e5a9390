// The few SVG and text helpers the charts share. Everything here is a pure function of its input,
// so the same results always give the same SVG bytes.

/** Text made safe for SVG content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * A figure as the results show it, with en-US grouping: a whole number exactly (a count of the
 * reliability record, or a benchmark figure, which bench/src/report.ts rounds already), any other
 * to at most 3 significant digits, as the benchmark tables do.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value)
    ? value.toLocaleString('en-US')
    : value.toLocaleString('en-US', { maximumSignificantDigits: 3 });
}

/** A coordinate written with at most 2 decimals, without float noise such as 0.30000000000000004. */
export function coordinate(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * The width a text takes, estimated: SVG has no text metrics without a browser, and the layout
 * must not depend on one. An average sans-serif glyph is about 0.6 em; bold adds a little.
 */
export function textWidth(text: string, fontSize: number, bold = false): number {
  return text.length * fontSize * (bold ? 0.64 : 0.6);
}

/** A complete, standalone SVG document with the accessible name and description every chart carries. */
export function svgDocument(options: {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  readonly description: string;
  readonly body: readonly string[];
}): string {
  const { id, width, height, title, description, body } = options;
  const w = coordinate(width);
  const h = coordinate(height);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="12">`,
    `<title id="${id}-title">${escapeXml(title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(description)}</desc>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
