import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveDirectory } from './staticServer.js';

// The site as a reader gets it: built from this checkout (generated pages, then typedoc into a
// directory of its own), served over HTTP, and read in headless Chromium (Debian's `chromium`,
// which `scripts/bootstrap.sh --tests` installs).
const require = createRequire(import.meta.url);
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = process.env.DEADBOLT_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let out: string;
let site: Awaited<ReturnType<typeof serveDirectory>>;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: run \`bash scripts/bootstrap.sh --tests\` (installs Debian's chromium) or set DEADBOLT_CHROMIUM`,
    );
  }
  out = mkdtempSync(join(tmpdir(), 'deadbolt-site-'));
  await run(process.execPath, ['--import', require.resolve('tsx'), join(root, 'scripts/docs-pages.mts')], {
    cwd: root,
  });
  // typedoc.json treats warnings as errors: a warning fails this build, with typedoc's output.
  await run(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--out', out], {
    cwd: root,
    timeout: 150_000,
  });
  site = await serveDirectory(out);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

const withoutHash = (url: URL) => `${url.origin}${url.pathname}`;

interface PageSeen {
  readonly title: string;
  readonly heading: string;
  readonly content: number;
  readonly hrefs: readonly string[];
  readonly ids: readonly string[];
}

// Chromium asks every page for /favicon.ico; typedoc sites have none, and that 404 is no fault.
const isFaviconMiss = (url: string) => new URL(url).pathname === '/favicon.ico';

// The crawl reads every page (273 of them now), each rendering its navigation in its own script:
// measured about 0.4 s a page in one tab on an idle 2-core machine, and the whole crawl past the
// project's 90 s while the rest of the suite loaded the machine. The limit is for a hang, not a
// speed check: each page still has 15 s to render.
const CRAWL_TIMEOUT_MS = 360_000;

it(
  'every page renders, and every link within the site resolves',
  async () => {
    const origin = new URL(site.url).origin;
    const start = new URL('index.html', site.url).href;
    const queue = [start];
    const referrer = new Map<string, string>([[start, '(start)']]);
    const anchors = new Map<string, Set<string>>();
    const links: { from: string; to: URL }[] = [];
    const problems: string[] = [];

    // A few tabs read pages in parallel; each reports what went wrong on the page it is reading.
    async function reader(pages = Infinity): Promise<void> {
      const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
      let current = '';
      page.on('console', (message) => {
        if (message.type() === 'error' && !isFaviconMiss(message.location().url || 'http://x/')) {
          problems.push(`${current}: console error: ${message.text()}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`${current}: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 400 && !isFaviconMiss(response.url()))
          problems.push(`${current}: HTTP ${response.status()} for ${response.url()}`);
      });
      for (let read = 0, next = queue.shift(); next !== undefined; next = ++read < pages ? queue.shift() : undefined) {
        current = next;
        const response = await page.goto(current, { waitUntil: 'domcontentloaded' });
        if (response?.status() !== 200) {
          problems.push(`${current} (linked from ${referrer.get(current)}): HTTP ${response?.status()}`);
          continue;
        }
        // The navigation is built by the page's script; once it is there the page has rendered.
        await page.waitForFunction(() => document.querySelectorAll('#tsd-nav-container a').length > 0, undefined, {
          timeout: 15_000,
        });
        const seen: PageSeen = await page.evaluate(() => ({
          title: document.title,
          heading: document.querySelector('h1')?.textContent?.trim() ?? '',
          content: document.querySelector('.col-content')?.textContent?.trim().length ?? 0,
          hrefs: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
          ids: [...document.querySelectorAll('[id], a[name]')].map(
            (element) => element.id || element.getAttribute('name') || '',
          ),
        }));
        if (!seen.title.includes('Deadbolt')) problems.push(`${current}: title "${seen.title}"`);
        if (seen.heading === '' || seen.content === 0) problems.push(`${current}: no heading or no content`);
        anchors.set(current, new Set(seen.ids));
        for (const href of seen.hrefs) {
          const target = new URL(href);
          if (target.origin !== origin) continue;
          links.push({ from: current, to: target });
          const targetPage = withoutHash(target);
          if (targetPage.endsWith('.html') && !referrer.has(targetPage)) {
            referrer.set(targetPage, current);
            queue.push(targetPage);
          }
        }
      }
      await page.close();
    }
    await reader(1); // the home page links to every page through its navigation
    await Promise.all([reader(), reader(), reader()]);

    for (const { from, to } of links) {
      const targetPage = withoutHash(to);
      const ids = anchors.get(targetPage);
      if (ids === undefined) {
        if (!targetPage.endsWith('.html') && (await fetch(targetPage)).status !== 200)
          problems.push(`${from}: broken link ${to.href}`);
      } else if (to.hash.length > 1 && !ids.has(decodeURIComponent(to.hash.slice(1)))) {
        problems.push(`${from}: link to a missing anchor ${to.href}`);
      }
    }

    expect(problems).toEqual([]);
    // The crawl reached the reference and the guides, not just the home page.
    const pages = [...anchors.keys()].map((url) => new URL(url).pathname);
    expect(pages).toEqual(
      expect.arrayContaining([
        '/classes/_deadbolt_fair-lock.FairLock.html',
        '/documents/Getting_started.html',
        '/documents/Benchmarks.html',
        '/documents/MultiLock.html',
        '/documents/RedLock.html',
        '/documents/Fencing_tokens_and_replica_sync.html',
      ]),
    );
  },
  CRAWL_TIMEOUT_MS,
);

it("typedoc's search finds FairLock and leads to its page", async () => {
  const page = await browser.newPage();
  await page.goto(new URL('index.html', site.url).href);
  await page.click('#tsd-search-trigger');
  await page.fill('#tsd-search-input', 'FairLock');
  // The guide of the same name is found too; the class is what this asks for.
  const result = page.locator('#tsd-search-results li a[href$="classes/_deadbolt_fair-lock.FairLock.html"]').first();
  await result.waitFor({ timeout: 15_000 });
  await page.goto(new URL((await result.getAttribute('href')) ?? '', page.url()).href);
  expect(await page.locator('h1').textContent()).toContain('FairLock');
  await page.close();
});

it("LockClient's page shows its listener methods with the client's events, not as Node's hidden ones", () => {
  // typedoc's default filters hide members inherited from outside the project (EventEmitter's).
  const page = readFileSync(join(out, 'classes/_deadbolt_core.index.LockClient.html'), 'utf8');
  for (const method of ['on', 'once', 'off']) {
    const member = new RegExp(
      `<section class="([^"]*)">\\s*<h3 class="tsd-anchor-link"[^>]*id="${method}"[\\s\\S]*?</section>`,
    ).exec(page);
    expect(member?.[1], method).toMatch(/^tsd-panel tsd-member\b/);
    expect(member?.[1], method).not.toContain('tsd-is-external');
    expect(member?.[0], method).toContain('LockClientEvents');
  }
});
