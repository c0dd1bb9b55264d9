import { z } from 'zod';
import { formatUsd } from './pricing';
import { formatUsPhone } from './us-phone';

/**
 * The consent evidence pack (issue 24 §4, docs/adr/0035): for a lead, call-back or transfer an
 * agent holds, what WarmLine can prove about it — the consent record, the do-not-call checks at
 * the moment of sale, the sale itself, the vendor's call where there was one, and whether the
 * phone has opted out since. One JSON shape for all three, and one rendering of it as a
 * lawyer-readable document (evidencePackDocument) that the services turn into a PDF.
 */

const EVIDENCE_KINDS = ['lead', 'callback', 'transfer'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

const EVIDENCE_FORMATS = ['zip', 'json', 'pdf'] as const;
export type EvidenceFormat = (typeof EVIDENCE_FORMATS)[number];

/** `GET …/{id}/evidence?format=zip|json|pdf` (zip, or JSON for an Accept: application/json client, when absent). */
export const evidencePackQuery = z.object({
  format: z.enum(EVIDENCE_FORMATS, { error: `format must be one of ${EVIDENCE_FORMATS.join(', ')}` }).optional(),
});

/** The 404 of a pack the caller may not have (another agent's) or that does not exist. */
export const EVIDENCE_NOT_FOUND_MESSAGE = {
  lead: 'Lead not found',
  callback: 'Call-back not found',
  transfer: 'Transfer not found',
} as const satisfies Record<EvidenceKind, string>;

const isoTime = z.string().max(40);

export const evidencePackSchema = z.object({
  kind: z.enum(EVIDENCE_KINDS),
  /** The lead's, call-back's or transfer's id. */
  id: z.uuid(),
  generatedAt: isoTime,
  prospect: z.object({
    name: z.string(),
    /** Ten digits. */
    phone: z.string(),
    state: z.string().nullable(),
    email: z.string().nullable(),
  }),
  consent: z.object({
    /** Whether WarmLine holds a consent record of its own for this prospect. */
    held: z.boolean(),
    /** What WarmLine holds, in words (where the consent is when WarmLine does not hold it). */
    statement: z.string(),
    certificate: z.string().nullable(),
    consentedAt: isoTime.nullable(),
    ip: z.string().nullable(),
    /** Where the prospect came from (the lead source, the vendor). */
    source: z.string().nullable(),
    /** The consent language the prospect agreed to, where the source sent it. */
    text: z.string().nullable(),
    /** The consent record exactly as the source sent it, where it sent one. */
    raw: z.record(z.string(), z.unknown()).nullable(),
  }),
  /** The do-not-call checks the sale passed, at the moment of sale (delivery, routing). */
  checksAtSale: z.object({
    suppressionList: z.object({ checkedAt: isoTime, onList: z.literal(false), statement: z.string() }),
    dncRegistry: z.object({
      checked: z.boolean(),
      /** The date of the registry upload checked against ('YYYY-MM-DD'), null when not checked. */
      registryDate: z.string().nullable(),
      match: z.boolean().nullable(),
      statement: z.string(),
    }),
  }),
  sale: z.object({
    /** The paid order, where one order paid for exactly this (leads, transfers' lots). */
    orderId: z.uuid().nullable(),
    priceCents: z.number().int().nullable(),
    price: z.string().nullable(),
    soldAt: isoTime,
    buyer: z.object({ userId: z.uuid(), name: z.string().nullable() }),
    /** How it was sold, in words. */
    description: z.string(),
  }),
  /** The vendor's call (call-backs and transfers); null for a lead. */
  vendorCall: z
    .object({
      vendorName: z.string().nullable(),
      callTime: isoTime.nullable(),
      durationSeconds: z.number().int().nullable(),
      transcript: z.string().nullable(),
      recordingUrl: z.string().nullable(),
      outcome: z.string().nullable(),
      /** When the prospect asked to be called back (call-backs). */
      callbackTime: isoTime.nullable(),
    })
    .nullable(),
  /** The phone on the suppression list now, at download time. */
  currentSuppression: z.object({ suppressed: z.boolean(), since: isoTime.nullable(), statement: z.string() }),
  /** The national DNC registry's answer now, where the service that answers for the pack keeps the registry (leads, call-backs); null otherwise. */
  currentDncRegistry: z.object({ registryDate: z.string().nullable(), match: z.boolean(), statement: z.string() }).nullable(),
});
export type EvidencePack = z.infer<typeof evidencePackSchema>;

/** The format to answer: the query's, else JSON for a client that asks for JSON only, else the zip. */
function evidenceFormatOf(format: EvidenceFormat | undefined, accept: string | undefined): EvidenceFormat {
  if (format) return format;
  const types = (accept ?? '').toLowerCase();
  if (types.includes('application/json') && !types.includes('application/zip') && !types.includes('application/pdf')) return 'json';
  return 'zip';
}

/** `evidence-lead-<id>` (the download's name without its extension). */
function evidencePackFileBase(kind: EvidenceKind, id: string): string {
  return `evidence-${kind}-${id}`;
}

/**
 * What one evidence pack download sends, in the format asked for (`format` from the query, else
 * the Accept rule): the shape platform's sendDocumentDownload takes. One place for both services.
 */
export function evidencePackDownload(pack: EvidencePack, format: EvidenceFormat | undefined, accept: string | undefined) {
  return {
    format: evidenceFormatOf(format, accept),
    fileBase: evidencePackFileBase(pack.kind, pack.id),
    entryBase: 'evidence',
    json: pack,
    document: evidencePackDocument(pack),
    modified: new Date(pack.generatedAt),
  };
}

/* ------------------------------------------------------------------ the document -------- */

/** A document of titled sections of labelled lines: what the platform's PDF writer draws. */
export interface EvidenceDocument {
  title: string;
  subtitle: string;
  sections: Array<{ heading: string; lines: Array<{ label: string; value: string }> }>;
  footer: string;
}

const KIND_WORDS: Record<EvidenceKind, string> = { lead: 'aged lead', callback: 'call-back', transfer: 'live transfer' };

/** '2026-11-27 19:10:21 UTC': one unambiguous zone for a document read anywhere. */
function evidenceTime(iso: string | null): string {
  if (!iso) return 'not recorded';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const orNone = (value: string | null | undefined, none = 'not recorded') => (value === null || value === undefined || value === '' ? none : value);

/** The pack as a lawyer reads it: every section with labelled lines, in the JSON's order. */
function evidencePackDocument(pack: EvidencePack): EvidenceDocument {
  const { consent, checksAtSale, sale, vendorCall, currentSuppression, prospect } = pack;
  const sections: EvidenceDocument['sections'] = [
    {
      heading: 'Prospect',
      lines: [
        { label: 'Name', value: prospect.name },
        { label: 'Phone', value: formatUsPhone(prospect.phone) },
        { label: 'State', value: orNone(prospect.state) },
        { label: 'E-mail', value: orNone(prospect.email) },
      ],
    },
    {
      heading: 'Consent record',
      lines: [
        { label: 'What WarmLine holds', value: consent.statement },
        { label: 'Certificate', value: orNone(consent.certificate) },
        { label: 'Consented at', value: evidenceTime(consent.consentedAt) },
        { label: 'IP address', value: orNone(consent.ip) },
        { label: 'Source', value: orNone(consent.source) },
        { label: 'Consent text', value: orNone(consent.text) },
        ...(consent.raw && Object.keys(consent.raw).length > 0 ? [{ label: 'Record as sent', value: JSON.stringify(consent.raw, null, 1) }] : []),
      ],
    },
    {
      heading: 'Do-not-call checks at the moment of sale',
      lines: [
        { label: 'Suppression list', value: checksAtSale.suppressionList.statement },
        { label: 'DNC registry', value: checksAtSale.dncRegistry.statement },
      ],
    },
    {
      heading: 'Sale record',
      lines: [
        { label: 'Sold at', value: evidenceTime(sale.soldAt) },
        { label: 'Order', value: orNone(sale.orderId, 'none (see below)') },
        { label: 'Price', value: orNone(sale.price, 'not charged') },
        { label: 'Buyer', value: sale.buyer.name ? `${sale.buyer.name} (user ${sale.buyer.userId})` : `user ${sale.buyer.userId}` },
        { label: 'How it was sold', value: sale.description },
      ],
    },
  ];
  if (vendorCall) {
    sections.push({
      heading: "The vendor's call record",
      lines: [
        { label: 'Vendor', value: orNone(vendorCall.vendorName) },
        { label: 'Call time', value: evidenceTime(vendorCall.callTime) },
        { label: 'Duration', value: vendorCall.durationSeconds === null ? 'not recorded' : `${vendorCall.durationSeconds} seconds` },
        { label: 'Outcome', value: orNone(vendorCall.outcome) },
        ...(vendorCall.callbackTime !== null ? [{ label: 'Call back at', value: evidenceTime(vendorCall.callbackTime) }] : []),
        { label: 'Recording', value: orNone(vendorCall.recordingUrl) },
        { label: 'Transcript', value: orNone(vendorCall.transcript) },
      ],
    });
  }
  sections.push({
    heading: 'Suppression status at download',
    lines: [
      { label: 'Now', value: currentSuppression.statement },
      ...(pack.currentDncRegistry ? [{ label: 'DNC registry now', value: pack.currentDncRegistry.statement }] : []),
    ],
  });
  return {
    title: 'WarmLine consent evidence pack',
    subtitle: `${KIND_WORDS[pack.kind]} ${pack.id}: ${prospect.name}, ${formatUsPhone(prospect.phone)}`,
    sections,
    footer: `Generated ${evidenceTime(pack.generatedAt)} by WarmLine from its records`,
  };
}

/* ------------------------------------------------------------------ statements ---------- */

/** The words of the checks and the current status, the same in every service's pack. */
export function suppressionCheckStatement(checkedAt: string): string {
  return `Checked at ${evidenceTime(checkedAt)}: the phone was not on WarmLine's suppression list (a phone on it is never sold).`;
}

export function dncRegistryStatement(registryDate: string | null, match: boolean | null): string {
  if (registryDate === null || match === null) return 'Not checked: no national DNC registry upload covered this area code at the moment of sale.';
  return match
    ? `On the national DNC registry as of its upload of ${registryDate}.`
    : `Not on the national DNC registry as of its upload of ${registryDate}.`;
}

export function currentSuppressionStatement(since: string | null): string {
  return since ? `Opted out since ${evidenceTime(since)}: do not call.` : 'Not on the suppression list at the time this pack was generated.';
}

export function currentDncRegistryStatement(registryDate: string | null, match: boolean): string {
  if (registryDate === null) return 'No national DNC registry upload covers this area code now.';
  return match ? `On the national DNC registry as of its newest upload, of ${registryDate}.` : `Not on the national DNC registry as of its newest upload, of ${registryDate}.`;
}

/** '$2.50', or null when nothing was charged. */
export function evidencePrice(cents: number | null): string | null {
  return cents === null ? null : formatUsd(cents);
}
