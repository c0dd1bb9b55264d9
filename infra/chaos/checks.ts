import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { EXPECTED_EMAILS, tallyEmails, type LoggedEmail } from './emails';
import { LOAD_EMAIL_DOMAIN, type ClientTransfer } from './load';
import { sleep } from './system';

/**
 * After the load: nothing lost, nothing done twice. The chaos database is fresh each run, so
 * every row in it is this run's. Each figure is a query on the owner's own schema (this is a
 * test tool reading every schema, not a service).
 */

export interface Finding {
  what: string;
  count: number;
  /** A few examples (ids) for the log. */
  examples: string[];
}

export interface Integrity {
  /** Outbox rows never published, per schema. */
  unpublished: Array<{ schema: string; count: number }>;
  /** Effects that never happened (an event or command that did not arrive). */
  missing: Finding[];
  /** Effects that happened twice. */
  doubled: Finding[];
  /** What the run produced, for scale. */
  totals: {
    signUps: number;
    packageOrdersPaid: number;
    leadOrdersPaid: number;
    leadsSold: number;
    emails: number;
    emailsUnattributed: number;
    outboxRows: number;
    vendorCalls: number;
    callbackOpportunities: number;
    transfersRouted: number;
    transfersCharged: number;
  };
}

/** What the load's clients saw, to hold the database to. */
export interface ClientView {
  /** callback_id of every vendor call answered 200. */
  acceptedCalls: string[];
  /** Vendor calls whose retry (same Idempotency-Key) named another call than the first answer. */
  repeatMismatches: string[];
  /** Live transfers answered routed, each with the outcome answer it got (issue 23). */
  transfers: ClientTransfer[];
  /** Routes or outcomes whose repeat was answered differently from the first time. */
  transferRepeatMismatches: string[];
  /** The run's mail folder: the file transport's .eml files, each named with its command id. */
  mailDir: string;
}

export const lostCount = (i: Integrity) => i.unpublished.reduce((n, u) => n + u.count, 0) + i.missing.reduce((n, f) => n + f.count, 0);
export const doubledCount = (i: Integrity) => i.doubled.reduce((n, f) => n + f.count, 0);

