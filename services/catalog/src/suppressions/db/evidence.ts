import type { Queryable } from '@warmline/platform/db/index';

/**
 * What the consent evidence pack (issue 24 §4) reads of a sold lead and a delivered call-back:
 * the consent record, the sale and the checks kept with it. `buyerUserId` binds a query to
 * the agent asking (My Leads, My Call-backs); an admin's query gives none and reads any sale.
 */

export interface SoldLeadEvidenceRow {
  id: string;
  name: string;
  phone: string;
  email: string | null;
  state: string;
  source: string;
  consent: Record<string, unknown>;
  consentCertificate: string | null;
  consentTime: Date | null;
  consentIp: string | null;
  buyerUserId: string;
  orderId: string;
  soldAt: Date;
  priceCents: number;
  ageRange: string;
  /** The DNC registry check at sale ('YYYY-MM-DD'); null: not checked. */
  dncRegistryCheckedOn: string | null;
  dncRegistryMatch: boolean | null;
}

export async function soldLeadEvidence(db: Queryable, id: string, buyerUserId: string | null): Promise<SoldLeadEvidenceRow | null> {
  const { rows } = await db.query<SoldLeadEvidenceRow>(
    // host(): the address alone, without the /32 or /128 an inet's text would carry.
    `SELECT id, name, phone, email, state, source, consent, consent_certificate AS "consentCertificate",
            consent_time AS "consentTime", host(consent_ip) AS "consentIp", sold_to_user_id AS "buyerUserId",
            sold_order_id AS "orderId", sold_at AS "soldAt", sold_price_cents AS "priceCents", sold_age_range AS "ageRange",
            to_char(dnc_registry_checked_on, 'YYYY-MM-DD') AS "dncRegistryCheckedOn", dnc_registry_match AS "dncRegistryMatch"
       FROM aged_leads
      WHERE id = $1 AND sold_at IS NOT NULL AND ($2::uuid IS NULL OR sold_to_user_id = $2::uuid)`,
    [id, buyerUserId],
  );
  return rows[0] ?? null;
}

export interface DeliveredCallbackEvidenceRow {
  id: string;
  source: 'vendor' | 'csv' | 'manual';
  vendorName: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  state: string | null;
  priceCents: number;
  transcript: string | null;
  callbackTime: Date | null;
  callOutcome: string | null;
  createdAt: Date;
  assignedUserId: string;
  assignedAt: Date;
  assignedBy: 'automatic' | 'admin' | null;
  dncRegistryCheckedOn: string | null;
  dncRegistryMatch: boolean | null;
}

/** A call-back delivered to an agent (assigned, whatever became of it since). */
export async function deliveredCallbackEvidence(db: Queryable, id: string, agentUserId: string | null): Promise<DeliveredCallbackEvidenceRow | null> {
  const { rows } = await db.query<DeliveredCallbackEvidenceRow>(
    `SELECT id, source, vendor_name AS "vendorName", first_name AS "firstName", last_name AS "lastName", phone, state,
            price_cents AS "priceCents", transcript, callback_time AS "callbackTime", call_outcome AS "callOutcome",
            created_at AS "createdAt", assigned_user_id AS "assignedUserId", assigned_at AS "assignedAt", assigned_by AS "assignedBy",
            to_char(dnc_registry_checked_on, 'YYYY-MM-DD') AS "dncRegistryCheckedOn", dnc_registry_match AS "dncRegistryMatch"
       FROM callback_opportunities
      WHERE id = $1 AND assigned_user_id IS NOT NULL AND assigned_at IS NOT NULL
        AND ($2::uuid IS NULL OR assigned_user_id = $2::uuid)`,
    [id, agentUserId],
  );
  return rows[0] ?? null;
}
