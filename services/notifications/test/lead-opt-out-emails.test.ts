import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { leadOptOutEmail } from '../src/domain/lead-opt-out-emails';
import { EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed } from './worker-fixture';

/**
 * The notice to a buyer whose bought leads' phone opted out (issue 13, the suppression list):
 * which leads, that the number must not be called or texted again, and once only.
 */

const bed = notificationsTestBed();
const CONTACT = { salesTeamEmail: 'sales@example.com' };

function optOut(overrides: Partial<CommandData<'email.lead_opt_out'>> = {}): CommandData<'email.lead_opt_out'> {
  return {
    to: `dana-${randomUUID().slice(0, 8)}@example.com`,
    name: 'Dana',
    leads: [{ leadId: randomUUID(), name: 'Jane Smith', phone: '(512) 555-0143', purchasedAt: '2026-07-01T15:04:05.000Z' }],
    reason: 'Asked the vendor to stop all calls',
    at: '2026-07-20T09:00:00.000Z',
    ...overrides,
  };
}

describe('the opt-out notice', () => {
  it('when one lead\'s number opted out, then it names the lead, its phone and purchase date, and says not to call or text it again', () => {
    const mail = leadOptOutEmail(optOut(), CONTACT);

    expect(mail.subject).toBe('Stop contacting a lead: the number opted out');
    expect(mail.template).toBe('lead-opt-out');
    expect(mail.text).toContain('Hi Dana,');
    expect(mail.text).toContain('- Jane Smith, (512) 555-0143, bought July 1, 2026');
    expect(mail.text).toContain('Do not call or text this number again');
    expect(mail.text).toContain('Reason given: Asked the vendor to stop all calls');
    expect(mail.text).toContain('The lead stays in My Leads');
    expect(mail.html).toContain('<li>Jane Smith, (512) 555-0143, bought July 1, 2026</li>');
    expect(mail.html).toContain('Do not call or text this number again');
  });

  it('when a call-back delivered to an agent opted out (issue 22), then the notice names the call-back and where it stays', () => {
    const mail = leadOptOutEmail(
      optOut({ leads: [], callbacks: [{ opportunityId: randomUUID(), name: 'Maria Lopez', phone: '(512) 555-6167', deliveredAt: '2026-11-20T15:00:00.000Z' }] }),
      CONTACT,
    );

    expect(mail.subject).toBe('Stop contacting a call-back: the number opted out');
    expect(mail.text).toContain('A call-back you bought from us has a phone number that has opted out');
    expect(mail.text).toContain('- Maria Lopez, (512) 555-6167, call-back delivered November 20, 2026');
    expect(mail.text).toContain('The call-back stays in My Call-backs');
  });

  it('when a live transfer an agent received opted out (issue 24), then the notice names the transfer, says it was received, and where it stays marked', () => {
    const mail = leadOptOutEmail(
      optOut({ leads: [], transfers: [{ transferId: randomUUID(), name: 'Maria Lopez', phone: '(512) 555-6167', routedAt: '2026-11-20T18:00:00.000Z' }] }),
      CONTACT,
    );

    expect(mail.subject).toBe('Stop contacting a live transfer: the number opted out');
    expect(mail.text).toContain('A live transfer you received from us has a phone number that has opted out');
    expect(mail.text).toContain('- Maria Lopez, (512) 555-6167, transferred to you November 20, 2026');
    expect(mail.text).toContain('The transfer stays in My Transfers on your dashboard for your records, marked Do not call.');
  });

  it('when a buyer bought several leads with the number, then one notice lists them all', () => {
    const mail = leadOptOutEmail(
      optOut({
        leads: [
          { leadId: randomUUID(), name: 'Jane Smith', phone: '(512) 555-0143', purchasedAt: '2026-07-01T15:04:05.000Z' },
          { leadId: randomUUID(), name: 'Jane A. Smith', phone: '(512) 555-0143', purchasedAt: '2026-08-03T10:00:00.000Z' },
        ],
      }),
      CONTACT,
    );

    expect(mail.subject).toBe('Stop contacting 2 leads: the number opted out');
    expect(mail.text).toContain('- Jane Smith, (512) 555-0143, bought July 1, 2026\n- Jane A. Smith, (512) 555-0143, bought August 3, 2026');
    expect(mail.text).toContain('The leads stay in My Leads');
  });

  it('when a lead\'s name holds markup, then the HTML part shows it as text', () => {
    const mail = leadOptOutEmail(optOut({ leads: [{ leadId: randomUUID(), name: '<b>Jane</b>', phone: '(512) 555-0143', purchasedAt: '2026-07-01T15:04:05.000Z' }] }), CONTACT);

    expect(mail.html).toContain('&lt;b&gt;Jane&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Jane</b>');
  });
});

describe('through the worker', () => {
  it('when the catalog asks for an opt-out notice (twice), then the buyer gets it once', async () => {
    const worker = await bed.startWorker();
    const data = optOut();
    const request: Envelope<CommandData<'email.lead_opt_out'>> = {
      id: randomUUID(),
      type: 'email.lead_opt_out',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'catalog',
      correlationId: randomUUID(),
      data,
    };
    await worker.send(request);
    await worker.send(request);

    const sent = await waitFor('the opt-out notice', async () => {
      const rows = await bed.emailsTo(data.to);
      return rows.length > 0 && rows;
    });
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    expect(await bed.emailsTo(data.to)).toHaveLength(1);
    expect(sent[0]).toMatchObject({ template: 'lead-opt-out' });
    const files = await emlFiles(worker.mailDir);
    const eml = (await Promise.all(files.map(async (f) => decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'))))).find((m) =>
      m.includes(`To: ${data.to}`),
    );
    expect(eml).toMatch(/^Subject: Stop contacting a lead: the number opted out$/m);
    expect(eml).toContain('Jane Smith, (512) 555-0143, bought July 1, 2026');
  });
});