async function rows<T extends pg.QueryResultRow>(pool: pg.Pool, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

const finding = (what: string, ids: string[]): Finding => ({ what, count: ids.length, examples: ids.slice(0, 5) });

async function checkIntegrity(pool: pg.Pool, schemas: string[], client: ClientView): Promise<Integrity> {
  const q = pg.escapeIdentifier;
  const unpublished: Integrity['unpublished'] = [];
  let outboxRows = 0;
  for (const schema of schemas) {
    const [r] = await rows<{ unsent: number; total: number }>(
      pool,
      `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unsent, count(*)::int AS total FROM ${q(schema)}.outbox`,
    );
    unpublished.push({ schema, count: r?.unsent ?? 0 });
    outboxRows += r?.total ?? 0;
  }

  // Paid lead orders whose leads the catalog never sold (payment.succeeded did not arrive).
  const paidLeadOrders = await rows<{ id: string }>(pool, "SELECT id::text FROM orders.package_orders WHERE kind = 'lead' AND status = 'paid'");
  const unsold = await rows<{ id: string }>(
    pool,
    `SELECT o.id::text AS id FROM orders.package_orders o
       LEFT JOIN catalog.lead_reservations r ON r.order_id = o.id
      WHERE o.kind = 'lead' AND o.status = 'paid' AND (r.status IS DISTINCT FROM 'paid'
        OR EXISTS (SELECT 1 FROM catalog.lead_reservation_items i WHERE i.order_id = o.id AND i.outcome IS NULL))`,
  );
  const paidPackages = await rows<{ id: string }>(pool, "SELECT id::text FROM orders.package_orders WHERE kind = 'package' AND status = 'paid'");
  const signUps = await rows<{ email: string }>(pool, 'SELECT lower(email) AS email FROM gateway.users WHERE lower(email) LIKE $1', [
    `%@${LOAD_EMAIL_DOMAIN}`,
  ]);

  // Doubles: a lead sold twice, a payment taken twice, a sale announced twice.
  const soldTwice = await rows<{ id: string }>(
    pool,
    `SELECT lead_id::text AS id FROM catalog.lead_reservation_items WHERE outcome = 'sold' GROUP BY lead_id HAVING count(*) > 1`,
  );
  const soldElsewhere = await rows<{ id: string }>(
    pool,
    `SELECT i.lead_id::text AS id FROM catalog.lead_reservation_items i JOIN catalog.aged_leads l ON l.id = i.lead_id
      WHERE i.outcome = 'sold' AND l.sold_order_id IS DISTINCT FROM i.order_id`,
  );
  const outboxTwice = async (schema: string, type: string, idField = 'orderId') =>
    rows<{ id: string }>(
      pool,
      `SELECT envelope->'data'->>$2 AS id FROM ${q(schema)}.outbox WHERE routing_key = $1
        GROUP BY 1 HAVING count(*) > 1`,
      [type, idField],
    );
  const paymentTwice = await outboxTwice('orders', 'payment.succeeded');
  const purchasedTwice = await outboxTwice('catalog', 'leads.purchased');
  // Vendor calls: each one answered 200 is stored, and each call-back among them became one opportunity.
  const unstoredCalls = await rows<{ id: string }>(
    pool,
    `SELECT a.id FROM unnest($1::text[]) AS a(id) LEFT JOIN ingestion.vendor_calls c ON c.id::text = a.id WHERE c.id IS NULL`,
    [client.acceptedCalls],
  );
  const callsWithoutOpportunity = await rows<{ id: string }>(
    pool,
    `SELECT c.id::text AS id FROM ingestion.vendor_calls c LEFT JOIN catalog.callback_opportunities o ON o.callback_id = c.id
      WHERE c.disposition = 'opportunity' AND o.id IS NULL`,
  );
  const callReceivedTwice = await outboxTwice('ingestion', 'callback.received', 'callbackId');
  const [{ calls, opportunities } = { calls: 0, opportunities: 0 }] = await rows<{ calls: number; opportunities: number }>(
    pool,
    `SELECT (SELECT count(*)::int FROM ingestion.vendor_calls) AS calls,
            (SELECT count(*)::int FROM catalog.callback_opportunities WHERE source = 'vendor') AS opportunities`,
  );
  const [{ sold } = { sold: 0 }] = await rows<{ sold: number }>(pool, 'SELECT count(*)::int AS sold FROM catalog.aged_leads WHERE sold_at IS NOT NULL');

  // Live transfers (issue 23): every routed answer stored, every outcome answered stored with its
  // status; no transfer charged twice; every agent's balance the sum of its ledger rows and of its
  // lots' remaining (the SELECT of services/transfers/src/db/ledger.ts ledgerMismatches()).
  const answered = client.transfers;
  const unstoredTransfers = await rows<{ id: string }>(
    pool,
    `SELECT a.id FROM unnest($1::text[]) AS a(id) LEFT JOIN transfers.transfers t ON t.id::text = a.id WHERE t.id IS NULL`,
    [answered.map((t) => t.transferId)],
  );
  const settled = answered.filter((t) => t.outcome !== undefined);
  const outcomesNotStored = await rows<{ id: string }>(
    pool,
    `SELECT a.id FROM unnest($1::text[], $2::text[]) AS a(id, status) JOIN transfers.transfers t ON t.id::text = a.id
      WHERE t.status IS DISTINCT FROM a.status`,
    [settled.map((t) => t.transferId), settled.map((t) => t.outcome!.status)],
  );
  const chargedTwice = await rows<{ id: string }>(
    pool,
    `SELECT transfer_id::text AS id FROM transfers.ledger_entries WHERE kind = 'charge' GROUP BY transfer_id HAVING count(*) > 1`,
  );
  const ledgerMismatches = await rows<{ id: string }>(
    pool,
    `SELECT agent_id AS id FROM (
       SELECT a.user_id::text AS agent_id, a.balance,
              COALESCE((SELECT sum(transfers) FROM transfers.ledger_entries e WHERE e.agent_id = a.user_id), 0)::int AS entries,
              COALESCE((SELECT sum(remaining) FROM transfers.credit_lots l WHERE l.agent_id = a.user_id), 0)::int AS lots
       FROM transfers.agents a) x
     WHERE balance <> entries OR balance <> lots`,
  );
  const completedTwice = await outboxTwice('transfers', 'transfer.completed', 'transferId');
  const [{ routed, charged } = { routed: 0, charged: 0 }] = await rows<{ routed: number; charged: number }>(
    pool,
    `SELECT count(*)::int AS routed, count(*) FILTER (WHERE status = 'charged')::int AS charged FROM transfers.transfers`,
  );

  // E-mails, tied to sign-ups and orders by what the log and the .eml files hold. 'sending': the
  // worker claimed the e-mail and stopped (killed, or its database went away) before recording
  // the send; it is never sent again, and an alert says its outcome is unknown (docs/adr/0041).
  // The run's file transport leaves the truth on disk: such an e-mail went out when its .eml,
  // named with its command id, is in the run's mail folder, and is missing when it is not.
  const logged = await rows<LoggedEmail & { state: string }>(
    pool,
    `SELECT command_id::text AS "commandId", recipient, subject, location, state FROM notifications.email_log WHERE state IN ('sent', 'sending')`,
  );
  const mailFiles = await readdir(client.mailDir).catch(() => [] as string[]);
  const emails = logged.flatMap(({ state, ...email }): LoggedEmail[] => {
    if (state === 'sent') return [email];
    const file = mailFiles.find((name) => name.includes(email.commandId) && name.endsWith('.eml'));
    return file ? [{ ...email, location: path.join(client.mailDir, file) }] : [];
  });
  const expected = new Map<string, number>();
  for (const { email } of signUps) expected.set(email, EXPECTED_EMAILS.signUp);
  for (const { id } of paidPackages) expected.set(id, EXPECTED_EMAILS.packagePaid);
  for (const { id } of paidLeadOrders) expected.set(id, EXPECTED_EMAILS.leadPaid);
  const tally = await tallyEmails(emails, new Set(expected.keys()));
  const short: string[] = [];
  for (const [marker, want] of expected) {
    const have = tally.count.get(marker) ?? 0;
    for (let i = have; i < want; i += 1) short.push(marker);
  }
  const doubledEmails = [...tally.doubled].flatMap(([marker, extra]) => Array.from({ length: extra }, () => marker));

  return {
    unpublished,
    missing: [
      finding('paid lead orders whose leads were not sold', unsold.map((r) => r.id)),
      finding('e-mails missing (sign-ups and paid orders)', short),
      finding('vendor calls answered 200 but not stored', unstoredCalls.map((r) => r.id)),
      finding('vendor call-backs that never became an opportunity', callsWithoutOpportunity.map((r) => r.id)),
      finding('live transfers answered routed but not stored', unstoredTransfers.map((r) => r.id)),
      finding('transfer outcomes answered but stored with another status', outcomesNotStored.map((r) => r.id)),
    ],
    doubled: [
      finding('leads sold twice', soldTwice.map((r) => r.id)),
      finding('leads sold under another order than the one that holds them', soldElsewhere.map((r) => r.id)),
      finding('payments recorded twice (payment.succeeded per order)', paymentTwice.map((r) => r.id)),
      finding('sales recorded twice (leads.purchased per order)', purchasedTwice.map((r) => r.id)),
      finding('e-mails sent twice (same recipient and subject for one sign-up or order)', doubledEmails),
      finding('vendor calls received twice (callback.received per call)', callReceivedTwice.map((r) => r.id)),
      finding('vendor calls whose retry was stored as another call', client.repeatMismatches),
      finding('transfers charged twice (charge ledger rows per transfer)', chargedTwice.map((r) => r.id)),
      finding('transfer ledgers not equal to their rows (balance vs ledger entries vs lots)', ledgerMismatches.map((r) => r.id)),
      finding('transfers completed twice (transfer.completed per transfer)', completedTwice.map((r) => r.id)),
      finding('transfer routes or outcomes whose repeat was answered differently', client.transferRepeatMismatches),
    ],
    totals: {
      signUps: signUps.length,
      packageOrdersPaid: paidPackages.length,
      leadOrdersPaid: paidLeadOrders.length,
      leadsSold: sold,
      emails: emails.length,
      emailsUnattributed: tally.unattributed,
      outboxRows,
      vendorCalls: calls,
      callbackOpportunities: opportunities,
      transfersRouted: routed,
      transfersCharged: charged,
    },
  };
}

/**
 * Waits for the outboxes to drain and every effect to arrive (or the ceiling), then checks
 * once more a little later, so an effect that arrives twice after the first look is seen.
 */
export async function drainAndCheck(
  pool: pg.Pool,
  schemas: string[],
  client: ClientView,
  ceilingMs: number,
  say: (line: string) => void,
): Promise<{ integrity: Integrity; drainedAfterMs: number | null }> {
  const started = Date.now();
  let lastReport = 0;
  for (;;) {
    const integrity = await checkIntegrity(pool, schemas, client);
    const lost = lostCount(integrity);
    if (lost === 0) {
      const drainedAfterMs = Date.now() - started;
      await sleep(3000);
      return { integrity: await checkIntegrity(pool, schemas, client), drainedAfterMs };
    }
    if (Date.now() - started > ceilingMs) return { integrity, drainedAfterMs: null };
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      say(`draining: ${lost} outbox rows or effects still outstanding`);
    }
    await sleep(1000);
  }
}
