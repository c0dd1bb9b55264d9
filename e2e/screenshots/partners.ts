/**
 * Screenshots of the partner network (issue 14) at 390 px and 1280 px wide, for looking at it as
 * an applicant and an admin would: the empty form, its messages, documents attached and refused,
 * a document the server refuses, the bar while sending, the confirmation; then Partner Apps with
 * applications of each status and the Delete confirmation. Not a test; run it with
 * `make screenshots NAME=partners`.
 *
 * The gateway allows 5 applications an hour per address: it trusts the loopback proxy here, and
 * each applicant comes from an address of their own (X-Forwarded-For).
 */
import { crc32, deflateSync } from 'node:zlib';
import { minimalPdf } from '../minimal-pdf';
import { closeToasts, openPage, startShots, viewportFor, WIDTHS } from './kit';

/** A real PNG of `size` × `size` pixels of one colour. */
function png(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3, 0x5b)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A PDF of about `bytes` (a valid one, padded with comment lines after its end). */
function paddedPdf(bytes: number): Buffer {
  const pdf = minimalPdf();
  const line = `%${'x'.repeat(78)}\n`;
  return Buffer.concat([pdf, Buffer.from(line.repeat(Math.max(0, Math.ceil((bytes - pdf.length) / line.length))), 'latin1')]);
}

interface Seed {
  address: string;
  fields: Record<string, string>;
  files: Array<{ name: string; type: string; bytes: Buffer }>;
}

const SEEDS: Seed[] = [
  {
    address: '198.51.100.21',
    fields: {
      businessName: 'Bayou Call Center',
      contactName: 'Andre Thibodeaux',
      email: 'andre@bayoucalls.example',
      phone: '(504) 555-0188',
      website: 'https://www.bayoucalls.example',
      businessType: 'Call Center',
      experienceYears: '5+ years',
      monthlyVolume: '5000+',
      servicesInterested: JSON.stringify(['Call Transfers', 'Callback Services']),
      targetMarkets: 'Medicare supplement and final expense, Gulf states',
      businessDescription:
        'A 60-seat inbound and outbound call center in New Orleans. Our agents pre-qualify seniors for Medicare supplement and final expense, with every call recorded and TCPA consent stored for five years.',
      whyPartner: 'We have spare capacity in the afternoons and would like to take live transfers from WarmLine campaigns, or send ours to your agents.',
      agreeToTerms: 'true',
    },
    files: [],
  },
  {
    address: '198.51.100.22',
    fields: {
      businessName: 'Summit Marketing Group',
      contactName: 'Priya Raman',
      email: 'priya.raman@summitmg.example',
      phone: '(303) 555-0112',
      website: 'summitmg.example',
      businessType: 'Marketing Agency',
      experienceYears: '1-3 years',
      monthlyVolume: '500-1000',
      servicesInterested: JSON.stringify(['Lead Generation', 'Aged Leads', 'CRM Integration', 'Custom Solutions']),
      targetMarkets: 'Mortgage protection in Colorado, Utah and Arizona',
      businessDescription:
        'We build Facebook and Google lead funnels for mortgage protection agencies.\nEach lead comes with a TrustedForm certificate and a landing page screenshot.',
      whyPartner: 'Our clients ask for aged leads to fill quiet weeks; we would like to resell WarmLine aged leads and connect them to their CRMs.',
      agreeToTerms: 'true',
    },
    files: [
      { name: 'Summit Marketing - company overview 2026.pdf', type: 'application/pdf', bytes: paddedPdf(380_000) },
      { name: 'colorado-license.png', type: 'image/png', bytes: png(64) },
    ],
  },
  {
    address: '198.51.100.23',
    fields: {
      businessName: 'Heartland Insurance Agency',
      contactName: 'Tom Becker',
      email: 'tom@heartland-ins.example',
      phone: '515-555-0199',
      website: 'https://heartland-ins.example',
      businessType: 'Insurance Agency',
      experienceYears: 'Less than 1 year',
      monthlyVolume: 'Less than 100',
      servicesInterested: JSON.stringify(['Aged Leads']),
      targetMarkets: 'Iowa',
      businessDescription: 'A new two-agent agency selling final expense and term life across Iowa, mostly by phone.',
      whyPartner: 'We would like to resell leads to other agencies in Iowa under our own name.',
      agreeToTerms: 'true',
    },
    files: [],
  },
];

