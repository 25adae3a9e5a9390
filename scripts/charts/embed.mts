// Puts charts on a results page: each as a markdown image right after the first table of its
// section (or at the end of the section when it has none), in the order given.
import type { Chart } from './chart.mjs';

/** Alternative text that cannot end the image's brackets early. */
const altText = (alt: string) => alt.replace(/[\\[\]]/g, (char) => `\\${char}`).replace(/\s+/g, ' ');

/**
 * The markdown with the charts' images in it, linked as `${directory}/${chart.file}`. A chart
 * whose section is not in the markdown is an error: the results' JSON and markdown disagree.
 */
export function embedCharts(markdown: string, charts: readonly Chart[], directory: string): string {
  const lines = markdown.split('\n');
  const headings = lines.flatMap((line, index) =>
    line.startsWith('## ') ? [{ index, text: line.slice(3).trim() }] : [],
  );
  const insertions = new Map<number, string[]>();
  for (const chart of charts) {
    const at = headings.findIndex((heading) => heading.text === chart.section);
    if (chart.section !== null && at === -1) throw new Error(`embedCharts: no "## ${chart.section}" for ${chart.file}`);
    const start = chart.section === null ? 0 : (headings[at]?.index ?? 0) + 1;
    const end =
      chart.section === null ? (headings[0]?.index ?? lines.length) : (headings[at + 1]?.index ?? lines.length);
    // After the first table's last row; else after the section's last line of text.
    const table = lines.findIndex((line, index) => index >= start && index < end && line.startsWith('|'));
    let after = end - 1;
    if (table !== -1) {
      after = table;
      while (after + 1 < end && lines[after + 1]?.startsWith('|')) after++;
    } else {
      while (after >= start && (lines[after] ?? '').trim() === '') after--;
    }
    insertions.set(after, [...(insertions.get(after) ?? []), `![${altText(chart.alt)}](${directory}/${chart.file})`]);
  }
  const images = (index: number) => (insertions.get(index) ?? []).flatMap((image) => ['', image]);
  // Index -1: an empty text before the first heading.
  return [...images(-1).slice(1), ...lines.flatMap((line, index) => [line, ...images(index)])].join('\n');
}
