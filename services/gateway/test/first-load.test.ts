import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseContentCoding, type ContentCoding } from '../src/edge/static-assets';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 16, item 4: the SPA's build sent precompressed, cached by name, and the public pages
 * prerendered with the configured settings filled in. The build's files are made here in a
 * temporary directory and precompressed by the build's own script (web/scripts/compress.mjs);
 * the real pages in a browser are e2e/first-load.e2e.test.ts.
 */

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COMPRESS_SCRIPT = path.join(REPO, 'web/scripts/compress.mjs');

const SUPPORT_PHONE = '(555) 867-5309 <ext. 2&3>';
const SUPPORT_EMAIL = 'first-load@warmline.example';
const TESTIMONIAL_NAME = 'Dana "DJ" Jones';

const PLACEHOLDERS = {
  supportPhone: '+19990001111',
  supportEmail: 'support@prerender.invalid',
  testimonialName: '[[testimonial-name]]',
  testimonialTitle: '[[testimonial-title]]',
  testimonialQuote: '[[testimonial-quote]]',
};

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(800))};\n`;
const SCRIPT_PATH = '/assets/index-AbCd12_9.js';

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>WarmLine</title><script type="module" crossorigin src="${SCRIPT_PATH}"></script></head><body><div id="root">${body}</div></body></html>`;
}

let dist: string;
let gateway: GatewayFixture;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'wl-first-load-'));
  await mkdir(path.join(dist, 'assets'));
  await mkdir(path.join(dist, 'prerendered'));
  await mkdir(path.join(dist, '.vite'));
  await writeFile(path.join(dist, 'index.html'), page(''));
  await writeFile(path.join(dist, `.${SCRIPT_PATH}`), SCRIPT);
  await writeFile(path.join(dist, 'robots.txt'), 'User-agent: *\n');
  await writeFile(path.join(dist, '.vite/manifest.json'), '{}');
  await writeFile(
    path.join(dist, 'prerendered/index.html'),
    page(
      `<h1>Qualified prospects</h1><a href="tel:${PLACEHOLDERS.supportPhone}">${PLACEHOLDERS.supportPhone}</a>` +
        `<a href="mailto:${PLACEHOLDERS.supportEmail}?subject=Hi">${PLACEHOLDERS.supportEmail}</a>` +
        `<figure><blockquote>${PLACEHOLDERS.testimonialQuote}</blockquote><strong>${PLACEHOLDERS.testimonialName}</strong><span>${PLACEHOLDERS.testimonialTitle}</span></figure>`,
    ),
  );
  await writeFile(path.join(dist, 'prerendered/pricing.html'), page(`<h1>Volume pricing</h1><p>Call ${PLACEHOLDERS.supportPhone}</p>`));
  await writeFile(
    path.join(dist, 'prerender-manifest.json'),
    JSON.stringify({
      pages: { '/': 'prerendered/index.html', '/pricing': 'prerendered/pricing.html' },
      placeholders: PLACEHOLDERS,
      inlineStyleHashes: ['sha256-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/abcde='],
    }),
  );
  execFileSync(process.execPath, [COMPRESS_SCRIPT, dist], { stdio: 'pipe' });

  gateway = await startGatewayFixture({
    env: { WEB_DIST_DIR: dist, SUPPORT_PHONE, SUPPORT_EMAIL, TESTIMONIAL_NAME },
  });
});

