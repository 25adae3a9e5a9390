// Reading markdown as GitHub renders it, for the link tests: the relative links of a file, and the
// anchors its headings get. Code (fenced blocks, indented blocks are not used here, inline code
// spans) holds no links.

/** A relative link as written: `path` (may be empty: a link within the file) and `anchor`. */
export interface MarkdownLink {
  readonly line: number;
  readonly target: string;
  readonly path: string;
  readonly anchor: string | undefined;
}

const FENCE = /^\s*(```|~~~)/;

/** The text with fenced code blocks and inline code spans blanked out, line numbers kept. */
export function withoutCode(text: string): string {
  let fenced: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const fence = FENCE.exec(line)?.[1];
      if (fenced !== undefined) {
        if (fence === fenced) fenced = undefined;
        return '';
      }
      if (fence !== undefined) {
        fenced = fence;
        return '';
      }
      return line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
    })
    .join('\n');
}

/** The front matter typedoc reads (`---` … `---` at the top), blanked out. */
function withoutFrontMatter(text: string): string {
  const match = /^---\n[\s\S]*?\n---\n/.exec(text);
  return match ? match[0].replace(/[^\n]/g, '') + text.slice(match[0].length) : text;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * Every relative link and image of a markdown file: inline `[text](target "title")`,
 * `![alt](target)`, reference definitions `[label]: target`, and `href`/`src` of HTML tags.
 */
export function relativeLinks(text: string): MarkdownLink[] {
  const prose = withoutCode(withoutFrontMatter(text));
  const found: { index: number; target: string }[] = [];
  for (const match of prose.matchAll(
    /\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
  )) {
    found.push({ index: match.index + 2, target: match[1] ?? '' });
  }
  for (const match of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm))
    found.push({ index: match.index, target: match[1] ?? '' });
  for (const match of prose.matchAll(/<(?:a|img)\s[^>]*?\b(?:href|src)="([^"]*)"/gi))
    found.push({ index: match.index, target: match[1] ?? '' });
  return found
    .map(({ index, target }) => ({ index, target: target.replace(/^<(.*)>$/, '$1') }))
    .filter(({ target }) => target !== '' && !isExternal(target))
    .map(({ index, target }) => {
      const hash = target.indexOf('#');
      return {
        line: prose.slice(0, index).split('\n').length,
        target,
        path: decodeURIComponent(hash === -1 ? target : target.slice(0, hash)),
        anchor: hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1)),
      };
    })
    .sort((a, b) => a.line - b.line);
}

/** A heading's text as rendered: links, HTML and emphasis reduced to their text; code spans kept as they are. */
function renderedText(heading: string): string {
  return heading
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.slice(1, -1)
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/\*+/g, '')
            // `_emphasis_` loses its markers; `snake_case` keeps its underscore.
            .replace(/\b_+|_+\b/g, ''),
    )
    .join('');
}

/** GitHub's anchor for a heading text (github-slugger): lowercase, punctuation dropped, spaces to hyphens. */
export function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors GitHub gives a markdown file: one per heading (repeats numbered -1, -2, …), and HTML ids and names. */
export function githubAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const prose = withoutCode(withoutFrontMatter(text));
  const original = withoutFrontMatter(text).split('\n');
  prose.split('\n').forEach((line, index) => {
    // Headings are read from the original line (inline code counts in the slug), code blocks skipped.
    if (!/^ {0,3}#{1,6}(\s|$)/.test(line)) return;
    const heading = (original[index] ?? '').replace(/^ {0,3}#{1,6}\s*/, '').replace(/\s+#+\s*$/, '');
    const slug = githubSlug(renderedText(heading));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  });
  for (const match of prose.matchAll(/<[a-z]+\s[^>]*?\b(?:id|name)="([^"]+)"/gi)) anchors.add(match[1] ?? '');
  return anchors;
}
