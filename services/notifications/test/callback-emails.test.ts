import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { callbackAssignedEmail, callbackTimeText } from '../src/domain/callback-emails';
import { EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed } from './worker-fixture';

/**
 * The agent's notice of a call-back delivered to them (issue 15): the prospect's name, phone and
 * state, when to call in the prospect's clock, what was said, the call-backs left, and a link to
 * My Call-backs; once only.
 */

const bed = notificationsTestBed();
const SITE = { publicUrl: 'https://warmline.example/' };

function assigned(overrides: Partial<CommandData<'email.callback_assigned'>> = {}): CommandData<'email.callback_assigned'> {
  return {
    to: `avery-${randomUUID().slice(0, 8)}@example.com`,
    firstName: 'Avery',
    opportunityId: randomUUID(),
    prospectName: 'Maria Lopez',
    prospectPhone: '(512) 555-0143',
    state: 'TX',
    // 3 pm in Texas.
    callbackTime: '2026-11-26T21:00:00.000Z',
    transcriptExcerpt: 'Agent: Would a call tomorrow suit you?\nProspect: Please call me back after 3 pm.',
    balanceLeft: 4,
    assignedAt: '2026-11-25T18:00:00.000Z',
    ...overrides,
  };
}

describe('the call-back notice', () => {
  it('when a call-back is delivered, then the agent is told who to call, the number, when in the prospect\'s time, what was said, what is left and where to find it', () => {
    const mail = callbackAssignedEmail(assigned(), SITE);

    expect(mail.subject).toBe('New call-back (TX)');
    expect(mail.template).toBe('callback-assigned');
    expect(mail.text).toContain('Hi Avery,');
    expect(mail.text).toContain('Prospect: Maria Lopez');
    expect(mail.text).toContain('Phone: (512) 555-0143');
    expect(mail.text).toContain("Call back: Thursday, November 26, 2026 at 3:00 PM CST (the prospect's local time in TX)");
    expect(mail.text).toContain('> Agent: Would a call tomorrow suit you?\n> Prospect: Please call me back after 3 pm.');
    expect(mail.text).toContain('You have 4 call-backs left.');
    expect(mail.text).toContain('https://warmline.example/dashboard?view=my-callbacks');
    expect(mail.html).toContain('<td>Maria Lopez</td>');
    expect(mail.html).toContain('<td>(512) 555-0143</td>');
    expect(mail.html).toContain('Agent: Would a call tomorrow suit you?<br>Prospect: Please call me back after 3 pm.');
    expect(mail.html).toContain('<a href="https://warmline.example/dashboard?view=my-callbacks">My Call-backs</a>');
  });

  it('when the prospect gave no time, there is no transcript and it was the last call-back, then it says so', () => {
    const mail = callbackAssignedEmail(assigned({ callbackTime: null, transcriptExcerpt: null, balanceLeft: 0 }), SITE);

    expect(mail.text).toContain('Call back: As soon as you can (no time was given)');
    expect(mail.text).not.toContain('From the call');
    expect(mail.html).not.toContain('<blockquote>');
    expect(mail.text).toContain('That was your last call-back');
  });

  it('when the time is in a state of another zone or of no known zone, then the zone is named', () => {
    expect(callbackTimeText('2026-07-04T16:30:00.000Z', 'CA')).toBe("Saturday, July 4, 2026 at 9:30 AM PDT (the prospect's local time in CA)");
    expect(callbackTimeText('2026-07-04T16:30:00.000Z', 'ZZ')).toBe('Saturday, July 4, 2026 at 4:30 PM UTC');
  });

  it("when the prospect's name or words hold markup or line breaks, then the HTML part shows them as text and the subject stays one line", () => {
    const mail = callbackAssignedEmail(
      assigned({ prospectName: '<script>alert(1)</script>\r\nBcc: x@evil.example', transcriptExcerpt: 'I said "<b>call</b>" & \'soon\'', firstName: '<i>Avery</i>' }),
      SITE,
    );

    expect(mail.subject).toBe('New call-back (TX)');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>call</b>');
    expect(mail.html).not.toContain('<i>Avery</i>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('I said &quot;&lt;b&gt;call&lt;/b&gt;&quot; &amp; &#39;soon&#39;');
    expect(mail.html).toContain('Hi &lt;i&gt;Avery&lt;/i&gt;,');
  });
});

describe('through the worker', () => {
  it('when the catalog asks for a call-back notice (twice), then the agent gets it once, linking to PUBLIC_URL', async () => {
    const worker = await bed.startWorker({ PUBLIC_URL: 'https://agents.warmline.example' });
    const data = assigned();
    const request: Envelope<CommandData<'email.callback_assigned'>> = {
      id: randomUUID(),
      type: 'email.callback_assigned',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'catalog',
      correlationId: randomUUID(),
      data,
    };
    await worker.send(request);
    await worker.send(request);

    const sent = await waitFor('the call-back notice', async () => {
      const rows = await bed.emailsTo(data.to);
      return rows.length > 0 && rows;
    });
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    expect(await bed.emailsTo(data.to)).toHaveLength(1);
    expect(sent[0]).toMatchObject({ template: 'callback-assigned', subject: 'New call-back (TX)' });
    const files = await emlFiles(worker.mailDir);
    const eml = (await Promise.all(files.map(async (f) => decodeQuotedPrintable(await readFile(path.join(worker.mailDir, f), 'utf8'))))).find((m) =>
      m.includes(`To: ${data.to}`),
    );
    expect(eml).toMatch(/^Subject: New call-back \(TX\)$/m);
    expect(eml).toContain('https://agents.warmline.example/dashboard?view=my-callbacks');
    expect(eml).toContain('(512) 555-0143');
  });
});
