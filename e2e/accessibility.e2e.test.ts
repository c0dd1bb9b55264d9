import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, useE2E, waitForResetLink } from './harness';

/**
 * axe-core scans of the account screens, each in the state a person meets it. Serious and
 * critical violations fail the test; the list printed names the rule and the elements.
 */
const e2e = useE2E();

async function scan(pathname: string, ready: (page: Page) => Promise<void>, viewport?: { width: number; height: number }) {
  const { page } = e2e;
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(pathname);
  await ready(page);
  expect(await seriousViolations(page)).toEqual([]);
}

const heading = (name: string) => async (page: Page) => {
  await page.getByRole('heading', { name }).waitFor();
};

describe('accessibility of the account screens', () => {
  it('when a page has an unlabelled field, then the scan reports it (the scanner really runs)', async () => {
    const { page } = e2e;
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<input type="text">'));
    expect((await seriousViolations(page)).join('\n')).toContain('label');
  });

  it('when /login is scanned (empty and with validation messages), then axe finds nothing serious', async () => {
    await scan('/login', heading('Welcome Back'));
    await e2e.page.getByRole('button', { name: 'Sign In' }).click();
    await e2e.page.getByText('Username is required', { exact: true }).waitFor();
    expect(await seriousViolations(e2e.page)).toEqual([]);
  });

  it('when /login is scanned on a phone-sized screen, then axe finds nothing serious', async () => {
    await scan('/login', heading('Welcome Back'), { width: 390, height: 844 });
  });

  it('when /forgot-password and its confirmation are scanned, then axe finds nothing serious', async () => {
    await scan('/forgot-password', heading('Forgot Password'));
    await e2e.page.getByLabel('Email', { exact: true }).fill('nobody@example.com');
    await e2e.page.getByRole('button', { name: 'Send Reset Link' }).click();
    await e2e.page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    expect(await seriousViolations(e2e.page)).toEqual([]);
  });

  it('when /reset-password without a token is scanned, then axe finds nothing serious', async () => {
    await scan('/reset-password', heading('Invalid Reset Link'));
  });

  it('when /reset-password with an unknown token is scanned, then axe finds nothing serious', async () => {
    await scan('/reset-password?token=not-a-real-token', heading('Invalid or Expired Link'));
  });

  it('when /reset-password with a valid token shows its form, then axe finds nothing serious', async () => {
    const { system } = e2e;
    const answer = await fetch(`${system.url}/api/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: system.admin.email }),
    });
    expect(answer.status).toBe(200);
    const link = await waitForResetLink(system.mailDir, system.admin.email);
    await scan(new URL(link).pathname + new URL(link).search, heading('Reset Your Password'));
  });
});
