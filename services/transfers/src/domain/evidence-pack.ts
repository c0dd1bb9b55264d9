import {
  currentDncRegistryStatement,
  currentSuppressionStatement,
  dncRegistryStatement,
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidencePrice,
  suppressionCheckStatement,
  TRANSFER_STATUS_LABELS,
  type EvidencePack,
} from '@warmline/contracts';
import { notFound } from '@warmline/platform/errors';
import type { Identity } from '@warmline/platform/identity';
import { transferEvidence } from '../db/evidence';
import type { TransfersContext } from './context';

/**
 * The consent evidence pack of a routed transfer (issue 24 §4, docs/adr/0035). WarmLine holds
 * what the vendor sent: its routing request (the prospect, no consent record) and its outcome
 * (times, duration, transcript, recording link); the prospect's consent to the vendor's call is
 * the vendor's to keep, and the pack says so. `holder` is the agent asking (only their own),
 * null for an admin (any transfer); `asking` signs the question to the catalog about the registry.
 */
export async function transferEvidencePack(
  ctx: TransfersContext,
  id: string,
  who: { holder: string | null; asking: Identity },
  correlationId: string,
): Promise<EvidencePack> {
  const t = await transferEvidence(ctx.pool, id, who.holder);
  if (!t) throw notFound(EVIDENCE_NOT_FOUND_MESSAGE.transfer);
  const routedAt = t.routedAt.toISOString();
  const vendor = t.vendorName ?? 'the voice-AI vendor';
  const since = t.suppressedSince?.toISOString() ?? null;
  const charged = t.chargedCents !== null && t.status !== 'routed' && t.status !== 'not_connected' && t.status !== 'buffer_protected';
  return {
    kind: 'transfer',
    id: t.id,
    generatedAt: ctx.clock().toISOString(),
    prospect: { name: `${t.firstName} ${t.lastName}`, phone: t.phone, state: t.state, email: null },
    consent: {
      held: false,
      statement: `The prospect was on a live call with ${vendor}, who transferred them to the agent. The vendor's routing request carries no consent record: WarmLine holds the vendor's call record below (transcript and recording link where the vendor sent them); the consent to the vendor's call is kept by the vendor.`,
      certificate: null,
      consentedAt: null,
      ip: null,
      source: t.leadType ? `${vendor} (${t.leadType})` : vendor,
      text: null,
      raw: null,
    },
    checksAtSale: {
      // Routing refuses a phone on the suppression list (its copy here), so the check is the routing's time.
      suppressionList: { checkedAt: routedAt, onList: false, statement: suppressionCheckStatement(routedAt) },
      // Routing keeps no registry check of its own.
      dncRegistry: { checked: false, registryDate: null, match: null, statement: dncRegistryStatement(null, null) },
    },
    sale: {
      orderId: charged ? t.orderId : null,
      priceCents: charged ? t.chargedCents : null,
      price: charged ? evidencePrice(t.chargedCents) : null,
      soldAt: routedAt,
      buyer: { userId: t.agentId, name: t.agentName.trim() === '' ? null : t.agentName },
      description: `Routed to the agent at the vendor's request; now: ${TRANSFER_STATUS_LABELS[t.status]}.${
        charged ? ` One transfer was charged from the agent's balance${t.orderId ? `, bought in order ${t.orderId}` : ''}.` : ''
      }`,
    },
    vendorCall: {
      vendorName: t.vendorName,
      callTime: (t.answeredAt ?? t.routedAt).toISOString(),
      durationSeconds: t.durationSeconds,
      transcript: t.transcript,
      recordingUrl: t.recordingUrl,
      outcome: t.disposition ? `${TRANSFER_STATUS_LABELS[t.status]} (vendor's disposition: ${t.disposition})` : TRANSFER_STATUS_LABELS[t.status],
      callbackTime: null,
    },
    currentSuppression: { suppressed: since !== null, since, statement: currentSuppressionStatement(since) },
    currentDncRegistry: await currentDncRegistry(ctx, t.phone, who.asking, correlationId),
  };
}

/**
 * The registry's answer now, from the catalog (the registry is its own; this service keeps no
 * copy). The pack is still given when the catalog does not answer, without this line.
 */
async function currentDncRegistry(ctx: TransfersContext, phone: string, asking: Identity, correlationId: string): Promise<EvidencePack['currentDncRegistry']> {
  if (!ctx.catalog) return null;
  try {
    const check = (await ctx.catalog.registryChecks(asking, [phone], correlationId)).get(phone) ?? { checkedOn: null, onRegistry: false };
    return { registryDate: check.checkedOn, match: check.onRegistry, statement: currentDncRegistryStatement(check.checkedOn, check.onRegistry) };
  } catch (err) {
    ctx.log.warn({ err }, "the catalog did not say the registry's answer; the evidence pack goes without it");
    return null;
  }
}
