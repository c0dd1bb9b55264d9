import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CALLBACK_WEBHOOK_PATH, WEBHOOK_INVALID_JSON_MESSAGE, WEBHOOK_KEY_REUSED_MESSAGE } from '@warmline/contracts/callbacks';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * Issue 22, items 12 and 17, at 390 and 1280 px: the recovery codes of a two-factor set-up are
 * each on one line, with Copy and Download buttons that hand over all ten; /brightcalldocs
 * states the repeat rule, the rate limit and every answer, and the example it offers is one the
 * webhook accepts — with RateLimit headers — while that call sent again under its key with
 * other words is the promised 409. axe finds nothing serious and no page scrolls sideways.
 */
const e2e = useE2E();
const WIDTHS = [390, 1280];

async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** How many lines each recovery code takes on screen (the line boxes of its text). */
async function linesPerCode(page: Page): Promise<number[]> {
  return page.getByTestId('recovery-codes').locator('code').evaluateAll((codes) =>
    codes.map((code) => {
      const range = document.createRange();
      range.selectNodeContents(code);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }),
  );
}

describe('recovery codes (issue 22 item 12)', () => {
  for (const width of WIDTHS) {
    it(`at ${width} px, when an agent sets up two-factor, then each of the ten codes is on one line, and Copy and Download hand over all ten`, async () => {
      const { page, context, system } = e2e;
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.url });
      await logIn(page, system.customer.username, system.customer.password, '/dashboard');
      await page.goto('/account-security');
      await page.getByLabel('Current password', { exact: true }).fill(system.customer.password);
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const list = page.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      const codes = (await list.locator('code').allTextContents()).map((c) => c.trim());
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
      expect(await linesPerCode(page)).toEqual(Array<number>(10).fill(1));

      await page.getByRole('button', { name: 'Copy codes' }).click();
      await page.getByRole('status').filter({ hasText: 'Recovery codes copied.' }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied.split('\n').filter((line) => /^[a-z2-7]{4}-/.test(line))).toEqual(codes);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download codes' }).click()]);
      expect(download.suggestedFilename()).toBe('warmline-recovery-codes.txt');
      const saved = await readFile((await download.path())!, 'utf8');
      expect(saved).toContain('WarmLine recovery codes');
      expect(saved.split('\n').filter((line) => /^[a-z2-7]{4}-/.test(line))).toEqual(codes);

      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    });
  }
});

describe('/brightcalldocs (issue 22 item 17)', () => {
  for (const width of WIDTHS) {
    it(`at ${width} px, the page states the repeat rule, the rate limit and the 409 and Invalid JSON answers, without scrolling sideways`, async () => {
      const { page } = e2e;
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.goto('/brightcalldocs');
      await page.getByRole('heading', { name: 'Repeats' }).waitFor();
      const rules = await page.getByTestId('repeat-rules').locator(':scope > li').allTextContents();
      expect(rules).toHaveLength(5);
      expect(rules[0]).toContain('An Idempotency-Key you sent before with the same call');
      expect(rules[1]).toContain(WEBHOOK_KEY_REUSED_MESSAGE);
      expect(rules[2]).toContain('the same phone number and the same callback_time');
      expect(await page.getByTestId('rate-limit').textContent()).toContain('600 calls a minute');
      expect(await page.getByTestId('answer-409').textContent()).toContain('409 Conflict');
      expect(await page.getByTestId('answer-invalidJson').textContent()).toContain(WEBHOOK_INVALID_JSON_MESSAGE);
      expect(await page.getByTestId('answer-pastCallbackTime').textContent()).toContain('refused, not stored');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
    });
  }

  it("when a vendor sends the page's example with a key, then it is accepted with RateLimit headers; the same key with other words is the 409 the page describes", async () => {
    const { page, system } = e2e;
    await page.goto('/brightcalldocs');
    const curl = (await page.getByTestId('curl-command').textContent()) ?? '';
    const body = JSON.parse(/-d '([\s\S]*)'$/.exec(curl.trim())![1]!) as Record<string, string>;

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    const created = await page.request.post('/api/admin/vendor-keys', { data: { name: 'Docs Example Voice' } });
    expect(created.status()).toBe(201);
    const { key } = (await created.json()) as { key: string };

    const send = (call: Record<string, string>) =>
      fetch(`${system.url}${CALLBACK_WEBHOOK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': 'docs-example-1' },
        body: JSON.stringify(call),
      });
    const accepted = await send(body);
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('ratelimit-policy')).toBe('600;w=60');
    expect(accepted.headers.get('ratelimit')).toMatch(/^limit=600, remaining=599, reset=\d+$/);
    const firstId = ((await accepted.json()) as { callback_id: string }).callback_id;
    const conflict = await send({ ...body, transcript: 'Other words under the same key' });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ success: false, message: WEBHOOK_KEY_REUSED_MESSAGE, idempotency_key: 'docs-example-1', callback_id: firstId });
  });
});
