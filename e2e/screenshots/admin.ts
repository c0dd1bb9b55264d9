/**
 * Screenshots of the back office — /admin with a search, the User Management tab and its Set
 * Price dialog, the Upload Callback Opportunities tab, /admin-all-orders and /admin-audit-log — at 390 px and 1280 px wide, for looking at them as an
 * admin would. Not a test; run it with
 * `make screenshots NAME=admin`.
 */
import { openPage, startShots, WIDTHS } from './kit';

const run = await startShots('admin');
const { system } = run;

// A prospect answers the main survey, so the search finds a survey response (and its account) too.
const prospect = await fetch(`${system.url}/api/survey`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
  body: JSON.stringify({
    firstName: 'Sam', lastName: 'Rivera', agencyName: 'Rivera Insurance', role: 'Agency Owner', phone: '(555) 123-4567',
    email: 'sam.rivera@example.com', username: 'sam_rivera', password: 'sunny-harbor-42', leadType: 'Live Transfers',
    workingStates: 'TX, FL', totalTransfers: '50', transfersPerDay: '5', callsPerDay: '120', transferHours: '9am-5pm CST',
    salesperson: 'Survey Form',
  }),
});
if (!prospect.ok) console.warn(`the survey answered ${prospect.status}: ${await prospect.text()}`);

try {
  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width, { as: system.admin, landing: '/admin' });
    await page.getByRole('tab', { name: 'User Management', selected: true }).waitFor();
    await page.getByTestId('user-row').first().waitFor();

    await page.getByLabel(/Search customers/).fill('rivera');
    await page.getByLabel(/Search customers/).press('Enter');
    await page.getByRole('list', { name: /Results for/ }).waitFor();
    await shot('panel');

    const survey = page.getByTestId('search-result').filter({ hasText: 'Survey response' }).first();
    if (await survey.count()) {
      await survey.getByRole('button', { name: /Open/ }).click();
      await page.getByRole('dialog').waitFor();
      await shot('survey-details');
      await page.keyboard.press('Escape');
    }

    await page.getByTestId('user-row').first().getByRole('button', { name: /Set Price/ }).click();
    await page.getByRole('dialog').waitFor();
    await shot('set-price');
    await page.getByLabel('Price per transfer ($)').fill('31.50');
    await page.getByRole('button', { name: 'Save Price' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByTestId('user-row').first().getByRole('button', { name: /Change Password/ }).click();
    await page.getByRole('button', { name: 'Change Password', exact: true }).click();
    await page.getByText('Password must be at least 8 characters').waitFor();
    await shot('change-password');
    await page.keyboard.press('Escape');

    // The tab is built now (issue 15); e2e/screenshots/callbacks.ts shows it with keys, an upload and a list.
    await page.getByRole('tab', { name: 'Upload Callback Opportunities' }).click();
    await page.getByRole('heading', { name: 'Vendor Keys' }).waitFor();
    await page.getByText(/No callback opportunities yet|opportunit(y|ies), newest first/).waitFor();
    await shot('callback-opportunities');

    await page.goto('/admin-all-orders');
    await page.getByRole('heading', { name: 'All Orders', level: 1 }).waitFor();
    await page.getByText(/net over the last 30 days/).waitFor();
    await shot('all-orders');

    await page.goto('/admin-audit-log');
    await page.getByRole('heading', { name: 'Audit Log', level: 1 }).waitFor();
    await page.getByRole('table').waitFor();
    await shot('audit-log');
    await context.close();
  }
} finally {
  await run.finish();
}
