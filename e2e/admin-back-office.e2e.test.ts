import { describe, expect, it } from 'vitest';
import { logIn, seriousViolations, useE2E } from './harness';

/**
 * Issue 22, the back office at 1280 px and 390 px: the vendor-key table's Revoke stays in view
 * (inside the table's scroll box and the window), for an active key among long names and dates.
 */
const e2e = useE2E();
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

describe('the vendor keys', () => {
  it('when an admin opens the vendor keys at 1280 and 390 px, then every active key shows its whole Revoke button without scrolling the table', async () => {
    const { page, system } = e2e;
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    for (const name of ['BrightCall Enterprise Voice Solutions', 'Old Dialer Co']) {
      const made = await page.request.post('/api/admin/vendor-keys', { headers: XHR, data: { name } });
      expect(made.status()).toBe(201);
      if (name === 'Old Dialer Co') {
        const { id } = (await made.json()) as { id: string };
        expect((await page.request.delete(`/api/admin/vendor-keys/${id}`, { headers: XHR })).status()).toBe(204);
      }
    }
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin?tab=upload-callbacks');
      const revoke = page.getByRole('button', { name: 'Revoke the key of BrightCall Enterprise Voice Solutions' });
      await revoke.waitFor();
      await revoke.scrollIntoViewIfNeeded();
      const seen = await revoke.evaluate((button) => {
        const box = button.getBoundingClientRect();
        // Every box around the button that scrolls sideways would cut it off or hide it until scrolled.
        const scrolling: string[] = [];
        for (let el = button.parentElement; el; el = el.parentElement) {
          if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') scrolling.push(el.className || el.tagName);
        }
        return { inWindow: box.left >= 0 && box.right <= window.innerWidth, scrolling };
      });
      await page.screenshot({ path: `test-results/vendor-keys-${width}.png`, fullPage: false });
      expect(seen, `${width} px`).toEqual({ inWindow: true, scrolling: [] });
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
});
