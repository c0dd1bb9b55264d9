import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PARTNER_REVIEW_HOURS, type CommandData, type CommandType, type Envelope } from '@warmline/contracts';
import { parseConfig } from '@warmline/platform/config';
import { TEST_KEYS, waitFor } from '@warmline/platform/testing/index';
import { notificationsEnv } from '../src/config';
import {
  documentSize,
  partnerApplicationNoticeEmail,
  partnerApplicationReceivedEmail,
  partnerStatusChangedEmail,
} from '../src/domain/partner-emails';
import { EMAIL_QUEUE, EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { NOTIFICATIONS_SCHEMA } from '../src/service';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed, type Worker } from './worker-fixture';

/**
 * The partner network's e-mails (issue 14): the applicant's confirmation (review within 48
 * hours), the partnerships inbox's notice with every answer and the documents, and the decision
 * (approved: next steps; rejected: a polite no; back to pending: nothing), each sent once.
 */

const bed = notificationsTestBed();
const CONTACT = { partnersTeamEmail: 'partners@example.com' };
const tag = () => randomUUID().slice(0, 8);

function command<T extends CommandType>(type: T, data: CommandData<T>): Envelope<CommandData<T>> {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), source: 'partners', correlationId: randomUUID(), data };
}

function received(overrides: Partial<CommandData<'email.partner_application_received'>> = {}): CommandData<'email.partner_application_received'> {
  return {
    to: `robin-${tag()}@lanelead.example`,
    contactName: 'Robin Lane',
    businessName: 'Lane Lead Co',
    applicationId: randomUUID(),
    appliedAt: '2026-09-14T16:30:00.000Z',
    ...overrides,
  };
}

type Answers = CommandData<'email.partner_application_notice'>['answers'];

function notice(answers: Partial<Answers> = {}, documents?: CommandData<'email.partner_application_notice'>['documents']): CommandData<'email.partner_application_notice'> {
  return {
    applicationId: randomUUID(),
    answers: {
      businessName: 'Lane Lead Co',
      contactName: 'Robin Lane',
      email: 'robin@lanelead.example',
      phone: '(512) 555-0142',
      website: 'https://lanelead.example',
      businessType: 'Lead Generation',
      experienceYears: '3-5 years',
      monthlyVolume: '1000-5000',
      servicesInterested: ['Aged Leads', 'Call Transfers'],
      targetMarkets: 'Final expense and Medicare in TX, FL and AZ',
      businessDescription: 'We run compliant Facebook and search campaigns for final expense insurance,\nwith TCPA consent captured on every form.',
      whyPartner: 'We have more verified leads than our own agents can work and want a reliable buyer network for the rest.',
      ...answers,
    },
    documents: documents ?? [
      { originalName: 'W-9 2026.pdf', size: 245_760, contentType: 'application/pdf' },
      { originalName: 'licence.png', size: 3_250_586, contentType: 'image/png' },
    ],
    appliedAt: '2026-09-14T16:30:00.000Z',
  };
}

function statusChange(status: 'pending' | 'approved' | 'rejected', overrides: Partial<CommandData<'email.partner_status_changed'>> = {}): CommandData<'email.partner_status_changed'> {
  return {
    to: `robin-${tag()}@lanelead.example`,
    contactName: 'Robin',
    businessName: 'Lane Lead Co',
    applicationId: randomUUID(),
    status,
    changedAt: '2026-09-15T10:00:00.000Z',
    ...overrides,
  };
}

/* ------------------------------------------------------------------ what they say ---------- */

