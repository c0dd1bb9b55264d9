import { z } from 'zod';

/**
 * The partner network: applications and the e-mails about them.
 * Registered, with every other context's messages, in ../messages.ts.
 */

/** A partner applied (issue 14). Thin: the application's id and business facts, no contact details. */
const partnerAppliedV1 = z.object({
  applicationId: z.uuid(),
  businessType: z.string().min(1).max(100),
  servicesInterested: z.array(z.string().max(100)).max(20),
  documentCount: z.number().int().nonnegative(),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** An admin moved a partner application (pending, approved, rejected). */
const partnerStatusChangedV1 = z.object({
  applicationId: z.uuid(),
  from: z.enum(['pending', 'approved', 'rejected']),
  to: z.enum(['pending', 'approved', 'rejected']),
  changedByUserId: z.uuid(),
  changedAt: z.iso.datetime({ offset: true }),
});

/** Thank an applicant: their partner application arrived; review within 48 hours. */
const emailPartnerApplicationReceivedV1 = z.object({
  to: z.email(),
  contactName: z.string().max(200),
  businessName: z.string().max(200),
  applicationId: z.uuid(),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** Tell the partnerships inbox about a new application: every answer and the documents' names. */
const emailPartnerApplicationNoticeV1 = z.object({
  applicationId: z.uuid(),
  answers: z.object({
    businessName: z.string().max(200),
    contactName: z.string().max(200),
    email: z.string().max(254),
    phone: z.string().max(30),
    website: z.string().max(500),
    businessType: z.string().max(100),
    experienceYears: z.string().max(100),
    monthlyVolume: z.string().max(100),
    servicesInterested: z.array(z.string().max(100)).max(20),
    targetMarkets: z.string().max(1000),
    businessDescription: z.string().max(5000),
    whyPartner: z.string().max(5000),
  }),
  documents: z.array(z.object({ originalName: z.string().max(300), size: z.number().int().nonnegative(), contentType: z.string().max(200) })).max(5),
  appliedAt: z.iso.datetime({ offset: true }),
});

/** Tell an applicant their application was approved (next steps) or rejected (a polite no). */
const emailPartnerStatusChangedV1 = z.object({
  to: z.email(),
  contactName: z.string().max(200),
  businessName: z.string().max(200),
  applicationId: z.uuid(),
  status: z.enum(['pending', 'approved', 'rejected']),
  /** The admin's note to the applicant (issue 22), quoted in the e-mail. */
  note: z.string().max(500).optional(),
  changedAt: z.iso.datetime({ offset: true }),
});

export const partnerEvents = {
  'partner.applied': { 1: partnerAppliedV1 },
  'partner.status_changed': { 1: partnerStatusChangedV1 },
} as const;

export const partnerCommands = {
  'email.partner_application_received': { 1: emailPartnerApplicationReceivedV1 },
  'email.partner_application_notice': { 1: emailPartnerApplicationNoticeV1 },
  'email.partner_status_changed': { 1: emailPartnerStatusChangedV1 },
} as const;
