import { z } from 'zod';
import { adminNote } from './admin-orders';

/**
 * The partner network (issue 14; spec §2 /affnetwork and Admin → Partner Apps, §3, §4, §5, §7,
 * §9): the application form's rules and messages, its documents, and what the partners service
 * answers. The SPA and the service use the same schema.
 */

export const PARTNER_BUSINESS_TYPES = ['Lead Generation', 'Marketing Agency', 'Call Center', 'Insurance Agency', 'Other'] as const;
export const PARTNER_EXPERIENCE_YEARS = ['Less than 1 year', '1-3 years', '3-5 years', '5+ years'] as const;
export const PARTNER_MONTHLY_VOLUMES = ['Less than 100', '100-500', '500-1000', '1000-5000', '5000+'] as const;
export const PARTNER_SERVICES = [
  'Lead Generation',
  'Call Transfers',
  'Aged Leads',
  'Callback Services',
  'Data Management',
  'CRM Integration',
  'Custom Solutions',
] as const;

/** Spec §4: pending by default; an admin may set any. */
export const PARTNER_APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type PartnerApplicationStatus = (typeof PARTNER_APPLICATION_STATUSES)[number];

/** Spec §9: documents up to 10 MB each; at most 5 per application (issue 14). */
export const PARTNER_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const PARTNER_DOCUMENT_MAX_FILES = 5;
/** The document kinds accepted, by extension, and the type each is detected as (by its bytes). */
export const PARTNER_DOCUMENT_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
} as const;
/** The multipart body's largest size: five full documents and the form's text. */
export const PARTNER_APPLICATION_MAX_BYTES = PARTNER_DOCUMENT_MAX_FILES * PARTNER_DOCUMENT_MAX_BYTES + 256 * 1024;

/** Spec §9 and issue 14: the promise and the per-address limit. */
export const PARTNER_REVIEW_HOURS = 48;
export const PARTNER_APPLICATIONS_PER_HOUR = 5;
export const PARTNER_RATE_LIMIT_MESSAGE = 'Too many applications from this address; try again later';
export const PARTNER_SUBMIT_FAILED_MESSAGE = 'Failed to submit application';
export const PARTNER_SUBMITTED_MESSAGE = `Application submitted! We'll review it within ${PARTNER_REVIEW_HOURS} hours.`;

const LONG_TEXT_MESSAGE = 'Please provide at least 50 characters';
const PHONE_MESSAGE = 'Phone number must be at least 10 digits';

const requiredText = (message: string, max: number, label: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `${label} must be at most ${max} characters`);

const longText = (label: string) =>
  z
    .string({ error: LONG_TEXT_MESSAGE })
    .trim()
    .min(50, LONG_TEXT_MESSAGE)
    .max(5000, `${label} must be at most 5000 characters`);

/** http(s) with a host that has a dot: 'example.com' alone is read as https://example.com. */
const website = z
  .string({ error: 'Please enter a valid website URL' })
  .trim()
  .max(500, 'Please enter a valid website URL')
  .transform((v) => (/^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `https://${v}`))
  .pipe(
    z.url({ error: 'Please enter a valid website URL', protocol: /^https?$/, hostname: /^[^.\s]+(\.[^.\s]+)+$/ }),
  );