describe("the applicant's confirmation", () => {
  it('when an application arrives, then the applicant is thanked by name and promised a review within 48 hours, with the reference', () => {
    const request = received();
    const mail = partnerApplicationReceivedEmail(request, CONTACT);

    expect(PARTNER_REVIEW_HOURS).toBe(48);
    expect(mail.to).toBe(request.to);
    expect(mail.subject).toBe('We received your WarmLine partner application');
    expect(mail.template).toBe('partner-application-received');
    expect(mail.text).toContain('Hi Robin Lane,');
    expect(mail.text).toContain('on behalf of Lane Lead Co. Your application arrived on September 14, 2026.');
    expect(mail.text).toContain('review it within 48 hours');
    expect(mail.text).toContain(`Your reference: ${request.applicationId}`);
    expect(mail.text).toContain('Write to partners@example.com');
    expect(mail.html).toContain('<strong>Our partnerships team will review it within 48 hours');
    expect(mail.html).toContain('<a href="mailto:partners@example.com">partners@example.com</a>');
  });

  it('when the names hold markup, then the HTML part shows them as text', () => {
    const mail = partnerApplicationReceivedEmail(received({ contactName: '<img src=x onerror=alert(1)>', businessName: 'A & B <Leads>' }), CONTACT);

    expect(mail.html).toContain('Hi &lt;img src=x onerror=alert(1)&gt;,');
    expect(mail.html).toContain('A &amp; B &lt;Leads&gt;');
    expect(mail.html).not.toMatch(/<img|<Leads>/);
  });
});

