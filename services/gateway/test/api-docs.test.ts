import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { ASYNCAPI_PATH } from '@warmline/contracts/docs/asyncapi';
import { renderOpenApi } from '@warmline/contracts/docs/openapi';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * Issue 16: the gateway serves the API's OpenAPI description and an interactive reference that
 * loads nothing from another site and needs no relaxation of the Content-Security-Policy.
 * (Chromium renders the page without a CSP violation: checked by hand with a screenshot.)
 */

let gw: GatewayFixture;

beforeAll(async () => {
  gw = await startGatewayFixture();
});

afterAll(async () => {
  await gw?.cleanup();
});

/** Every address the page loads or links to. */
function addressesOf(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
}

describe('the API description and reference (issue 16)', () => {
  it('when anyone asks for /api/openapi.json, then it is the OpenAPI 3.1 document generated from the manifest, revalidated by ETag', async () => {
    const browser = gw.browser();
    const answer = await browser.get('/api/openapi.json');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    expect(answer.json).toEqual(JSON.parse(JSON.stringify(renderOpenApi())));
    expect((answer.json as { openapi: string }).openapi).toBe('3.1.0');
    // The session cookie is not needed, and not set for a visitor who had none.
    expect(browser.sessionCookie).toBeUndefined();

    const etag = answer.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await browser.get('/api/openapi.json', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('when anyone asks for /api/asyncapi.json, then it is the committed event catalog (docs/events), gzipped on request and revalidated by ETag', async () => {
    const browser = gw.browser();
    const answer = await browser.get('/api/asyncapi.json');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const committed = JSON.parse(readFileSync(ASYNCAPI_PATH, 'utf8')) as { asyncapi: string };
    expect(answer.json).toEqual(committed);
    expect(committed.asyncapi).toMatch(/^3\./);
    expect(browser.sessionCookie).toBeUndefined();

    const etag = answer.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect((await browser.get('/api/asyncapi.json', { headers: { 'if-none-match': etag! } })).status).toBe(304);
    // A different document's tag is not this one's.
    const openapiTag = (await browser.get('/api/openapi.json')).headers.get('etag');
    expect(openapiTag).not.toBe(etag);

    // Raw bytes, so the compression itself is seen (fetch would undo it silently).
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(new URL('/api/asyncapi.json', gw.url), { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(raw.body).toString('utf8'))).toEqual(committed);
  });

  it('when a browser opens /api/docs, then it gets an HTML page whose every script, style and link is on this site', async () => {
    const answer = await gw.browser().get('/api/docs');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const addresses = addressesOf(answer.text);
    expect(addresses.length).toBeGreaterThanOrEqual(4);
    for (const address of addresses) expect(address, address).toMatch(/^\/api\/(docs\/[a-z0-9-]+\.(js|css|png)\?v=[0-9a-f]{16}|openapi\.json)$/);
    expect(answer.text).not.toMatch(/https?:\/\//);
    // No inline script: the site's CSP (script-src 'self', no 'unsafe-inline', no 'unsafe-eval') holds as it is.
    expect([...answer.text.matchAll(/<script\b[^>]*>/g)].every((m) => /\ssrc="/.test(m[0]))).toBe(true);
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(/script-src[^;]*unsafe-inline/.test(csp)).toBe(false);
  });

  it("when the page's files are fetched, then each comes with its type, compressed, and cached for a year", async () => {
    const page = await gw.browser().get('/api/docs');
    const files = addressesOf(page.text).filter((a) => a.startsWith('/api/docs/'));
    expect(files.map((f) => f.split('?')[0]).sort()).toEqual([
      '/api/docs/api-docs.js',
      '/api/docs/favicon-32x32.png',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/swagger-ui.css',
    ]);
    for (const file of files) {
      const answer = await gw.browser().get(file, { headers: { 'accept-encoding': 'gzip' } });
      expect(answer.status, file).toBe(200);
      expect(answer.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      const type = answer.headers.get('content-type') ?? '';
      if (file.includes('.js')) expect(type).toMatch(/^text\/javascript/);
      if (file.includes('.css')) expect(type).toMatch(/^text\/css/);
      if (file.includes('.png')) expect(type).toBe('image/png');
      else expect(answer.headers.get('content-encoding'), file).toBe('gzip');
    }
    const init = await gw.browser().get(files.find((f) => f.includes('api-docs.js'))!);
    expect(init.text).toContain('"/api/openapi.json"');
    expect(init.text).toContain('validatorUrl: null');
  });

  it('when a file is asked for without its version, then it is not cached for long; an unknown file is a JSON 404', async () => {
    const unversioned = await gw.browser().get('/api/docs/swagger-ui.css');
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers.get('cache-control')).toBe('no-cache');

    const unknown = await gw.browser().get('/api/docs/index.js');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'Not found: GET /api/docs/index.js' });
    // Not a file of the manifest's pattern at all: the route manifest's 404 at the door.
    expect((await gw.browser().get('/api/docs/..%2Fpackage.json')).status).toBe(404);
  });

  it('when the SPA is read, then it never imports the reference (it costs the SPA nothing)', () => {
    const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
    const manifest = readFileSync(path.join(web, 'package.json'), 'utf8');
    expect(manifest).not.toMatch(/swagger/);
    const sources = readdirSync(path.join(web, 'src'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name));
    expect(sources.length).toBeGreaterThan(10);
    const importing = sources.filter((e) => /swagger|openapi/i.test(readFileSync(path.join(e.parentPath, e.name), 'utf8')));
    expect(importing.map((e) => e.name)).toEqual([]);
  });
});
