/**
 * How long the back office's pages take to show their first row (issue 22), in Chromium against
 * the real system: for each page, a fresh tab opens it signed in and the time from navigation to
 * the first row of its table is taken, 7 times; the median and the slowest are printed. Network
 * throttled to a modest link (40 ms each way) so the waterfall shows as it does for a real admin.
 * Not a test; run it with
 *   npx tsx e2e/admin-load-timing.ts
 */
import { launchBrowser, logIn, startSystem } from './harness';

const PAGES: Array<[string, string]> = [
  ['/admin-audit-log', '[data-testid="audit-entry"]'],
  ['/admin-all-orders', 'tr[data-order-id]'],
  ['/admin?tab=user-management', '[data-testid="user-row"]'],
];
const RUNS = 7;

const system = await startSystem();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ baseURL: system.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await logIn(page, system.admin.username, system.admin.password, '/admin');
  // Something in each list: an order and an audit entry.
  const XHR = { 'x-requested-with': 'XMLHttpRequest' };
  await page.request.post('/api/admin/vendor-keys', { headers: XHR, data: { name: 'Timing Vendor' } });
  const created = await page.request.post('/api/create-payment-intent', { headers: XHR, data: { amount: 2220, callCount: 60, tier: 'premium' } });
  if (created.status() !== 201) throw new Error(`no order: ${created.status()}`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 5_000_000, uploadThroughput: 2_000_000 });
  for (const [path, firstRow] of PAGES) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(path);
      await page.locator(firstRow).first().waitFor();
      times.push(Date.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`${path}: first row after ${times[Math.floor(RUNS / 2)]} ms (median of ${RUNS}), slowest ${times.at(-1)} ms`);
  }
} finally {
  await browser.close();
  await system.stop();
}
