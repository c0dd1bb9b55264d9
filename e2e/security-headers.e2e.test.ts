import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitLogin, useE2E } from './harness';
import { eventually } from './waits';

/**
 * Issue 11, Medium 4, in the browser: with the gateway's Content-Security-Policy, the landing
 * page (its booking widget) and the dashboard's Training Videos raise no
 * `securitypolicyviolation`, and their frames, served from a second origin (127.0.0.2 over
 * https, as booking and video sites are), really load. Stripe's origins are checked in the
 * header itself (services/gateway/test/security-headers.test.ts): there is no internet here.
 */

const SECOND_HOST = '127.0.0.2';
let thirdParty: Server;
let thirdPartyOrigin = '';
const certDir = mkdtempSync(path.join(os.tmpdir(), 'wl-e2e-cert-'));

beforeAll(async () => {
  // A self-signed certificate for the second origin; the browser context accepts it.
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${SECOND_HOST}`,
    '-addext', `subjectAltName=IP:${SECOND_HOST}`,
    '-keyout', path.join(certDir, 'key.pem'), '-out', path.join(certDir, 'cert.pem'),
  ], { stdio: 'ignore' });
  thirdParty = createServer(
    { key: readFileSync(path.join(certDir, 'key.pem')), cert: readFileSync(path.join(certDir, 'cert.pem')) },
    (req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>third party</title><p id="marker">third party ${req.url ?? ''}</p>`);
    },
  );
  await new Promise<void>((resolve) => thirdParty.listen(0, SECOND_HOST, resolve));
  thirdPartyOrigin = `https://${SECOND_HOST}:${(thirdParty.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => thirdParty?.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

const e2e = useE2E({
  system: () => ({
    gatewayEnv: {
      BOOKING_URL: `${thirdPartyOrigin}/booking/warmline`,
      TRAINING_VIDEOS: `Welcome | ${thirdPartyOrigin}/embed/1; Objections | ${thirdPartyOrigin}/embed/2`,
    },
  }),
  context: { ignoreHTTPSErrors: true },
});

/** Records every CSP violation of the page's documents from before their first script. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])),
    ...refusals,
  ];
}

function frameShowing(page: Page, urlPart: string): Promise<Frame> {
  return eventually(`a frame from ${urlPart} showing its page`, async () => {
    const frame = page.frames().find((f) => f.url().includes(urlPart));
    return frame && (await frame.locator('#marker').count().catch(() => 0)) > 0 ? frame : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200 }).catch((err: Error) => {
    throw new Error(`${err.message}; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
  });
}

describe('the Content-Security-Policy in the browser', () => {
  it('when the landing page is shown with the booking widget from another origin, then nothing is blocked and the widget loads', async () => {
    const { page } = e2e;
    const violations = await watchViolations(page);

    const answer = await page.goto('/');
    expect(answer?.headers()['content-security-policy']).toContain(thirdPartyOrigin);
    await page.getByRole('heading', { name: 'Schedule a Call' }).scrollIntoViewIfNeeded();
    await frameShowing(page, `${thirdPartyOrigin}/booking/warmline`);

    expect(await violations()).toEqual([]);
  });

  it('when an agent opens Training Videos embedded from another origin, then nothing is blocked and the videos load', async () => {
    const { page, system } = e2e;
    const violations = await watchViolations(page);

    await page.goto('/login');
    await submitLogin(page, system.customer.username, system.customer.password);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.goto('/dashboard?view=training-videos');
    await page.getByRole('heading', { name: 'Training Videos' }).waitFor();
    await page.getByTitle('Objections').scrollIntoViewIfNeeded();
    await frameShowing(page, `${thirdPartyOrigin}/embed/1`);
    await frameShowing(page, `${thirdPartyOrigin}/embed/2`);

    expect(await violations()).toEqual([]);
  });

  it('when a frame from an origin the policy does not name is added, then the browser blocks it (the policy is enforced)', async () => {
    const { page } = e2e;
    const violations = await watchViolations(page);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Schedule a Call' }).waitFor();

    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.src = 'https://127.0.0.3:9/elsewhere';
      document.body.append(frame);
    });

    await expect.poll(async () => (await violations()).join('\n'), { timeout: 10_000 }).toContain('frame-src');
  });
});
