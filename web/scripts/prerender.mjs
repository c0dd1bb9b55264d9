#!/usr/bin/env node
/**
 * Prerenders the public pages (src/prerender.tsx: the landing page, /pricing and the five tier
 * pages) into web/dist/prerendered/, after `vite build`. Each page is the SPA's index.html with
 * the page's markup in #root, its stylesheets inlined (the first response paints the styled
 * page, before and without any JavaScript, with no stylesheet request competing with the
 * chunks for a phone's bandwidth; their hashes go to the CSP) and its chunks preloaded. The site settings are stand-ins, listed in
 * dist/prerender-manifest.json with the pages: the gateway fills in the configured values
 * (services/gateway/src/edge/spa.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const ssrOut = path.join(web, 'node_modules/.prerender');

/** Stand-ins the gateway finds and replaces; the phone's is digits so its tel: link keeps it whole. */
const PLACEHOLDERS = {
  supportPhone: '+19990001111',
  supportEmail: 'support@prerender.invalid',
  testimonialName: '[[testimonial-name]]',
  testimonialTitle: '[[testimonial-title]]',
  testimonialQuote: '[[testimonial-quote]]',
};
const SITE = {
  supportPhone: PLACEHOLDERS.supportPhone,
  supportEmail: PLACEHOLDERS.supportEmail,
  testimonial: { name: PLACEHOLDERS.testimonialName, title: PLACEHOLDERS.testimonialTitle, quote: PLACEHOLDERS.testimonialQuote },
  bookingUrl: null,
};

await build({
  root: web,
  configFile: path.join(web, 'vite.config.ts'),
  logLevel: 'warn',
  ssr: { noExternal: ['@warmline/contracts'] },
  build: {
    ssr: 'src/prerender.tsx',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    rolldownOptions: { output: { codeSplitting: false } },
  },
});

const { PRERENDERED_PAGES, renderPage } = await import(pathToFileURL(path.join(ssrOut, 'prerender.js')).href);
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const shell = readFileSync(path.join(dist, 'index.html'), 'utf8');
if (!shell.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty <div id="root"></div>');
const SHELL_TITLE = /<title>[^<]*<\/title>/;
if (!SHELL_TITLE.test(shell)) throw new Error('dist/index.html has no <title>');

const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A chunk's own stylesheets and JavaScript, with those of the chunks it imports statically. */
function chunkFiles(source) {
  const css = new Set();
  const js = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  if (!manifest[source]) throw new Error(`${source} is not a chunk of the Vite manifest`);
  visit(source);
  return { css: [...css], js: [...js] };
}

const SHELL_STYLESHEET = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;

/** A built stylesheet as an inline <style>, its hash recorded for the CSP's style-src. */
function inlineStyle(file) {
  const css = readFileSync(path.join(dist, file), 'utf8');
  if (/<\/style/i.test(css)) throw new Error(`${file} contains </style and cannot be inlined`);
  inlineStyleHashes.add(`sha256-${createHash('sha256').update(css).digest('base64')}`);
  return `<style>${css}</style>`;
}

const inShell = new Set([...shell.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((m) => m[1]));
const pages = {};
const inlineStyleHashes = new Set();
mkdirSync(path.join(dist, 'prerendered'), { recursive: true });
for (const { path: route, source } of PRERENDERED_PAGES) {
  const { markup, title } = await renderPage(route, SITE);
  // The page's own title from the first byte (history, search results, a tab opened in the background).
  if (!title) throw new Error(`${route}: the page sets no title (usePageTitle)`);
  if (/<script\b/i.test(markup)) throw new Error(`${route}: the prerender wrote an inline script, which the CSP would refuse`);
  for (const [, style] of markup.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    inlineStyleHashes.add(`sha256-${createHash('sha256').update(style).digest('base64')}`);
  }
  const { css, js } = chunkFiles(source);
  const links =
    css.filter((f) => !inShell.has(f)).map(inlineStyle).join('') +
    js.filter((f) => !inShell.has(f)).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
  const html = shell
    .replace(SHELL_TITLE, () => `<title>${escapeHtml(title)}</title>`)
    // The shell's own stylesheet too: inlined where it stood, so the cascade keeps its order.
    .replace(SHELL_STYLESHEET, (_link, file) => inlineStyle(file))
    .replace('</head>', () => `${links}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
  const file = `prerendered/${route === '/' ? 'index' : route.slice(1)}.html`;
  writeFileSync(path.join(dist, file), html);
  pages[route] = file;
  console.log(`  prerendered ${route.padEnd(22)} ${file} (${(Buffer.byteLength(html) / 1024).toFixed(1)} KB) "${title}"`);
}
writeFileSync(
  path.join(dist, 'prerender-manifest.json'),
  `${JSON.stringify({ pages, placeholders: PLACEHOLDERS, inlineStyleHashes: [...inlineStyleHashes] }, null, 2)}\n`,
);
rmSync(ssrOut, { recursive: true, force: true });
