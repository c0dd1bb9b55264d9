import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { CommandData, CommandType, Envelope } from '@warmline/contracts';
import { waitFor } from '@warmline/platform/testing/index';
import { accountSecurityEmail, passwordResetEmail, welcomeEmail } from '../src/domain/account-emails';
import { recruitingRequestEmail } from '../src/domain/recruiting-emails';
import { surveySalesNoticeEmail } from '../src/domain/survey-emails';
import { operationsNoticeEmail, transferConfirmationEmail } from '../src/domain/transfer-order-emails';
import { EMAIL_QUEUE, EMAIL_REQUESTS_QUEUE } from '../src/events/consumers';
import { NOTIFICATIONS_SCHEMA } from '../src/service';
import { decodeQuotedPrintable, emlFiles, notificationsTestBed, type Worker } from './worker-fixture';

/**
 * The typed e-mail commands (issue 10): each is written into its e-mails here, the one place
 * e-mail bodies are written, and each e-mail is sent once however often the command arrives.
 */

const bed = notificationsTestBed();

async function queryRows<R extends Record<string, unknown>>(sql: string, params: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: bed.db.url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/* ------------------------------------------------------------------ factories ---------- */

const tag = () => randomUUID().slice(0, 8);

function command<T extends CommandType>(type: T, data: CommandData<T>): Envelope<CommandData<T>> {
  return { id: randomUUID(), type, version: 1, occurredAt: new Date().toISOString(), source: 'gateway', correlationId: randomUUID(), data };
}

function passwordReset(overrides: Partial<CommandData<'email.password_reset'>> = {}): CommandData<'email.password_reset'> {
  return {
    to: `ann-${tag()}@example.com`,
    name: 'Ann',
    resetUrl: `http://localhost:3000/reset-password?token=${randomUUID().replaceAll('-', '')}`,
    expiresInMinutes: 60,
    ...overrides,
  };
}

function surveySalesNotice(overrides: Partial<CommandData<'email.survey_sales_notice'>> = {}): CommandData<'email.survey_sales_notice'> {
  return {
    to: 'sales@example.com',
    responseId: randomUUID(),
    userId: randomUUID(),
    funnel: 'main',
    agent: {
      firstName: 'Sam',
      lastName: 'Rivera',
      agencyName: 'Rivera Insurance',
      role: 'Agency Owner',
      phone: '(555) 123-4567',
      email: 'sam@example.com',
      username: 'sam_r',
    },
    answers: { leadType: 'Insurance Recruiting', workingStates: 'TX, FL', totalCallbacks: 4, callbackPreference: 'Licensed in TX' },
    estimatedOrderCents: null,
    ...overrides,
  };
}

function recruitingRequest(): CommandData<'email.recruiting_request'> {
  return {
    to: 'recruiting@example.com',
    requestId: randomUUID(),
    receivedAt: '2026-03-02T10:15:00.000Z',
    agentsNeeded: 3,
    needs: 'Two licensed P&C agents for our Austin office',
    agent: {
      userId: randomUUID(),
      firstName: 'Rosa',
      lastName: 'Recruiter',
      agencyName: '',
      username: 'rosa_r',
      email: 'rosa@example.com',
      phone: '(512) 555-0177',
    },
  };
}

function transferOrderPaid(): CommandData<'email.transfer_order_paid'> {
  return {
    orderId: randomUUID(),
    buyerUserId: randomUUID(),
    totalTransfers: 20,
    transfersPerDay: 5,
    transferHours: '9am-5pm CST',
    selectedStates: ['TX', 'OK'],
    unitPriceCents: 3150,
    amountCents: 63000,
    currency: 'usd',
    paidAt: '2026-11-21T15:04:05.000Z',
    agent: { firstName: 'Olive', lastName: 'Okafor', email: `olive-${tag()}@example.com`, phone: '(512) 555-0101' },
    transferNumber: '(405) 555-0199',
  };
}

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

/* ---------------------------------------------------------------- what they say ---------- */

describe('what each e-mail says', () => {
  it('when a reset is asked for, then the mail holds the link in text and html, says it lasts an hour, and is marked secret', () => {
    const request = passwordReset({ resetUrl: 'http://localhost:3000/reset-password?token=abc&x=1' });
    const mail = passwordResetEmail(request);
    expect(mail).toMatchObject({ to: request.to, subject: 'Reset your WarmLine password', template: 'password-reset', secret: true });
    expect(mail.text).toContain('Hello Ann,');
    expect(mail.text).toContain('\nhttp://localhost:3000/reset-password?token=abc&x=1\n');
    expect(mail.text).toContain('(it works once and expires in 1 hour)');
    expect(mail.html).toContain('href="http://localhost:3000/reset-password?token=abc&amp;x=1"');
  });

  it('when the reset names the username, then the mail reminds the user of it in text and html; an older command without it says nothing of it', () => {
    const mail = passwordResetEmail(passwordReset({ username: 'ann_<b>' }));
    expect(mail.text).toContain('Your username is ann_<b>: log in with it and your new password.');
    expect(mail.html).toContain('Your username is <strong>ann_&lt;b&gt;</strong>');
    expect(passwordResetEmail(passwordReset()).text).not.toContain('username');
  });

  it('when a survey created an account, then the welcome names the username and the login page', () => {
    const mail = welcomeEmail({ to: 'sam@example.com', firstName: 'Sam', username: 'sam_r', loginUrl: 'http://localhost:3000/login' });
    expect(mail).toMatchObject({ to: 'sam@example.com', subject: 'Welcome to WarmLine: your account is ready', template: 'welcome' });
    expect(mail.text).toContain('Hello Sam,');
    expect(mail.text).toContain('Log in with your username "sam_r" and the password you chose:');
    expect(mail.text).toContain('http://localhost:3000/login');
    expect(mail.secret).toBeUndefined();
  });

  it('when two-factor is turned on or off (issue 22), then the user is told which, when (in UTC), and to reset the password if it was not them; the mail holds no secret', () => {
    const site = { publicUrl: 'https://warmline.example/' };
    const base = { to: 'dana@example.com', name: 'Dana', username: 'danacole', changedAt: '2026-11-27T14:05:09.000Z' };
    const on = accountSecurityEmail({ ...base, change: 'two_factor_on' }, site, { supportEmail: 'help@warmline.example' });
    expect(on).toMatchObject({ to: 'dana@example.com', subject: 'Two-factor authentication is on', template: 'account-security' });
    expect(on.secret).toBeUndefined();
    expect(on.text).toContain('Two-factor authentication was turned on for your WarmLine account');
    expect(on.text).toContain('When: 27 November 2026 at 14:05 UTC');
    expect(on.text).toContain('If this was not you, someone else is signed in to your account');
    expect(on.text).toContain('https://warmline.example/forgot-password');
    expect(on.text).toContain('Support: help@warmline.example');
    const off = accountSecurityEmail({ ...base, name: '<b>Dana</b>', change: 'two_factor_off' }, site);
    expect(off.subject).toBe('Two-factor authentication is off');
    expect(off.html).toContain('&lt;b&gt;Dana&lt;/b&gt;');
    expect(off.html).toContain('<a href="https://warmline.example/forgot-password">Choose a new password</a>');
  });

  it('when a main survey is submitted, then the sales notice names the funnel and labels recruiting answers as such', () => {
    const mail = surveySalesNoticeEmail(surveySalesNotice());
    expect(mail).toMatchObject({ to: 'sales@example.com', subject: 'New survey sign-up: Sam Rivera (Rivera Insurance)', template: 'survey-sales-notice' });
    expect(mail.text).toContain('Please contact them within 24 hours');
    expect(mail.text).toContain('Funnel: Main survey (/survey), marker Survey Form');
    expect(mail.text).toContain('Email: sam@example.com');
    expect(mail.text).toContain('Username: sam_r');
    expect(mail.text).toContain('Agents needed: 4');
    expect(mail.text).toContain('Preferences: Licensed in TX');
    expect(mail.text).not.toContain('Estimated order');
  });

  it('when a referral or RingCloud survey is submitted, then the notice names the salesperson or the estimated order', () => {
    const referral = surveySalesNoticeEmail(
      surveySalesNotice({
        funnel: 'referral',
        salesperson: { slug: 'john', displayName: 'John Smith' },
        answers: { leadType: 'Call-Backs', workingStates: 'TX', totalCallbacks: 20, callbackPreference: 'Mornings', timezone: 'CST' },
        estimatedOrderCents: 30_000,
      }),
    );
    expect(referral.subject).toBe('New referral survey (John Smith) sign-up: Sam Rivera (Rivera Insurance)');
    expect(referral.text).toContain('Funnel: Referral survey of John Smith (/john)');
    expect(referral.text).toContain('Total callbacks: 20');
    expect(referral.text).toContain('Callback preference: Mornings');
    expect(referral.text).toContain('Timezone: CST');
    expect(referral.text).toContain('Estimated order: $300.00');
    const ringcloud = surveySalesNoticeEmail(surveySalesNotice({ funnel: 'ringcloud' }));
    expect(ringcloud.subject).toBe('New RingCloud survey sign-up: Sam Rivera (Rivera Insurance)');
  });

  it('when a name holds a line break, then the subject stays one line', () => {
    const request = surveySalesNotice();
    const mail = surveySalesNoticeEmail({ ...request, agent: { ...request.agent, lastName: 'Rivera\r\nBcc: x@example.com' } });
    expect(mail.subject).toBe('New survey sign-up: Sam Rivera Bcc: x@example.com (Rivera Insurance)');
  });

  it('when an agent asks for recruiting help, then the team notice has the request, the agent and how to reach them', () => {
    const request = recruitingRequest();
    const mail = recruitingRequestEmail(request);
    expect(mail).toMatchObject({ to: 'recruiting@example.com', subject: 'Recruiting request: 3 agents for rosa_r', template: 'recruiting-request' });
    expect(mail.text).toContain('Rosa Recruiter asked for help recruiting agents from the dashboard.');
    expect(mail.text).toContain('Agents needed: 3');
    expect(mail.text).toContain('Two licensed P&C agents for our Austin office');
    expect(mail.text).toContain('Agency: not given');
    expect(mail.text).toContain('E-mail: rosa@example.com');
    expect(mail.text).toContain('Phone: (512) 555-0177');
    expect(mail.text).toContain(`Request: ${request.requestId}`);
    expect(mail.text).toContain('Received: 2026-03-02T10:15:00.000Z');
  });

  it('when a transfer order is paid, then the agent is greeted by name and operations get the contact and the transfer phone', () => {
    const order = transferOrderPaid();
    const confirmation = transferConfirmationEmail(order, { operationsEmail: 'ops@example.com' });
    expect(confirmation.to).toBe(order.agent.email);
    expect(confirmation.subject).toBe('Your live transfers are confirmed: 20 transfers, $630.00');
    expect(confirmation.text).toContain('Hi Olive,');
    expect(confirmation.text).toContain('Transfer phone: (405) 555-0199');
    const notice = operationsNoticeEmail(order, 'ops@example.com');
    expect(notice.subject).toBe('New transfer order: 20 transfers in TX, OK for Olive Okafor');
    expect(notice.text).toContain(`Agent e-mail: ${order.agent.email}`);
    expect(notice.text).toContain('Agent phone: (512) 555-0101');
  });
});

/* ------------------------------------------------------------- through the worker ---------- */

describe('e-mail commands through the worker', () => {
  it('when email.password_reset is delivered twice, then one mail with the link is sent and no outbox row keeps the link', async () => {
    const worker = await bed.startWorker();
    const request = command('email.password_reset', passwordReset());

    await worker.send(request);
    const mail = await firstMailTo(worker, request.data.to);
    await worker.send(request);
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    // The rendered email.send was marked secret: once the broker confirmed it, its row lost the link.
    const sendRows = () => queryRows<{ data: string }>(
      `SELECT envelope->>'data' AS data FROM ${NOTIFICATIONS_SCHEMA}.outbox WHERE routing_key = 'email.send' AND envelope->>'correlationId' = $1`,
      [request.correlationId],
    );
    await waitFor('the link to leave the outbox', async () => {
      const rows = await sendRows();
      return rows.length === 1 && !rows[0]!.data.includes(request.data.resetUrl);
    });
    await worker.stop();

    expect(mail).toMatch(/^Subject: Reset your WarmLine password$/m);
    expect(mail).toContain(request.data.resetUrl);
    expect(await mailTo(worker, request.data.to)).toHaveLength(1);
    expect(await bed.emailsTo(request.data.to)).toEqual([expect.objectContaining({ template: 'password-reset' })]);
    expect(await worker.messagesIn(`${EMAIL_REQUESTS_QUEUE}.dlq`)).toBe(0);
    expect(await worker.messagesIn(`${EMAIL_QUEUE}.dlq`)).toBe(0);
    expect(await sendRows()).toHaveLength(1);
  });

  it('when the gateway and orders ask for their e-mails, then each recipient gets exactly the mails written here, once', async () => {
    const operations = `ops-${tag()}@example.com`;
    const worker = await bed.startWorker({ OPERATIONS_EMAIL: operations });
    const welcome = command('email.welcome', { to: `sam-${tag()}@example.com`, firstName: 'Sam', username: 'sam_r', loginUrl: 'http://localhost:3000/login' });
    const sales = surveySalesNotice({ to: `sales-${tag()}@example.com` });
    const notice = command('email.survey_sales_notice', sales);
    const recruiting = command('email.recruiting_request', { ...recruitingRequest(), to: `recruiting-${tag()}@example.com` });
    const transfer = { ...command('email.transfer_order_paid', transferOrderPaid()), source: 'orders' };

    for (const request of [welcome, notice, recruiting, transfer, welcome, transfer]) await worker.send(request);

    expect(await firstMailTo(worker, welcome.data.to)).toMatch(/^Subject: Welcome to WarmLine: your account is ready$/m);
    expect(await firstMailTo(worker, sales.to)).toContain('Funnel: Main survey (/survey), marker Survey Form');
    expect(await firstMailTo(worker, recruiting.data.to)).toContain(`Request: ${recruiting.data.requestId}`);
    expect(await firstMailTo(worker, transfer.data.agent.email)).toContain('Hi Olive,');
    expect(await firstMailTo(worker, operations)).toContain('Agent: Olive Okafor');
    await waitFor('the command queue to be empty', async () => (await worker.messagesIn(EMAIL_REQUESTS_QUEUE)) === 0);
    await worker.stop();

    for (const to of [welcome.data.to, sales.to, recruiting.data.to, transfer.data.agent.email, operations]) {
      expect(await mailTo(worker, to), to).toHaveLength(1);
    }
    expect(await emlFiles(worker.mailDir)).toHaveLength(5);
  });
});