/** The form's fields (spec §5) as the SPA holds them. */
export const partnerApplicationSchema = z.object({
  businessName: requiredText('Business name is required', 200, 'Business name'),
  contactName: requiredText('Contact name is required', 200, 'Contact name'),
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .max(254, 'Invalid email address')
    .pipe(z.email('Invalid email address')),
  phone: z
    .string({ error: PHONE_MESSAGE })
    .trim()
    .max(30, 'Phone number must be at most 30 characters')
    .refine((v) => v.replace(/\D/g, '').length >= 10, PHONE_MESSAGE),
  website,
  businessType: z.enum(PARTNER_BUSINESS_TYPES, { error: 'Please select a business type' }),
  experienceYears: z.enum(PARTNER_EXPERIENCE_YEARS, { error: 'Please select your years of experience' }),
  monthlyVolume: z.enum(PARTNER_MONTHLY_VOLUMES, { error: 'Please select your monthly volume' }),
  servicesInterested: z
    .array(z.enum(PARTNER_SERVICES, { error: 'Please select at least one service' }), { error: 'Please select at least one service' })
    .min(1, 'Please select at least one service')
    .max(PARTNER_SERVICES.length)
    .transform((services) => [...new Set(services)]),
  targetMarkets: requiredText('Target markets are required', 1000, 'Target markets'),
  businessDescription: longText('Business description'),
  whyPartner: longText('Why partner'),
  agreeToTerms: z.literal(true, { error: 'You must agree to the terms and conditions' }),
});
export type PartnerApplication = z.output<typeof partnerApplicationSchema>;

/**
 * The same form as multipart text fields (spec §7: `servicesInterested` as JSON text,
 * `agreeToTerms` as 'true'): turned into the form's values, then checked by the same schema.
 */
export const partnerApplicationFormFields = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null) return raw;
  const fields = { ...(raw as Record<string, unknown>) };
  if (typeof fields.servicesInterested === 'string') {
    try {
      fields.servicesInterested = JSON.parse(fields.servicesInterested);
    } catch {
      fields.servicesInterested = undefined;
    }
  }
  if (typeof fields.agreeToTerms === 'string') fields.agreeToTerms = fields.agreeToTerms === 'true' || fields.agreeToTerms === 'on';
  return fields;
}, partnerApplicationSchema);

/** One document of an application, as the admin sees it. */
export interface PartnerDocument {
  /** The stored name (what the download path takes), e.g. 'doc-1.pdf'. */
  filename: string;
  /** The name it was sent with. */
  originalName: string;
  size: number;
  /** Detected from its bytes. */
  contentType: string;
  /** `/api/affnetwork-signups/{id}/documents/{filename}` (admins only). */
  url: string;
}

/** `GET /api/affnetwork-signups`: spec §3's list fields, then the rest of the form's answers. */
export interface PartnerApplicationView {
  id: string;
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  website: string;
  /** The form's years of experience. */
  experience: string;
  /** The form's monthly volume. */
  leadsPerMonth: string;
  /** The form does not ask it. */
  monthlyBudget: null;
  status: PartnerApplicationStatus;
  documents: PartnerDocument[];
  businessType: string;
  servicesInterested: string[];
  targetMarkets: string;
  businessDescription: string;
  whyPartner: string;
  createdAt: string;
  updatedAt: string;
}

/** `POST /api/affnetwork-signup` answers 201 with this. */
export interface PartnerApplicationCreated {
  message: string;
  id: string;
}

/** `GET /api/affnetwork-signups?status=&page=`: an array, 50 a page, the total in X-Total-Count. */
export const PARTNER_APPLICATION_PAGE_SIZE = 50;
export const partnerApplicationListQuery = z.object({
  status: z.enum(PARTNER_APPLICATION_STATUSES, { error: 'Status must be pending, approved or rejected' }).optional(),
  page: z
    .string()
    .max(6, 'Page must be a whole number of 1 or more')
    .regex(/^\d{1,6}$/, 'Page must be a whole number of 1 or more')
    .transform(Number)
    .refine((n) => n >= 1, 'Page must be a whole number of 1 or more')
    .optional()
    .default(1),
});

/** `PATCH /api/affnetwork-signups/{id}/status`. */
export const partnerStatusBody = z.object({
  status: z.enum(PARTNER_APPLICATION_STATUSES, { error: 'Status must be pending, approved or rejected' }),
  /** The admin's note to the applicant, quoted in the decision e-mail and kept in the audit log (issue 22). */
  note: adminNote,
});
