import { DEFAULT_CALLBACK_PRICE_CENTS } from '@warmline/contracts';
import type { Pool } from '@warmline/platform/db/index';
import { insertCallbackOpportunities, type NewCallbackOpportunity } from './callbacks/db/callback-opportunities';
import { expiryOf } from './callbacks/domain/callbacks';

/**
 * `make start`'s demo callback opportunities (issue 15): one of each source, and one waiting for
 * a state, so the admin's list is not empty. Fixed ids: seeding again adds none.
 */
const DEMO = [
  { id: '0193a5c2-0000-7000-8000-00000000c001', source: 'vendor', firstName: 'Maria', lastName: 'Lopez', phone: '5125550143', state: 'TX', callbackHours: 20, transcript: 'Agent: Are you still looking at coverage options? Prospect: Yes, but I am driving. Please call me back tomorrow after 3 pm.' },
  { id: '0193a5c2-0000-7000-8000-00000000c002', source: 'vendor', firstName: 'Dwayne', lastName: 'Harris', phone: '8005550188', state: null, callbackHours: 4, transcript: 'Agent: Would a call later today work? Prospect: Sure, call me around dinner time.' },
  { id: '0193a5c2-0000-7000-8000-00000000c003', source: 'csv', firstName: 'Evelyn', lastName: 'Park', phone: '3055550117', state: 'FL', callbackHours: null, transcript: null },
  { id: '0193a5c2-0000-7000-8000-00000000c004', source: 'manual', firstName: 'Tom', lastName: 'Becker', phone: '6145550162', state: 'OH', callbackHours: null, transcript: null },
] as const;

export async function seedDemoCallbackOpportunities(pool: Pool, now = new Date()): Promise<{ added: number }> {
  const rows = DEMO.map((d): NewCallbackOpportunity => {
    const callbackTime = d.callbackHours === null ? null : new Date(now.getTime() + d.callbackHours * 3_600_000);
    const vendor = d.source === 'vendor';
    return {
      id: d.id,
      // The vendor's call id: the opportunity's own, so the fixed id is the only key.
      callbackId: vendor ? d.id : null,
      vendorKeyId: null,
      vendorName: vendor ? 'Demo Voice AI' : null,
      source: d.source,
      firstName: d.firstName,
      lastName: d.lastName,
      phone: d.phone,
      state: d.state,
      priceCents: DEFAULT_CALLBACK_PRICE_CENTS,
      transcript: d.transcript,
      callbackTime,
      callOutcome: vendor ? 'callback_requested' : null,
      agentId: vendor ? 'demo-va-1' : null,
      leadQuality: vendor ? 'warm' : null,
      interestLevel: vendor ? 'high' : null,
      expiresAt: expiryOf(callbackTime, now),
      createdAt: now,
    };
  });
  return { added: (await insertCallbackOpportunities(pool, rows)).length };
}
