#!/usr/bin/env node
// Run axe-core over every HTML page of a card archive in Debian's Chromium (playwright-core,
// no browser download), and check what axe cannot: reflow at 320 CSS px (WCAG 2.2 SC 1.4.10:
// no horizontal scrolling) and a visible keyboard focus on the first Tab stop (SC 2.4.7).
//
//   node run-axe.js ARCHIVE_DIR        prints a JSON report; exit 0 when clean, 1 on any problem,
//                                      2 when the run itself fails (no Chromium, no pages).
//
// One browser for all pages, two tabs at a time. Pages are served from a loopback HTTP server
// (127.0.0.1, a free port, closed at the end) so Chromium caches the compiled axe script
// across pages. CHROMIUM overrides the browser path (default /usr/bin/chromium).
'use strict';

const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'));
const AXE_PATH = '/__deckpress_axe__.js';
const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.png': 'image/png', '.js': 'text/javascript' };
const TABS = 2;
// WCAG 2.0/2.1/2.2 A and AA plus axe's best practices (landmarks, one h1, heading order, skip link).
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

function htmlFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...htmlFiles(full));
    else if (entry.name.endsWith('.html')) out.push(full);
  }
  return out.sort();
}

// Serve ROOT's files and the axe script on 127.0.0.1 only; nothing outside ROOT is served.
function serve(root) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0]);
    if (url === AXE_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'max-age=3600' });
      res.end(AXE_SOURCE);
      return;
    }
    const file = path.resolve(root, '.' + url);
    if (!file.startsWith(root + path.sep)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function checkPage(page, base, root, file) {
  const problems = { page: path.relative(root, file), violations: [], reflow: null, focus: null };
  {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(base + '/' + problems.page.split(path.sep).map(encodeURIComponent).join('/'), { waitUntil: 'load' });
    await page.addScriptTag({ url: base + AXE_PATH });
    const result = await page.evaluate(async (tags) => {
      // eslint-disable-next-line no-undef
      const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return r.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, summary: n.failureSummary })),
      }));
    }, TAGS);
    problems.violations = result;

    // Keyboard focus: the first Tab stop must be the skip link, drawn with a visible outline.
    await page.keyboard.press('Tab');
    problems.focus = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'Tab does not move focus to any element';
      const style = getComputedStyle(el);
      const width = parseFloat(style.outlineWidth) || 0;
      if (style.outlineStyle === 'none' || width < 2) return `focused element <${el.tagName.toLowerCase()}> has no visible outline`;
      if (!el.classList.contains('skip-link')) return `first Tab stop is not the skip link but ${el.outerHTML.slice(0, 80)}`;
      return null;
    });

    // Reflow: at 320 CSS px wide nothing may need horizontal scrolling.
    await page.setViewportSize({ width: 320, height: 640 });
    problems.reflow = await page.evaluate(() => {
      const w = document.documentElement.scrollWidth;
      return w > 320 ? `page is ${w} CSS px wide at a 320 px viewport` : null;
    });
  }
  return problems;
}

async function main() {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir)) {
    console.error(`usage: node run-axe.js ARCHIVE_DIR (got ${dir})`);
    process.exit(2);
  }
  const root = path.resolve(dir);
  const files = htmlFiles(root);
  if (files.length === 0) {
    console.error(`no .html pages under ${dir}`);
    process.exit(2);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'deckpress-axe-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ARGS,
  });
  const server = await serve(root);
  const base = `http://127.0.0.1:${server.address().port}`;
  const pages = new Array(files.length);
  let next = 0;
  async function worker() {
    const tab = await context.newPage();
    while (next < files.length) {
      const i = next++;
      pages[i] = await checkPage(tab, base, root, files[i]);
    }
    await tab.close();
  }
  try {
    await Promise.all(Array.from({ length: Math.min(TABS, files.length) }, worker));
  } finally {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  const bad = pages.filter((p) => p.violations.length || p.reflow || p.focus);
  const report = {
    pages: pages.length,
    axe: require('axe-core/package.json').version,
    tags: TAGS,
    violations: pages.reduce((n, p) => n + p.violations.length, 0),
    problems: bad,
  };
  process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  process.exit(bad.length ? 1 : 0);
}

main().catch((err) => {
  console.error(`a11y run failed: ${err && err.stack ? err.stack : err}`);
  process.exit(2);
});
