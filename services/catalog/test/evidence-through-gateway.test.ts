import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidencePackSchema } from '@warmline/contracts';
import { unzipFiles } from '@warmline/platform/testing/documents';
import { startGatewayFixture, type Browser, type GatewayFixture } from '../../gateway/test/gateway-fixture';
import { startCatalogFixture, type CatalogFixture } from './catalog-fixture';

/**
 * The evidence pack as the browser's plain `<a href download>` fetches it (issue 24 §4): through
 * the gateway, with nothing but the session cookie; the zip arrives byte for byte.
 */

let fx: CatalogFixture;
let gw: GatewayFixture;

beforeAll(async () => {
  fx = await startCatalogFixture();
  gw = await startGatewayFixture({ env: { CATALOG_URL: fx.catalog.url, ORDERS_URL: fx.orders.url } });
});

afterAll(async () => {
  await gw?.cleanup();
  await fx?.cleanup();
});

async function loggedIn(): Promise<{ browser: Browser; userId: string; username: string }> {
  const { user, password } = await gw.createAgent();
  const browser = gw.browser();
  await browser.login(user.username, password);
  return { browser, userId: user.id, username: user.username };
}

/** What a browser's download does: a GET with the cookies, keeping the bytes. */
async function fetchDownload(browser: Browser, path: string) {
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(path, browser.baseUrl), { headers: { cookie, accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('the evidence pack through the gateway', () => {
  it('when a logged-in agent follows the link of a lead they bought, then the zip arrives whole; another agent gets a 404 and a visitor a 401', async () => {
    const buyer = await loggedIn();
    const [lead] = await fx.addLeads([{ ageDays: 40, consentCertificate: 'https://cert.trustedform.com/through-the-gateway' }]);
    await fx.buy({ userId: buyer.userId, username: buyer.username, isAdmin: false }, [lead!.id]);

    const answer = await fetchDownload(buyer.browser, `/api/my-leads/${lead!.id}/evidence`);

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evidence-lead-${lead!.id}.zip"`);
    const files = unzipFiles(answer.bytes);
    const pack = evidencePackSchema.parse(JSON.parse(new TextDecoder().decode(files['evidence.json'])));
    expect(pack.consent.certificate).toBe('https://cert.trustedform.com/through-the-gateway');
    expect(pack.sale.buyer.userId).toBe(buyer.userId);

    const other = await loggedIn();
    expect((await fetchDownload(other.browser, `/api/my-leads/${lead!.id}/evidence`)).status).toBe(404);
    expect((await fetchDownload(other.browser, `/api/admin/leads/${lead!.id}/evidence`)).status).toBe(403);
    expect((await fetchDownload(gw.browser(), `/api/my-leads/${lead!.id}/evidence`)).status).toBe(401);
  });
});
