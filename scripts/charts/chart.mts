// A chart of a results page: its SVG, the file it is written to, and where on the page it goes.

export interface Chart {
  /** The SVG's file name, unique across the site (typedoc copies every linked file into one media/ folder). */
  readonly file: string;
  /**
   * The `## ` heading of the results markdown whose table the chart follows; null: the text
   * before the first heading.
   */
  readonly section: string | null;
  /** The image's alternative text on the page. */
  readonly alt: string;
  readonly svg: string;
}

/** A name made of lowercase letters, digits and hyphens, for file names and SVG ids. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
