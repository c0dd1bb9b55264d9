import {
  currentDncRegistryStatement,
  currentSuppressionStatement,
  dncRegistryStatement,
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidencePrice,
  suppressionCheckStatement,
  type EvidencePack,
} from '@warmline/contracts';
import { notFound } from '@warmline/platform/errors';
import { registryChecksOf } from '../db/read-models/registry-checks';
import { deliveredCallbackEvidence, soldLeadEvidence } from '../db/evidence';
import { findSuppression } from '../db/suppressions';
import type { CallbackContext } from '../../callbacks/domain/callbacks';

/**
 * The consent evidence pack of a sold lead and of a delivered call-back (issue 24 §4,
 * docs/adr/0035): what WarmLine can prove about it, from the catalog's own records. `holder`
 * is the agent asking (only their own; anything else is 404), null for an admin (any sale).
 */

export async function leadEvidencePack(ctx: CallbackContext, id: string, holder: string | null, correlationId: string): Promise<EvidencePack> {
  const lead = await soldLeadEvidence(ctx.pool, id, holder);
  if (!lead) throw notFound(EVIDENCE_NOT_FOUND_MESSAGE.lead);
  const soldAt = lead.soldAt.toISOString();
  const text = consentTextOf(lead.consent);
  const held = lead.consentCertificate !== null || lead.consentTime !== null || lead.consentIp !== null || Object.keys(lead.consent).length > 0;
  return {
    kind: 'lead',
    id: lead.id,
    generatedAt: ctx.clock().toISOString(),
    prospect: { name: lead.name, phone: lead.phone, state: lead.state, email: lead.email },
    consent: {
      held,
      statement: held
        ? `The consent record the lead source (${lead.source}) sent with the lead, kept unchanged since it was imported.`
        : `The lead source (${lead.source}) sent no consent record with this lead.`,
      certificate: lead.consentCertificate,
      consentedAt: lead.consentTime?.toISOString() ?? null,
      ip: lead.consentIp,
      source: lead.source,
      text,
      raw: Object.keys(lead.consent).length > 0 ? lead.consent : null,
    },
    checksAtSale: checksAt(soldAt, lead.dncRegistryCheckedOn, lead.dncRegistryMatch),
    sale: {
      orderId: lead.orderId,
      priceCents: lead.priceCents,
      price: evidencePrice(lead.priceCents),
      soldAt,
      buyer: { userId: lead.buyerUserId, name: await buyerName(ctx, lead.buyerUserId, correlationId) },
      description: `Bought in the aged-lead market, aged ${lead.ageRange} days at the sale, paid by card in order ${lead.orderId}.`,
    },
    vendorCall: null,
    currentSuppression: await currentSuppression(ctx, lead.phone),
    currentDncRegistry: await currentDncRegistry(ctx, lead.phone),
  };
}

export async function callbackEvidencePack(ctx: CallbackContext, id: string, holder: string | null, correlationId: string): Promise<EvidencePack> {
  const callback = await deliveredCallbackEvidence(ctx.pool, id, holder);
  if (!callback) throw notFound(EVIDENCE_NOT_FOUND_MESSAGE.callback);
  const deliveredAt = callback.assignedAt.toISOString();
  const fromVendor = callback.source === 'vendor';
  return {
    kind: 'callback',
    id: callback.id,
    generatedAt: ctx.clock().toISOString(),
    prospect: { name: `${callback.firstName} ${callback.lastName}`, phone: callback.phone, state: callback.state, email: null },
    consent: {
      held: fromVendor && callback.transcript !== null,
      statement: fromVendor
        ? `The prospect asked to be called back on the vendor's call (${callback.vendorName ?? 'the voice-AI vendor'}); its transcript is the vendor's call record below. WarmLine holds no separate consent certificate; the vendor keeps the call's recording.`
        : `Added by a WarmLine admin (${callback.source === 'csv' ? 'a CSV upload' : 'the manual form'}); WarmLine holds no consent record for it.`,
      certificate: null,
      consentedAt: fromVendor ? callback.createdAt.toISOString() : null,
      ip: null,
      source: fromVendor ? (callback.vendorName ?? 'vendor') : callback.source,
      text: null,
      raw: null,
    },
    checksAtSale: checksAt(deliveredAt, callback.dncRegistryCheckedOn, callback.dncRegistryMatch),
    sale: {
      // Call-backs are delivered from a prepaid balance: no one order paid for this one.
      orderId: null,
      priceCents: callback.priceCents,
      price: evidencePrice(callback.priceCents),
      soldAt: deliveredAt,
      buyer: { userId: callback.assignedUserId, name: await buyerName(ctx, callback.assignedUserId, correlationId) },
      description: `Delivered ${callback.assignedBy === 'admin' ? 'by an admin' : 'automatically'} from the agent's prepaid Call-Backs balance; no single order paid for this call-back.`,
    },
    vendorCall: {
      vendorName: callback.vendorName,
      callTime: callback.createdAt.toISOString(),
      durationSeconds: null,
      transcript: callback.transcript,
      recordingUrl: null,
      outcome: callback.callOutcome,
      callbackTime: callback.callbackTime?.toISOString() ?? null,
    },
    currentSuppression: await currentSuppression(ctx, callback.phone),
    currentDncRegistry: await currentDncRegistry(ctx, callback.phone),
  };
}

function checksAt(checkedAt: string, registryDate: string | null, match: boolean | null): EvidencePack['checksAtSale'] {
  return {
    suppressionList: { checkedAt, onList: false, statement: suppressionCheckStatement(checkedAt) },
    dncRegistry: { checked: registryDate !== null && match !== null, registryDate, match, statement: dncRegistryStatement(registryDate, match) },
  };
}

async function currentSuppression(ctx: CallbackContext, phone: string): Promise<EvidencePack['currentSuppression']> {
  const suppression = await findSuppression(ctx.pool, phone);
  const since = suppression?.createdAt.toISOString() ?? null;
  return { suppressed: since !== null, since, statement: currentSuppressionStatement(since) };
}

/** The registry's answer at download: what changed since the sale shows beside the check at sale. */
async function currentDncRegistry(ctx: CallbackContext, phone: string): Promise<EvidencePack['currentDncRegistry']> {
  const check = (await registryChecksOf(ctx.pool, [phone])).get(phone) ?? { checkedOn: null, onRegistry: false };
  return { registryDate: check.checkedOn, match: check.onRegistry, statement: currentDncRegistryStatement(check.checkedOn, check.onRegistry) };
}

/** The buyer's name as the gateway knows it; the pack is still given (with the user id) when it cannot say. */
async function buyerName(ctx: CallbackContext, userId: string, correlationId: string): Promise<string | null> {
  try {
    const contact = await ctx.gateway.userContact(userId, correlationId);
    const name = contact ? `${contact.firstName} ${contact.lastName ?? ''}`.trim() : '';
    return name === '' ? null : name;
  } catch (err) {
    ctx.log.warn({ err, userId }, "the gateway did not say the buyer's name; the evidence pack names the buyer by user id");
    return null;
  }
}

/** Keys under which lead sources send the consent language they showed. */
const CONSENT_TEXT_KEYS = ['text', 'consentText', 'consent_text', 'language', 'consentLanguage', 'disclosure', 'tcpaText', 'tcpa_text'];

function consentTextOf(consent: Record<string, unknown>): string | null {
  for (const key of CONSENT_TEXT_KEYS) {
    const value = consent[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}