describe("the partnerships inbox's notice", () => {
  it('when an application arrives, then the inbox gets every answer and each document by name, size and type', () => {
    const data = notice();
    const mail = partnerApplicationNoticeEmail(data, CONTACT);

    expect(mail.to).toBe('partners@example.com');
    expect(mail.subject).toBe('New partner application: Lane Lead Co (Lead Generation)');
    expect(mail.template).toBe('partner-application-notice');
    for (const line of [
      'Business name: Lane Lead Co',
      'Contact name: Robin Lane',
      'E-mail: robin@lanelead.example',
      'Phone: (512) 555-0142',
      'Website: https://lanelead.example',
      'Business type: Lead Generation',
      'Years of experience: 3-5 years',
      'Monthly lead volume: 1000-5000',
      'Services interested in: Aged Leads, Call Transfers',
      'Target markets: Final expense and Medicare in TX, FL and AZ',
      `Application: ${data.applicationId}`,
      'Received: 2026-09-14T16:30:00.000Z',
      `Business description:\n${data.answers.businessDescription}\n`,
      `Why they want to partner:\n${data.answers.whyPartner}\n`,
      'Documents (2):\n- W-9 2026.pdf (240 KB, application/pdf)\n- licence.png (3.1 MB, image/png)',
    ]) {
      expect(mail.text).toContain(line);
    }
    expect(mail.text).toContain('within 48 hours');
    expect(mail.html).toContain('<li>W-9 2026.pdf (240 KB, application/pdf)</li><li>licence.png (3.1 MB, image/png)</li>');
    // The description's line break is kept in the HTML part.
    expect(mail.html).toContain('for final expense insurance,<br>with TCPA consent');
    expect(mail.html).toContain('<td>Aged Leads, Call Transfers</td>');
  });

  it('when the answers and document names hold markup or line breaks, then the HTML shows them as text and the subject stays one line', () => {
    const mail = partnerApplicationNoticeEmail(
      notice(
        {
          businessName: 'Evil <script>alert(1)</script>\r\nBcc: everyone@example.com',
          whyPartner: '<a href="https://phish.example">click</a> & "win"',
          targetMarkets: "O'Brien's <b>markets</b>",
        },
        [{ originalName: '<img src=x onerror=alert(1)>.pdf', size: 900, contentType: 'application/pdf' }],
      ),
      CONTACT,
    );

    expect(mail.subject).toBe('New partner application: Evil <script>alert(1)</script> Bcc: everyone@example.com (Lead Generation)');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toMatch(/<script|<a href="https:\/\/phish|<img|<b>markets/);
    expect(mail.html).toContain('Evil &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;a href=&quot;https://phish.example&quot;&gt;click&lt;/a&gt; &amp; &quot;win&quot;');
    expect(mail.html).toContain('O&#39;Brien&#39;s &lt;b&gt;markets&lt;/b&gt;');
    expect(mail.html).toContain('<li>&lt;img src=x onerror=alert(1)&gt;.pdf (900 bytes, application/pdf)</li>');
  });

  it('when an application has no documents, then the notice says so', () => {
    const mail = partnerApplicationNoticeEmail(notice({}, []), CONTACT);
    expect(mail.text).toContain('Documents: none');
    expect(mail.html).toContain('<h3>Documents: none</h3>');
    expect(mail.html).not.toContain('<ul>');
  });

  it('sizes read as bytes, KB or MB (1 KB = 1,024 bytes)', () => {
    expect([1, 900, 1024, 524_288, 10 * 1024 * 1024].map(documentSize)).toEqual(['1 byte', '900 bytes', '1 KB', '512 KB', '10.0 MB']);
  });
});

describe("the applicant's decision", () => {
  it('when an application is approved, then the applicant is told a partnerships manager will contact them within 2 business days to set up the integration', () => {
    const change = statusChange('approved');
    const mail = partnerStatusChangedEmail(change, CONTACT)!;

    expect(mail.to).toBe(change.to);
    expect(mail.subject).toBe('Your WarmLine partner application is approved');
    expect(mail.template).toBe('partner-approved');
    expect(mail.text).toContain('Hi Robin,');
    expect(mail.text).toContain('the application of Lane Lead Co to the WarmLine partner network is approved');
    expect(mail.text).toContain('a partnerships manager will contact you within 2 business days to set up the integration');
    expect(mail.text).toContain(`Your reference: ${change.applicationId}`);
    expect(mail.html).toContain('<strong>Next steps: a partnerships manager will contact you within 2 business days');
    expect(mail.html).toContain('mailto:partners@example.com');
  });

  it('when an application is rejected, then the applicant gets a polite no, with no promise of a call', () => {
    const mail = partnerStatusChangedEmail(statusChange('rejected'), CONTACT)!;

    expect(mail.subject).toBe('Your WarmLine partner application');
    expect(mail.template).toBe('partner-rejected');
    expect(mail.text).toContain('Thank you for your interest in the WarmLine partner network');
    expect(mail.text).toContain('we are not able to offer a partnership at this time');
    expect(mail.text).toContain('you are welcome to apply again');
    expect(mail.text).not.toMatch(/approved|business days|manager/);
    expect(mail.html).toContain('we are not able to offer a partnership at this time');
  });

  it("when the admin added a note, then both decisions quote it as the team's words, as text in the HTML", () => {
    for (const status of ['approved', 'rejected'] as const) {
      const mail = partnerStatusChangedEmail(statusChange(status, { note: 'Send us <your> rate card.' }), CONTACT)!;
      expect(mail.text).toContain('A note from our partnerships team:\nSend us <your> rate card.');
      expect(mail.html).toContain('<blockquote>Send us &lt;your&gt; rate card.</blockquote>');
    }
    expect(partnerStatusChangedEmail(statusChange('approved'), CONTACT)!.text).not.toContain('A note from');
  });

  it('when an application is moved back to pending, then no e-mail is written', () => {
    expect(partnerStatusChangedEmail(statusChange('pending'), CONTACT)).toBeUndefined();
  });

  it('when the names hold markup, then the HTML shows them as text', () => {
    for (const status of ['approved', 'rejected'] as const) {
      const mail = partnerStatusChangedEmail(statusChange(status, { contactName: '<i>Robin</i>', businessName: '<b>Lane</b>' }), CONTACT)!;
      expect(mail.html).toContain('&lt;i&gt;Robin&lt;/i&gt;');
      expect(mail.html).toContain('&lt;b&gt;Lane&lt;/b&gt;');
      expect(mail.html).not.toMatch(/<i>|<b>/);
    }
  });
});

describe('PARTNERS_TEAM_EMAIL', () => {
  it('defaults to partners@warmline.local, takes an address, and refuses anything else', () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', AMQP_URL: 'amqp://127.0.0.1', IDENTITY_PUBLIC_KEY: TEST_KEYS.IDENTITY_PUBLIC_KEY };
    expect(parseConfig(notificationsEnv, base).PARTNERS_TEAM_EMAIL).toBe('partners@warmline.local');
    expect(parseConfig(notificationsEnv, { ...base, PARTNERS_TEAM_EMAIL: '' }).PARTNERS_TEAM_EMAIL).toBe('partners@warmline.local');
    expect(parseConfig(notificationsEnv, { ...base, PARTNERS_TEAM_EMAIL: 'deals@example.com' }).PARTNERS_TEAM_EMAIL).toBe('deals@example.com');
    expect(() => parseConfig(notificationsEnv, { ...base, PARTNERS_TEAM_EMAIL: 'not an address' })).toThrow(/PARTNERS_TEAM_EMAIL/);
  });
});

