import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { logIn, seriousViolations, useE2E } from './harness';
import { waitForMail } from './waits';
import { minimalPdf } from './minimal-pdf';

/**
 * The partner network end to end (issue 14): someone applies at /affnetwork with a wrong e-mail
 * and a short description, sees the spec's messages beside those fields, fixes them, attaches a
 * PDF and submits; the confirmation promises a review within 48 hours. An admin finds the
 * application in Partner Apps, downloads its document (the same bytes) and approves it. The
 * partners service runs in the harness behind the gateway; axe finds nothing serious on either screen.
 */
const e2e = useE2E();

/** The message a field is described by when it is marked invalid (what a screen reader reads), or null. */
async function messageOf(field: Locator): Promise<string | null> {
  return field.evaluate((el) => {
    if (el.getAttribute('aria-invalid') !== 'true') return null;
    const ids = (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
  });
}

const DESCRIPTION = 'We run inbound final expense campaigns in twelve states, with TCPA consent captured on every lead we sell.';
const WHY = 'We would like to sell our aged leads through WarmLine and buy live transfers for our own agents in return.';

describe('the partner network', () => {
  it('when someone applies with a PDF after fixing what the form marks, then an admin finds the application in Partner Apps, downloads the PDF and approves it', async () => {
    const { page, system } = e2e;
    const business = `Lone Star Leads ${Date.now()}`;
    const pdf = minimalPdf();

    // The way in: the landing page's footer link.
    await page.goto('/');
    await page.getByRole('link', { name: 'Partner network' }).click();
    await page.waitForURL((url) => url.pathname === '/affnetwork');
    await page.getByRole('heading', { name: 'Partner Network Application', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Business Name').fill(business);
    await page.getByLabel('Contact Name').fill('Maria Gonzales');
    const email = page.getByLabel('Email', { exact: true });
    await email.fill('maria@lonestar');
    await email.blur();
    await page.getByLabel('Phone').fill('(512) 555-0143');
    await page.getByLabel('Website').fill('lonestarleads.example');
    await page.getByLabel('Business Type').selectOption('Lead Generation');
    await page.getByLabel('Years of Experience').selectOption('3-5 years');
    await page.getByLabel('Monthly Lead Volume').selectOption('1000-5000');
    await page.getByRole('checkbox', { name: 'Aged Leads' }).check();
    await page.getByRole('checkbox', { name: 'Call Transfers' }).check();
    await page.getByLabel('Target Markets').fill('Final expense in Texas and Florida');
    const description = page.getByLabel('Business Description');
    await description.fill('We sell leads.');
    await description.blur();
    await page.getByLabel('Why do you want to partner with WarmLine?').fill(WHY);
    await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();

    // The spec's messages, beside their fields, before anything is sent.
    await page.getByText('Invalid email address').waitFor();
    expect(await messageOf(email)).toBe('Invalid email address');
    expect(await messageOf(description)).toBe('Please provide at least 50 characters');
    expect(await seriousViolations(page)).toEqual([]);

    // Submit as it is: nothing is sent, the cursor goes to the first field marked.
    let sentApplications = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/affnetwork-signup')) sentApplications += 1;
    });
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect.poll(() => email.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(sentApplications).toBe(0);

    await email.fill('maria@lonestarleads.example');
    await description.fill(DESCRIPTION);
    expect(await messageOf(email)).toBeNull();
    expect(await messageOf(description)).toBeNull();

    // A PDF through the picker (Choose Files), listed with its name and size.
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Choose Files' }).click()]);
    expect(chooser.isMultiple()).toBe(true);
    await chooser.setFiles({ name: 'w9-form.pdf', mimeType: 'application/pdf', buffer: pdf });
    const attached = page.getByRole('list', { name: 'Attached documents' });
    await attached.getByText('w9-form.pdf').waitFor();
    expect(await attached.getByRole('listitem').textContent()).toContain(`${pdf.length} bytes`);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Submit Application' }).click();
    const received = page.getByRole('heading', { name: 'Application Submitted!' });
    await received.waitFor();
    await page.getByText(/within 48 hours/).waitFor();
    expect(await page.getByText(/within 48 hours/).textContent()).toContain('maria@lonestarleads.example');
    expect(sentApplications).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // The admin's side.
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('tab', { name: 'Partner Apps' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'partner-apps');
    const card = page.getByTestId('partner-application').filter({ has: page.getByRole('heading', { name: business }) });
    await card.waitFor();
    expect(await card.getByTestId('partner-status').textContent()).toBe('Pending');
    await card.getByText('Maria Gonzales').waitFor();
    await card.getByRole('link', { name: 'maria@lonestarleads.example' }).waitFor();
    await card.getByText('Call Transfers, Aged Leads').waitFor();
    await card.getByText(DESCRIPTION).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The document downloads as itself.
    const link = card.getByRole('link', { name: /w9-form\.pdf/ });
    expect(await link.textContent()).toContain(`${pdf.length} bytes`);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('w9-form.pdf');
    expect((await readFile(await download.path())).equals(pdf)).toBe(true);

    // Approving asks first, says what the applicant is sent, and takes a note (issue 22).
    await card.getByLabel(`Status of ${business}`).selectOption('approved');
    const confirm = page.getByRole('dialog', { name: `Approve ${business}?` });
    const preview = await confirm.getByTestId('email-preview').textContent();
    expect(preview).toContain('maria@lonestarleads.example');
    expect(preview).toContain('Your WarmLine partner application is approved');
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep Pending' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await card.getByLabel(`Status of ${business}`).inputValue()).toBe('pending');
    expect(await card.getByTestId('partner-status').textContent()).toBe('Pending');
    await card.getByLabel(`Status of ${business}`).selectOption('approved');
    await confirm.getByLabel(/Note to/).fill('Please send your rate card before the call.');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `test-results/partner-approve-dialog-${width}.png` });
    }
    await confirm.getByRole('button', { name: 'Approve and E-mail' }).click();
    await page.getByText('Status updated', { exact: true }).waitFor();
    await waitForMail(system.mailDir, { containing: ['is approved', 'Please send your rate card before the call.'] });
    // Approved: the badge and the dropdown say so, and stay so after a reload.
    await expect.poll(() => card.getByTestId('partner-status').textContent()).toBe('Approved');
    await page.reload();
    await card.waitFor();
    expect(await card.getByTestId('partner-status').textContent()).toBe('Approved');
    expect(await card.getByLabel(`Status of ${business}`).inputValue()).toBe('approved');

    // The filter: Approved shows it, Pending does not.
    await page.getByLabel('Show', { exact: true }).selectOption('pending');
    await page.waitForURL((url) => url.searchParams.get('status') === 'pending');
    await page.getByText(/No pending applications|pending application/).first().waitFor();
    expect(await card.count()).toBe(0);
    await page.getByLabel('Show', { exact: true }).selectOption('approved');
    await card.waitFor();
  });

  it('on a phone, the form with its messages and Partner Apps are axe clean too', async () => {
    const { page, system } = e2e;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/affnetwork');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('Please select at least one service').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.goto('/admin?tab=partner-apps');
    await page.getByRole('heading', { name: 'Partner Applications' }).waitFor();
    await page.getByText(/applications?, newest first|No partner applications yet/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
