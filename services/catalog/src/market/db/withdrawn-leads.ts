import type { Queryable } from '@warmline/platform/db/index';

/**
 * Taking unsold leads off sale (issue 13): an import undone, or a phone on the suppression list.
 * The leads move from aged_leads to withdrawn_leads in one statement, so the market, its
 * indexes and the stock counts (kept by aged_leads' delete trigger) lose them at once. A lead
 * held by an unpaid order goes too: if that order is paid, the lead is undelivered and refunded
 * like one sold elsewhere. Sold leads never move: they belong to their buyer.
 */

export type WithdrawalReason = 'import-undone' | 'suppressed';

export type WithdrawnLeadsOf = { importId: string } | { phone: string };

/** Withdraws the unsold leads of an import or with a phone; returns their ids. */
export async function withdrawUnsoldLeads(
  db: Queryable,
  of: WithdrawnLeadsOf,
  reason: WithdrawalReason,
  at: Date,
): Promise<string[]> {
  const [column, value] = 'importId' in of ? ['import_id', of.importId] : ['phone', of.phone];
  const { rows } = await db.query<{ id: string }>(
    `WITH gone AS (
       DELETE FROM aged_leads WHERE ${column} = $1 AND sold_at IS NULL
       RETURNING id, name, phone, email, state, zip, form_fill_time, source, consent,
                 consent_certificate, consent_time, consent_ip, import_id, created_at
     )
     INSERT INTO withdrawn_leads (id, name, phone, email, state, zip, form_fill_time, source, consent,
                                  consent_certificate, consent_time, consent_ip, import_id, created_at,
                                  withdrawn_at, withdrawn_reason)
     SELECT id, name, phone, email, state, zip, form_fill_time, source, consent,
            consent_certificate, consent_time, consent_ip, import_id, created_at, $2, $3
       FROM gone
     RETURNING id`,
    [value, at, reason],
  );
  return rows.map((r) => r.id);
}
