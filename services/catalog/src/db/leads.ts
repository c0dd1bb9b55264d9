import type { Queryable } from '@warmline/platform/db/index';

/** Queries of the `catalog` schema about the inventory itself (the pool's search_path points there). */

export interface NewAgedLead {
  id: string;
  name: string;
  /** Ten digits. */
  phone: string;
  email: string | null;
  /** Upper-case state code. */
  state: string;
  /** Five digits; absent or null when the source gave none (then no zip term finds the lead). */
  zip?: string | null;
  formFillTime: Date;
  source: string;
  /** The free-form consent record older sources send; `{}` when there is none. */
  consent: Record<string, unknown>;
  /** TrustedForm/Jornaya certificate URL or id (at most 500 characters); absent or null: none. */
  consentCertificate?: string | null;
  /** When the prospect consented; absent or null: not known. */
  consentTime?: Date | null;
  /** The IPv4 or IPv6 address the prospect consented from; absent or null: not known. */
  consentIp?: string | null;
}

/**
 * Inserts leads in one statement (unnest of column arrays): thousands per round trip, and the
 * stock trigger runs once per statement. Returns how many were inserted (an id already
 * present is skipped).
 */
export async function insertLeads(db: Queryable, leads: NewAgedLead[]): Promise<number> {
  if (leads.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO aged_leads (id, name, phone, email, state, zip, form_fill_time, source, consent,
                             consent_certificate, consent_time, consent_ip)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], $9::jsonb[],
                          $10::text[], $11::timestamptz[], $12::inet[])
     ON CONFLICT (id) DO NOTHING`,
    [
      leads.map((l) => l.id),
      leads.map((l) => l.name),
      leads.map((l) => l.phone),
      leads.map((l) => l.email),
      leads.map((l) => l.state),
      leads.map((l) => l.zip ?? null),
      leads.map((l) => l.formFillTime.toISOString()),
      leads.map((l) => l.source),
      leads.map((l) => JSON.stringify(l.consent)),
      leads.map((l) => l.consentCertificate ?? null),
      leads.map((l) => l.consentTime?.toISOString() ?? null),
      leads.map((l) => l.consentIp ?? null),
    ],
  );
  return rowCount ?? 0;
}

/** What a receipt says of a lead: its name, state and contact details (the domain decides what it shows). */
export interface LeadContact {
  name: string;
  state: string;
  /** Ten digits. */
  phone: string;
  email: string | null;
  zip: string | null;
}

export async function leadContacts(db: Queryable, ids: string[]): Promise<Map<string, LeadContact>> {
  const { rows } = await db.query<{ id: string } & LeadContact>('SELECT id, name, state, phone, email, zip FROM aged_leads WHERE id = ANY($1::uuid[])', [ids]);
  return new Map(rows.map((r) => [r.id, { name: r.name, state: r.state, phone: r.phone, email: r.email, zip: r.zip }]));
}