afterAll(async () => {
  await gateway?.cleanup();
  if (dist) await rm(dist, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is read as bytes, undecoded (fetch would undo the content coding). */
function raw(pathAndQuery: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: pathAndQuery, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: RawAnswer): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

describe('the content coding chosen from Accept-Encoding', () => {
  const both = new Set<ContentCoding>(['br', 'gzip', 'identity']);
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['BR;Q=1, gzip;q=1', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['br;q=abc, gzip', 'gzip'],
    ['', 'identity'],
  ])('when a browser sends %j, then %s is sent', (header, expected) => {
    expect(chooseContentCoding(header, both)).toBe(expected);
  });

  it('when only a gzip copy exists, then a browser preferring brotli gets gzip', () => {
    expect(chooseContentCoding('br, gzip', new Set(['gzip', 'identity']))).toBe('gzip');
  });

  it('when no header is sent, then the file itself is sent', () => {
    expect(chooseContentCoding(undefined, both)).toBe('identity');
  });
});

describe('hashed assets', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip, deflate', 'gzip'],
  ])('when a browser accepts %j, then the precompressed %s copy comes back, cached for a year', async (accept, coding) => {
    const answer = await raw(SCRIPT_PATH, { 'accept-encoding': accept });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(coding);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(decoded(answer)).toBe(SCRIPT);
  });

  it('when a browser accepts no compression, then the file itself comes back with its length', async () => {
    const answer = await raw(SCRIPT_PATH, { 'accept-encoding': 'identity' });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.body.toString('utf8')).toBe(SCRIPT);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
  });

  it('when asked with HEAD, then the headers come without a body', async () => {
    const answer = await raw(SCRIPT_PATH, { 'accept-encoding': 'br' }, 'HEAD');

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(0);
    expect(answer.body.length).toBe(0);
  });

  it('when the ETag is sent back, then the answer is 304 Not Modified', async () => {
    const first = await raw(SCRIPT_PATH, { 'accept-encoding': 'gzip' });
    const again = await raw(SCRIPT_PATH, { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });

    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('when a small file (no compressed copy, no hash) is asked for, then it comes as it is, checked every time', async () => {
    const answer = await raw('/robots.txt', { 'accept-encoding': 'br, gzip' });

    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.body.toString('utf8')).toBe('User-agent: *\n');
  });

  it.each([
    ['a missing asset', '/assets/missing-AbCd1234.js'],
    ['a compressed copy by name', `${SCRIPT_PATH}.br`],
    ["Vite's manifest (a dot folder)", '/.vite/manifest.json'],
    ['a climb out of the build', '/assets/..%2f..%2fpackage.json'],
    ['an encoded climb', '/%2e%2e/%2e%2e/package.json'],
    ['a backslash climb', '/assets/..%5c..%5cpackage.json'],
    ['a broken escape', '/assets/%E0%A4%A.js'],
    ['a NUL byte', '/assets/index%00.js'],
    ['the prerendered file by name (its settings unfilled)', '/prerendered/index.html'],
  ])('when %s is asked for, then the answer is 404, never a 500 or a file', async (_what, url) => {
    const answer = await raw(url, { 'accept-encoding': 'br, gzip' });

    expect(answer.status).toBe(404);
    expect(decoded(answer)).not.toContain('hello hello');
  });
});

describe('pages', () => {
  it('when the landing page is asked for, then the prerendered page comes with the configured settings, HTML-escaped, and no-cache', async () => {
    const answer = await raw('/', { 'accept-encoding': 'br, gzip' });
    const html = decoded(answer);

    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(html).toContain('<h1>Qualified prospects</h1>');
    expect(html).toContain('>(555) 867-5309 &#60;ext. 2&#38;3&#62;</a>');
    expect(html).toContain('href="tel:555867530923"');
    expect(html).toContain(`href="mailto:${SUPPORT_EMAIL}?subject=Hi"`);
    expect(html).toContain('<strong>Dana &#34;DJ&#34; Jones</strong>');
    expect(html).not.toContain('<ext.');
    for (const placeholder of Object.values(PLACEHOLDERS)) expect(html).not.toContain(placeholder);
  });

  it('when a page is served, then the SPA gets the same settings as JSON that cannot end its script element', async () => {
    const html = decoded(await raw('/', { 'accept-encoding': 'gzip' }));
    const json = /<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(html)?.[1];

    expect(json).toBeDefined();
    expect(json).not.toContain('<');
    expect(JSON.parse(json ?? 'null')).toMatchObject({
      supportPhone: SUPPORT_PHONE,
      supportEmail: SUPPORT_EMAIL,
      testimonial: { name: TESTIMONIAL_NAME },
      bookingUrl: null,
    });
  });

  it("when a page is served, then its CSP allows inline styles only by this answer's nonce and the build's hashes, never 'unsafe-inline'", async () => {
    const first = await raw('/pricing', { 'accept-encoding': 'identity' });
    const second = await raw('/pricing', { 'accept-encoding': 'identity' });
    const csp = String(first.headers['content-security-policy']);
    const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(first.body.toString('utf8'))?.[1];

    expect(first.body.toString('utf8')).toContain('<p>Call (555) 867-5309 &#60;ext. 2&#38;3&#62;</p>');
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(csp).toContain(`style-src 'self' 'nonce-${nonce}' 'sha256-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/abcde='`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(second.headers['content-security-policy']).not.toBe(csp);
  });

  it('when a page that is not prerendered is asked for, then the SPA shell comes, with the settings', async () => {
    const answer = await raw('/dashboard', { 'accept-encoding': 'gzip' });
    const html = decoded(answer);

    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('id="site-config"');
    expect(String(answer.headers['content-security-policy'])).not.toContain('unsafe-inline');
  });

  it('when an API answer is read, then its CSP has no inline styles at all', async () => {
    const answer = await raw('/api/site-config');

    expect(String(answer.headers['content-security-policy'])).toContain("style-src 'self';");
  });
});