/* ------------------------------------------------------------- through the worker ---------- */

/** The decoded .eml messages of a worker addressed to `to`. */
async function mailTo(worker: Worker, to: string): Promise<string[]> {
  const messages = await Promise.all(
    (await emlFiles(worker.mailDir)).map(async (f) => decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'))),
  );
  return messages.filter((m) => new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm').test(m));
}

async function firstMailTo(worker: Worker, to: string): Promise<string> {
  const [mail] = await waitFor(`the e-mail to ${to}`, async () => {
    const found = await mailTo(worker, to);
    return found.length > 0 ? found : undefined;
  });
  return mail!;
}

async function processed(commandId: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: bed.db.url });
  await client.connect();
  try {
    const { rowCount } = await client.query(`SELECT 1 FROM ${NOTIFICATIONS_SCHEMA}.processed_events WHERE consumer = $1 AND event_id = $2`, [
      EMAIL_REQUESTS_QUEUE,
      commandId,
    ]);
    return rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('through the worker', () => {
  it('when the partners service asks for the confirmation, the notice and the decisions (each twice), then each e-mail is sent once, the notice to PARTNERS_TEAM_EMAIL, and pending sends nothing', async () => {
    const inbox = `partners-${tag()}@example.com`;
    const worker = await bed.startWorker({ PARTNERS_TEAM_EMAIL: inbox });
    const confirmation = command('email.partner_application_received', received());
    const newApplication = command('email.partner_application_notice', notice({ businessName: `Lane ${tag()}` }));
    const approved = command('email.partner_status_changed', statusChange('approved'));
    const rejected = command('email.partner_status_changed', statusChange('rejected'));
    const pending = command('email.partner_status_changed', statusChange('pending'));

    for (const request of [confirmation, newApplication, approved, rejected, pending, confirmation, newApplication, approved, rejected, pending]) {
      await worker.send(request);
    }

    expect(await firstMailTo(worker, confirmation.data.to)).toMatch(/^Subject: We received your WarmLine partner application$/m);
    const inboxMail = await firstMailTo(worker, inbox);
    expect(inboxMail).toMatch(/^Subject: New partner application: Lane \w+ \(Lead Generation\)$/m);
    expect(inboxMail).toContain('W-9 2026.pdf (240 KB, application/pdf)');
    expect(await firstMailTo(worker, approved.data.to)).toContain('within 2 business days to set up the integration');
    expect(await firstMailTo(worker, rejected.data.to)).toContain('not able to offer a partnership at this time');
    await waitFor('the pending change to be taken', () => processed(pending.id));
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    await waitFor('the e-mail queue to be empty', async () => (await worker.messagesIn(EMAIL_QUEUE)) === 0);
    await worker.stop();

    for (const to of [confirmation.data.to, inbox, approved.data.to, rejected.data.to]) expect(await mailTo(worker, to), to).toHaveLength(1);
    expect(await mailTo(worker, pending.data.to)).toHaveLength(0);
    expect(await bed.emailsTo(pending.data.to)).toEqual([]);
    expect(await bed.emailsTo(inbox)).toEqual([expect.objectContaining({ template: 'partner-application-notice' })]);
    expect(await emlFiles(worker.mailDir)).toHaveLength(4);
    expect(await worker.messagesIn(`${EMAIL_REQUESTS_QUEUE}.dlq`)).toBe(0);
  });
});
