import type { AgedLeadAgeRange, LeadOrderLead } from '@warmline/contracts';
import type { LeadContact } from '../../db/leads';
import { formatPhone, maskName } from './masking';

/**
 * What a receipt (the screen and the e-mail) says of each lead of an order (issue 22). A lead
 * sold to the buyer is theirs: its full name and contact details, as My Leads shows them. A lead
 * that went to someone else before the payment arrived was never theirs to contact: masked as the
 * market showed it, without contact details.
 */

export interface ReceiptLine {
  leadId: string;
  ageRange: AgedLeadAgeRange;
  priceCents: number;
}

/** A lead the buyer now owns: name, phone, e-mail and zip in full. */
export function ownedLead(line: ReceiptLine, lead: LeadContact): LeadOrderLead {
  return {
    leadId: line.leadId,
    name: lead.name,
    phone: formatPhone(lead.phone),
    email: lead.email,
    zip: lead.zip,
    state: lead.state,
    ageRange: line.ageRange,
    priceCents: line.priceCents,
  };
}

/** A lead the buyer did not get: as the market showed it. */
export function marketLead(line: ReceiptLine, lead: Pick<LeadContact, 'name' | 'state'> | undefined): LeadOrderLead {
  return { leadId: line.leadId, name: maskName(lead?.name ?? ''), state: lead?.state ?? '', ageRange: line.ageRange, priceCents: line.priceCents };
}