async function seed(url: string, application: Seed): Promise<string> {
  const body = new FormData();
  for (const [name, value] of Object.entries(application.fields)) body.append(name, value);
  application.files.forEach((f, i) => body.append(`file_${i}`, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name));
  const response = await fetch(`${url}/api/affnetwork-signup`, {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': application.address },
    body,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`seeding ${application.fields.businessName}: ${response.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

const run = await startShots('partners', { gatewayEnv: { TRUST_PROXY: 'loopback' } });
const { system, browser } = run;
try {
  for (const application of SEEDS) await seed(system.url, application);

  for (const [n, width] of WIDTHS.entries()) {
    const applicant = await browser.newContext({ baseURL: system.url, viewport: viewportFor(width), extraHTTPHeaders: { 'X-Forwarded-For': `203.0.113.${40 + n}` } });
    const page = await applicant.newPage();
    const shot = async (name: string, fullPage = true) => {
      if (fullPage) await closeToasts(page);
      await page.screenshot({ path: `${run.out}/${name}-${width}.png`, fullPage });
    };

    await page.goto('/affnetwork');
    await page.getByRole('heading', { name: 'Partner Network Application', level: 1 }).waitFor();
    await shot('form');

    // Half filled, two answers wrong, then Submit: every message beside its field.
    const business = width < 600 ? 'Lone Star Leads' : 'Lone Star Leads & Data Services LLC';
    await page.getByLabel('Business Name').fill(business);
    await page.getByLabel('Contact Name').fill('Maria Gonzales');
    await page.getByLabel('Email', { exact: true }).fill('maria@lonestar');
    await page.getByLabel('Website').fill('lonestarleads.example');
    await page.getByLabel('Business Description').fill('We sell final expense leads.');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('Please select at least one service').waitFor();
    await shot('messages');

    await page.getByLabel('Email', { exact: true }).fill('maria@lonestarleads.example');
    await page.getByLabel('Phone').fill('(512) 555-0143');
    await page.getByLabel('Business Type').selectOption('Lead Generation');
    await page.getByLabel('Years of Experience').selectOption('3-5 years');
    await page.getByLabel('Monthly Lead Volume').selectOption('1000-5000');
    await page.getByRole('checkbox', { name: 'Aged Leads' }).check();
    await page.getByRole('checkbox', { name: 'Call Transfers' }).check();
    await page.getByRole('checkbox', { name: 'Data Management' }).check();
    await page.getByLabel('Target Markets').fill('Final expense and Medicare supplement in Texas, Oklahoma and Florida');
    await page
      .getByLabel('Business Description')
      .fill('We run inbound final expense campaigns in twelve states, with TCPA consent captured on every lead we sell, and a call center of 25 agents.');
    await page
      .getByLabel('Why do you want to partner with WarmLine?')
      .fill('We would like to sell our aged leads through WarmLine and buy live transfers for our own agents in return.');
    await page.getByRole('checkbox', { name: /I agree to the terms and conditions/ }).check();

    // Documents: two taken, three refused in the browser.
    const choose = async (...files: Array<{ name: string; mimeType: string; buffer: Buffer }>) => {
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Choose Files' }).click()]);
      await chooser.setFiles(files);
    };
    await choose(
      { name: 'w9-form.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
      { name: 'texas-agency-license.png', mimeType: 'image/png', buffer: png(48) },
      { name: 'lead-price-sheet.xlsx', mimeType: 'application/vnd.ms-excel', buffer: Buffer.from('not allowed') },
      { name: 'scanned-contract.pdf', mimeType: 'application/pdf', buffer: paddedPdf(11 * 1024 * 1024) },
    );
    await page.getByText('2 of 5 documents attached').waitFor();
    await page.getByRole('heading', { name: 'Documents' }).scrollIntoViewIfNeeded();
    await shot('documents', false);

    // A PNG named .pdf: the server reads its bytes and refuses it; everything stays.
    await choose({ name: 'company-overview.pdf', mimeType: 'application/pdf', buffer: png(32) });
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByText('Failed to submit application', { exact: true }).first().waitFor();
    await page.waitForTimeout(300);
    await shot('refused-toast', false);
    await shot('refused');

    // Sent over a slow line, so the bar is caught half way.
    await page.getByRole('button', { name: 'Remove company-overview.pdf' }).click();
    await choose({ name: 'Lone Star Leads - company overview.pdf', mimeType: 'application/pdf', buffer: paddedPdf(3 * 1024 * 1024) });
    const cdp = await applicant.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 384 * 1024 });
    await page.getByRole('button', { name: /Submit/ }).click();
    await page.getByRole('progressbar').waitFor();
    await page.waitForTimeout(3_000);
    await page.getByRole('progressbar').scrollIntoViewIfNeeded();
    await shot('sending', false);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByRole('heading', { name: 'Application Submitted!' }).waitFor({ timeout: 60_000 });
    await shot('received');
    await applicant.close();

    // The admin's side.
    const { context: admin, page: adminPage, shot: adminShot } = await openPage(run, width, { as: system.admin, landing: '/admin' });
    await adminPage.goto('/admin?tab=partner-apps');
    const card = (name: string) => adminPage.getByTestId('partner-application').filter({ has: adminPage.getByRole('heading', { name, exact: true }) });
    await card('Bayou Call Center').waitFor();
    if (n === 0) {
      for (const [name, status] of [
        ['Bayou Call Center', 'approved'],
        ['Heartland Insurance Agency', 'rejected'],
      ] as const) {
        await card(name).getByLabel(`Status of ${name}`).selectOption(status);
        await adminPage.getByText('Status updated', { exact: true }).waitFor();
        await closeToasts(adminPage);
      }
    }
    await adminPage.getByTestId('partner-status').first().waitFor();
    await adminShot('tab');
    await card(business).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await adminShot('card', false);

    await card('Heartland Insurance Agency').getByRole('button', { name: /Delete/ }).click();
    await adminPage.getByRole('dialog', { name: 'Delete Partner Application' }).waitFor();
    await adminShot('delete', false);
    await adminPage.keyboard.press('Escape');
    await admin.close();
  }
} finally {
  await run.finish();
}
