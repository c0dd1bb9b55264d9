/**
 * Screenshots of vendor call-backs (issue 15) at 390 px and 1280 px wide, for looking at them as
 * an admin, an agent and a vendor would: the Upload Callback Opportunities tab (vendor keys, a key
 * just made, a CSV upload with good and bad rows, the list with a transcript open and one needing a
 * state), My Call-backs with delivered call-backs, Buy Call-backs (the count and the payment) and
 * /brightcalldocs. Not a test; run it with
 * `make screenshots NAME=callbacks`.
 */
import { CALLBACK_WEBHOOK_PATH, type CreatedVendorKey } from '@warmline/contracts/callbacks';
import { ApiClient } from '../api-client';
import { logIn } from '../harness';
import { closeToasts, openPage, startShots, viewportFor, WIDTHS } from './kit';
const FUTURE_EXPIRY = `12 / ${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

/**
 * A CSV as an admin would have it: good rows, a bad phone, a bad state and a bad price. Each width
 * uploads its own prospects (the last digit of the phones), so the screenshots show each once.
 */
const csvFor = (digit: number) =>
  [
    'First Name,Last Name,Phone,State,Price',
    `Ana,Diaz,(305) 555-010${digit},FL,15.00`,
    `Bill,Turner,512-555-019${digit},TX,`,
    `Carol,Nguyen,(213) 555-012${digit},CA,18.50`,
    'Dan,Wrong,555-01,TX,15.00',
    `Eve,Nowhere,(602) 555-011${digit},Texass,15.00`,
    `Fay,Pricey,(602) 555-012${digit},AZ,fifteen`,
  ].join('\r\n');

const run = await startShots('callbacks');
const { system, browser } = run;

async function must(answer: Promise<{ status: number; text: string; json: unknown }>, what: string): Promise<unknown> {
  const done = await answer;
  if (done.status >= 300) throw new Error(`${what} answered ${done.status}: ${done.text}`);
  return done.json;
}

try {
  // The vendors: one key in use, one revoked.
  const admin = new ApiClient(system.url);
  await admin.login(system.admin.username, system.admin.password);
  const brightcall = (await must(admin.call('POST', '/api/admin/vendor-keys', { name: 'BrightCall' }), 'a vendor key')) as CreatedVendorKey;
  const old = (await must(admin.call('POST', '/api/admin/vendor-keys', { name: 'Old Dialer Co' }), 'a vendor key')) as CreatedVendorKey;
  await must(admin.call('DELETE', `/api/admin/vendor-keys/${old.id}`), 'revoking a key');

  // The agent takes Texas and Florida and buys call-backs, as an agent does (at 1280 px, before the screenshots).
  const agentSetup = await browser.newContext({ baseURL: system.url, viewport: viewportFor(1280) });
  const buyer = await agentSetup.newPage();
  await logIn(buyer, system.customer.username, system.customer.password, '/dashboard');
  await buyer.goto('/dashboard?view=my-callbacks');
  await buyer.getByRole('button', { name: 'Change states' }).click();
  await buyer.getByRole('checkbox', { name: 'Texas (TX)' }).check();
  await buyer.getByRole('checkbox', { name: 'Florida (FL)' }).check();
  await buyer.getByRole('button', { name: 'Save states' }).click();
  await buyer.getByRole('button', { name: 'Change states' }).waitFor();
  await buyer.goto('/dashboard?view=buy-callbacks');
  await buyer.getByLabel('How many call-backs?').fill('5');
  await buyer.getByRole('button', { name: 'Continue to Payment' }).click();
  await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
  await buyer.getByLabel('Expiry (MM / YY)').fill(FUTURE_EXPIRY);
  await buyer.getByLabel('CVC').fill('123');
  await buyer.getByRole('button', { name: 'Complete Payment - $75.00' }).click();
  await buyer.waitForURL((url) => url.searchParams.get('view') === 'my-callbacks');
  for (let i = 0; i < 100; i += 1) {
    await buyer.reload();
    if (Number(await buyer.getByTestId('callback-balance').textContent()) >= 5) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await agentSetup.close();

  // The vendor's calls: two in Texas (delivered), one in California (nobody takes it), one with a
  // toll-free number (no state: it waits for an admin), one do-not-call (no opportunity).
  const tomorrow = (hour: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1, hour)).toISOString();
  const calls = [
    { first_name: 'Maria', last_name: 'Lopez', phone_number: '+1 (512) 555-0143', state: 'TX', callback_time: tomorrow(21), call_outcome: 'callback_requested', lead_quality: 'hot', interest_level: 'high',
      transcript: 'Agent: Hi Maria, this is Jenny calling about the final expense information you asked for. Prospect: Oh yes, I did. I am at work right now though. Agent: No problem, when is a good time? Prospect: Tomorrow after 3 pm, please call me back then. Agent: Will do, thank you!' },
    { first_name: 'Robert', last_name: 'Johnson-Whitaker', phone_number: '(214) 555-0187', state: 'TX', call_outcome: 'interested', lead_quality: 'warm',
      transcript: 'Prospect: I want to know what a $10,000 policy costs for someone who is 67. Have an agent call me.' },
    { first_name: 'Carmen', last_name: 'Ortiz', phone_number: '213-555-0134', call_outcome: 'call_back', callback_time: tomorrow(18),
      transcript: 'Prospect: Call me back in the morning.' },
    { first_name: 'Toll', last_name: 'Free', phone_number: '800-555-0100', transcript: 'Prospect: Please call me back.' },
    { first_name: 'Do', last_name: 'Notcall', phone_number: '512-555-0166', call_outcome: 'DNC', transcript: 'Prospect: Take me off your list.' },
  ];
  for (const call of calls) {
    const answer = await fetch(`${system.url}${CALLBACK_WEBHOOK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': brightcall.key },
      body: JSON.stringify(call),
    });
    if (answer.status !== 200) console.warn(`the webhook answered ${answer.status}: ${await answer.text()}`);
  }
  // Delivery is asynchronous (a command to the catalog, then the assignment): wait for both Texas calls.
  const agentApi = new ApiClient(system.url);
  await agentApi.login(system.customer.username, system.customer.password);
  for (let i = 0; i < 100; i += 1) {
    const mine = (await agentApi.get('/api/my-callbacks')).json as { callbacks?: unknown[] } | undefined;
    if ((mine?.callbacks?.length ?? 0) >= 2) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  for (const width of WIDTHS) {
    const { context, page, shot } = await openPage(run, width);

    // The admin's tab.
    await logIn(page, system.admin.username, system.admin.password, '/admin');
    await page.getByRole('tab', { name: 'Upload Callback Opportunities' }).click();
    await page.getByTestId('vendor-key').first().waitFor();
    await page.getByTestId('callback-opportunity').first().waitFor();
    await closeToasts(page);
    await shot('tab');

    await page.getByLabel('Vendor name').fill(`Screenshot Vendor ${width}`);
    await page.getByRole('button', { name: 'Create Key' }).click();
    await page.getByRole('dialog').waitFor();
    await shot('key-created', false);
    await page.getByRole('button', { name: 'I have copied the key' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByLabel('CSV file').setInputFiles({ name: 'callbacks.csv', mimeType: 'text/csv', buffer: Buffer.from(csvFor(WIDTHS.indexOf(width))) });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-result').waitFor();
    await closeToasts(page);
    await page.getByTestId('upload-result').scrollIntoViewIfNeeded();
    await shot('upload-result', false);

    await page.getByRole('heading', { name: 'Callback Opportunities' }).scrollIntoViewIfNeeded();
    const maria = page.getByTestId('callback-opportunity').filter({ hasText: 'Maria Lopez' });
    await maria.getByText('Transcript').click();
    await page.getByTestId('callback-opportunity').filter({ hasText: 'Toll Free' }).getByText('Transcript').click();
    await shot('list');

    await page.getByTestId('callback-opportunity').filter({ hasText: 'Carmen Ortiz' }).getByRole('button', { name: /^Assign/ }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByText(system.customer.email).waitFor();
    await shot('assign', false);
    await page.keyboard.press('Escape');
    await context.clearCookies();

    // The agent's views.
    await logIn(page, system.customer.username, system.customer.password, '/dashboard');
    await page.goto('/dashboard?view=my-callbacks');
    await page.getByTestId('my-callback').first().waitFor();
    await page.getByTestId('my-callback').filter({ hasText: 'Maria Lopez' }).getByText('Transcript').click();
    await closeToasts(page);
    await shot('my-callbacks');
    await page.getByRole('button', { name: 'Change states' }).click();
    await shot('my-callbacks-states');

    await page.goto('/dashboard?view=buy-callbacks');
    await page.getByLabel('How many call-backs?').fill('20');
    await shot('buy');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByLabel('Card number').waitFor();
    await shot('buy-payment');

    // The vendor's page.
    await page.goto('/brightcalldocs');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await shot('docs');
    await context.close();
  }
} finally {
  await run.finish();
}
