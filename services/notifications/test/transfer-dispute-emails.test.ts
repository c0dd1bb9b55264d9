import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CommandData, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { transferDisputeDecidedEmail } from '../src/domain/transfer-dispute-emails';
import { EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { notificationsTestBed } from './worker-fixture';

/** The agent's notice of a decided transfer dispute (issue 23 §6): the transfer, the decision, why, the balance. */

const bed = notificationsTestBed();
const SITE = { publicUrl: 'https://warmline.example/' };

function decided(overrides: Partial<CommandData<'email.transfer_dispute_decided'>> = {}): CommandData<'email.transfer_dispute_decided'> {
  return {
    to: `avery-${randomUUID().slice(0, 8)}@example.com`,
    firstName: 'Avery',
    disputeId: randomUUID(),
    transferId: randomUUID(),
    prospect: 'Maria Lopez, (512) 555-0143',
    transferredAt: '2026-11-26T21:04:00.000Z',
    reasonLabel: 'Wrong state',
    decision: 'accepted',
    decisionReason: null,
    creditedCents: 3700,
    balanceAfter: 12,
    ...overrides,
  };
}

describe('the transfer dispute notice', () => {
  it('when a dispute is accepted, then the agent is told the transfer was credited back, at what price, and the balance', () => {
    const mail = transferDisputeDecidedEmail(decided(), SITE);

    expect(mail.subject).toBe('Your transfer dispute was accepted');
    expect(mail.template).toBe('transfer-dispute-decided');
    expect(mail.text).toContain('Hi Avery,');
    expect(mail.text).toContain('credited back to your balance ($37.00)');
    expect(mail.text).toContain('Your reason: Wrong state');
    expect(mail.text).toContain('Transferred: Thursday, November 26, 2026 at 9:04 PM UTC');
    expect(mail.text).toContain('You have 12 transfers left.');
    expect(mail.text).toContain('https://warmline.example/dashboard?view=my-transfers');
    expect(mail.html).toContain('<a href="https://warmline.example/dashboard?view=my-transfers">My Transfers</a>');
  });

  it("when a dispute is refused, then the record's words say why and nothing is credited", () => {
    const mail = transferDisputeDecidedEmail(
      decided({ decision: 'refused', decisionReason: 'The prospect was in TX, one of your working states (TX) when the transfer was routed', creditedCents: 0, balanceAfter: 1 }),
      SITE,
    );

    expect(mail.subject).toBe('Your transfer dispute was refused');
    expect(mail.text).toContain('the transfer stays charged');
    expect(mail.text).toContain('Why: The prospect was in TX, one of your working states (TX) when the transfer was routed');
    expect(mail.text).toContain('You have 1 transfer left.');
  });

  it("when the prospect's name holds markup, then the HTML shows it as text", () => {
    const mail = transferDisputeDecidedEmail(decided({ prospect: '<script>x</script>\r\nBcc: a@evil.example' }), SITE);

    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});

describe('through the worker', () => {
  it('when the transfers service asks for the notice (twice), then the agent gets it once', async () => {
    const worker = await bed.startWorker({ PUBLIC_URL: 'https://agents.warmline.example' });
    const data = decided();
    const request: Envelope<CommandData<'email.transfer_dispute_decided'>> = {
      id: randomUUID(),
      type: 'email.transfer_dispute_decided',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'transfers',
      correlationId: randomUUID(),
      data,
    };
    await worker.send(request);
    await worker.send(request);

    const sent = await waitFor('the dispute notice', async () => {
      const rows = await bed.emailsTo(data.to);
      return rows.length > 0 && rows;
    });
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    expect(await bed.emailsTo(data.to)).toHaveLength(1);
    expect(sent[0]).toMatchObject({ template: 'transfer-dispute-decided', subject: 'Your transfer dispute was accepted' });
  });
});
