import { z } from 'zod';
import { prospectCallingHoursShape } from './calling-hours';
import { areaCodeProblem } from './area-codes';
import { dncCheckSchema } from './dnc-registry';
import { usPhoneDigits } from './us-phone';
import { US_STATE_CODES, usStateOfText } from './us-states';
import { DEFAULT_CALLBACK_PRICE_CENTS } from './pricing';

/**
 * Vendor call-backs (issue 15; spec §2 Upload Callback Opportunities and /brightcalldocs, §3
 * Callback opportunity and Webhook payload, §5, §7, §8 Webhook, §9): the vendor's webhook, the
 * vendor keys, callback opportunities and the agents' call-backs. The ingestion service, the
 * catalog, the SPA and the /brightcalldocs page all read this one file.
 */

// ---------------------------------------------------------------------------------------------
// The webhook: POST /api/callbacks/brightcall
// ---------------------------------------------------------------------------------------------

export const CALLBACK_WEBHOOK_PATH = '/api/callbacks/brightcall';
/** Vendor keys are shown once; the prefix tells a reader what the secret is. */
export const VENDOR_KEY_PREFIX = 'wlv_';
export const VENDOR_KEY_HEADER = 'X-API-Key';

/** Spec §8 Webhook. */
export const WEBHOOK_UNAUTHORIZED_MESSAGE = 'Unauthorized';
export const WEBHOOK_MISSING_FIELDS_MESSAGE = 'Missing required fields';
export const WEBHOOK_FAILED_MESSAGE = 'Failed to process callback';
export const WEBHOOK_RECEIVED_MESSAGE = 'Callback received';
export const WEBHOOK_REPEAT_MESSAGE = 'Callback already received';
/** 400 when the body is not one JSON object (malformed JSON, a form-encoded body, an array, a string). */
export const WEBHOOK_INVALID_JSON_MESSAGE = 'Invalid JSON body';
/** 409 when an Idempotency-Key comes back with a different call (Stripe's rule: a key means one request). */
export const WEBHOOK_KEY_REUSED_MESSAGE = 'Idempotency-Key already used for a different call';
/** 400 when a new call's callback_time is not later than the moment WarmLine receives it: it is refused, not stored. */
export const WEBHOOK_PAST_CALLBACK_MESSAGE = 'callback_time is in the past; the call was not stored';
/** At most this many characters, each visible ASCII. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/** Calls a vendor key may make a minute (the gateway's VENDOR_WEBHOOK_CALLS_PER_MINUTE, by default). */
export const WEBHOOK_CALLS_PER_MINUTE = 600;

/** Without a callback_time, the same vendor, phone and transcript within this window is a repeat. */
export const WEBHOOK_REPEAT_WINDOW_HOURS = 24;

/** call_outcome values (case-insensitive) that make an opportunity; absent makes one too. */
export const OPPORTUNITY_OUTCOMES = ['callback_requested', 'call_back', 'interested'] as const;
/** call_outcome values that put the phone on the suppression list instead. */
export const SUPPRESSING_OUTCOMES = ['dnc', 'do_not_call'] as const;

/** What a call becomes: an opportunity, a suppressed phone, or a stored call only. */
export type CallDisposition = 'opportunity' | 'suppress' | 'stored';

export function callDisposition(callOutcome: string | null | undefined): CallDisposition {
  if (callOutcome === null || callOutcome === undefined || callOutcome.trim() === '') return 'opportunity';
  const outcome = callOutcome.trim().toLowerCase();
  if ((OPPORTUNITY_OUTCOMES as readonly string[]).includes(outcome)) return 'opportunity';
  if ((SUPPRESSING_OUTCOMES as readonly string[]).includes(outcome)) return 'suppress';
  return 'stored';
}

/**
 * Every field of the webhook's body, as /brightcalldocs documents it and as the schema below is
 * built from it: the page cannot say something the service does not check.
 */
export const WEBHOOK_FIELDS = [
  { name: 'first_name', type: 'string', required: true, maxLength: 100, description: "The prospect's first name.", example: 'Maria' },
  { name: 'last_name', type: 'string', required: true, maxLength: 100, description: "The prospect's last name.", example: 'Lopez' },
  {
    name: 'phone_number',
    type: 'string',
    required: true,
    maxLength: 30,
    description: "The prospect's US phone number, 10 digits with the area code; punctuation and a leading +1 are allowed.",
    example: '+1 (512) 555-0143',
  },
  { name: 'transcript', type: 'string', required: true, maxLength: 20000, description: 'The transcript of the call.', example: 'Agent: … Prospect: Please call me back tomorrow after 3 pm.' },
  {
    name: 'call_outcome',
    type: 'string',
    required: false,
    maxLength: 50,
    description: `How the call ended. Absent, ${OPPORTUNITY_OUTCOMES.map((o) => `'${o}'`).join(', ')} (any case) make a callback opportunity; ${SUPPRESSING_OUTCOMES.map((o) => `'${o}'`).join(' or ')} put the phone on the do-not-call list; any other value is stored only.`,
    example: 'callback_requested',
  },
  { name: 'state', type: 'string', required: false, maxLength: 50, description: "The prospect's US state, a 2-letter code or its name; when absent it is taken from the phone's area code.", example: 'TX' },
  {
    name: 'callback_time',
    type: 'string (ISO 8601 date-time with offset)',
    required: false,
    maxLength: 40,
    description: 'When the prospect asked to be called back: later than when you send the call (a new call with a time that has passed is refused, 400).',
    example: '2026-11-26T15:00:00-06:00',
  },
  { name: 'agent_id', type: 'string', required: false, maxLength: 100, description: "Your voice agent's id, kept for reference.", example: 'va-17' },
  { name: 'lead_quality', type: 'string', required: false, maxLength: 50, description: "Your rating of the prospect, e.g. 'hot', 'warm', 'cold'.", example: 'hot' },
  { name: 'interest_level', type: 'string', required: false, maxLength: 50, description: "The prospect's interest, e.g. 'high', 'medium', 'low'.", example: 'high' },
] as const;

export type WebhookFieldName = (typeof WEBHOOK_FIELDS)[number]['name'];

/** Field checks beyond length, beside their field so a body with many problems names them all at once. */
const WEBHOOK_FIELD_CHECKS: Partial<Record<WebhookFieldName, { ok(value: string): boolean; message: string }>> = {
  phone_number: { ok: (v) => usPhoneDigits(v) !== null, message: 'phone_number must be a US phone number with 10 digits' },
  callback_time: {
    ok: (v) => z.iso.datetime({ offset: true }).safeParse(v).success,
    message: 'callback_time must be an ISO 8601 date-time, e.g. 2026-11-26T15:00:00-06:00',
  },
};

function webhookField(field: (typeof WEBHOOK_FIELDS)[number]): z.ZodType<string | undefined> {
  let text = z
    .string({ error: `${field.name} must be text` })
    .trim()
    .max(field.maxLength, `${field.name} must be at most ${field.maxLength} characters`);
  if (field.required) text = text.min(1, `${field.name} is required`);
  const check = WEBHOOK_FIELD_CHECKS[field.name];
  // An empty optional field is absent (below), so its check never sees ''.
  const checked = check ? text.refine((v) => v === '' || check.ok(v), check.message) : text;
  if (field.required) return checked as z.ZodType<string | undefined>;
  // An empty or null optional field is the same as an absent one.
  return z.preprocess((v) => (v === null || v === '' ? undefined : v), checked.optional()) as z.ZodType<string | undefined>;
}

const webhookShape = Object.fromEntries(WEBHOOK_FIELDS.map((f) => [f.name, webhookField(f)])) as Record<WebhookFieldName, z.ZodType<string | undefined>>;

/** The body a vendor posts (spec §3 Webhook payload). Unknown fields are ignored. */
export const callbackWebhookBody = z
  .object(webhookShape)
  .transform((body) => ({
    firstName: body.first_name as string,
    lastName: body.last_name as string,
    phone: usPhoneDigits(body.phone_number as string) as string,
    transcript: body.transcript as string,
    callOutcome: body.call_outcome ?? null,
    state: body.state ?? null,
    callbackTime: body.callback_time ? new Date(body.callback_time).toISOString() : null,
    agentId: body.agent_id ?? null,
    leadQuality: body.lead_quality ?? null,
    interestLevel: body.interest_level ?? null,
  }));
export type CallbackWebhookInput = z.input<typeof callbackWebhookBody>;
export type VendorCall = z.output<typeof callbackWebhookBody>;

/** 400: every field named, with what is wrong with it. */
export interface WebhookRefusal {
  success: false;
  message: typeof WEBHOOK_MISSING_FIELDS_MESSAGE | typeof WEBHOOK_PAST_CALLBACK_MESSAGE;
  fields: string[];
  errors: Array<{ field: string; message: string }>;
}

/** The webhook's 400 from a failed parse (a body that is not an object names every required field). */
export function webhookRefusal(error: z.ZodError): WebhookRefusal {
  const errors: Array<{ field: string; message: string }> = [];
  for (const issue of error.issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
    if (field === undefined) {
      for (const f of WEBHOOK_FIELDS) if (f.required) errors.push({ field: f.name, message: `${f.name} is required` });
      continue;
    }
    const message = issue.code === 'invalid_type' && issue.input === undefined ? `${field} is required` : issue.message;
    if (!errors.some((e) => e.field === field)) errors.push({ field, message });
  }
  return { success: false, message: WEBHOOK_MISSING_FIELDS_MESSAGE, fields: errors.map((e) => e.field), errors };
}

export const webhookAcceptedResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  callback_id: z.uuid(),
});
export type WebhookAccepted = z.infer<typeof webhookAcceptedResponse>;

/** 409: the Idempotency-Key named, and the call it was first used for. */
export interface WebhookKeyConflict {
  success: false;
  message: typeof WEBHOOK_KEY_REUSED_MESSAGE;
  idempotency_key: string;
  callback_id: string;
}

/** The 400 for a new call whose callback_time has passed. */
export function pastCallbackRefusal(callbackTime: string): WebhookRefusal {
  return {
    success: false,
    message: WEBHOOK_PAST_CALLBACK_MESSAGE,
    fields: ['callback_time'],
    errors: [{ field: 'callback_time', message: `callback_time ${callbackTime} is in the past; send a later time, or leave callback_time out` }],
  };
}

/** Examples of each answer, for /brightcalldocs. */
export const WEBHOOK_ANSWER_EXAMPLES = {
  200: { success: true, message: WEBHOOK_RECEIVED_MESSAGE, callback_id: '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87' },
  400: {
    success: false,
    message: WEBHOOK_MISSING_FIELDS_MESSAGE,
    fields: ['phone_number', 'transcript'],
    errors: [
      { field: 'phone_number', message: 'phone_number is required' },
      { field: 'transcript', message: 'transcript is required' },
    ],
  },
  invalidJson: { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE },
  pastCallbackTime: {
    success: false,
    message: WEBHOOK_PAST_CALLBACK_MESSAGE,
    fields: ['callback_time'],
    errors: [{ field: 'callback_time', message: 'callback_time 2026-11-20T21:00:00.000Z is in the past; send a later time, or leave callback_time out' }],
  },
  401: { success: false, message: WEBHOOK_UNAUTHORIZED_MESSAGE },
  409: {
    success: false,
    message: WEBHOOK_KEY_REUSED_MESSAGE,
    idempotency_key: 'call-8841',
    callback_id: '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87',
  },
  429: { success: false, message: 'Too many requests; slow down and retry after the Retry-After seconds' },
  500: { success: false, message: WEBHOOK_FAILED_MESSAGE },
} as const;

// ---------------------------------------------------------------------------------------------
// Vendor keys (admin)
// ---------------------------------------------------------------------------------------------

export const createVendorKeyBody = z.object({
  name: z
    .string({ error: 'Vendor name is required' })
    .trim()
    .min(1, 'Vendor name is required')
    .max(100, 'Vendor name must be at most 100 characters'),
});

export const vendorKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters (prefix and 4 more), so an admin can tell keys apart. */
  keyHint: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  createdBy: z.string().nullable(),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
  callsReceived: z.number().int().nonnegative(),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type VendorKey = z.infer<typeof vendorKeySchema>;

/** The answer of POST /api/admin/vendor-keys: the only time the key is shown. */
export const createdVendorKeySchema = z.object({ id: z.uuid(), name: z.string(), key: z.string() });
export type CreatedVendorKey = z.infer<typeof createdVendorKeySchema>;

// ---------------------------------------------------------------------------------------------
// Callback opportunities (catalog)
// ---------------------------------------------------------------------------------------------

/** suppressed (issue 22): the phone is on the suppression list; it was withdrawn, or the call that made it came in for a listed phone. */
export const CALLBACK_OPPORTUNITY_STATUSES = ['available', 'assigned', 'contacted', 'expired', 'suppressed'] as const;
export type CallbackOpportunityStatus = (typeof CALLBACK_OPPORTUNITY_STATUSES)[number];
export const CALLBACK_SOURCES = ['vendor', 'csv', 'manual'] as const;
export type CallbackSource = (typeof CALLBACK_SOURCES)[number];

/** Not assigned within this many hours after its callback time (or creation) → expired. */
export const CALLBACK_EXPIRY_HOURS = 72;
export const CALLBACK_BULK_MAX_ROWS = 5000;
export const CALLBACK_OPPORTUNITIES_PAGE_SIZE = 50;
export const DEFAULT_CALLBACK_PRICE = (DEFAULT_CALLBACK_PRICE_CENTS / 100).toFixed(2);

/** Spec §5 / §8 texts. */
export const CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE = 'All fields are required';
export const CALLBACK_STATE_MESSAGE = 'State must be a 2-letter US state code, e.g. TX';
/** An opportunity's state, on every path in (issue 22: the same rule as an aged lead's). */
export const CALLBACK_STATE_INPUT_MESSAGE = 'State must be a US state code or name, e.g. TX or Texas';
export const CALLBACK_PHONE_MESSAGE = 'Phone must be 10 digits with the area code, e.g. (512) 555-0143';
/**
 * Issue 22: the price an opportunity is recorded at, which is what the agent who receives it is
 * charged (one call-back of their paid balance). Blank or absent on any path: the default, $15.00.
 */
const CALLBACK_PRICE_MAX_CENTS = 10_000;
export const CALLBACK_PRICE_MAX = (CALLBACK_PRICE_MAX_CENTS / 100).toFixed(2);
const CALLBACK_PRICE_MESSAGE = `Price must be dollars from 0.00 to ${CALLBACK_PRICE_MAX} with at most two decimals, e.g. 15.00`;
export const CALLBACK_PRICE_MEANING = `What the agent who receives it is charged: one call-back of their balance, recorded at this price. Blank: $${DEFAULT_CALLBACK_PRICE}; at most $${CALLBACK_PRICE_MAX}.`;
/** Issue 22: a suppressed phone never becomes an opportunity, however it comes in. */
export const CALLBACK_SUPPRESSED_MESSAGE = 'Phone is on the suppression list';
/** Issue 22: a phone has at most one open opportunity. */
export const CALLBACK_DUPLICATE_OPEN_MESSAGE = 'Duplicate: this phone has an open callback opportunity already';
export const callbackDuplicateRowMessage = (row: number) => `Duplicate: same phone as row ${row}`;
/** Days within which an opportunity stays open once assigned, and an agent never receives the same phone again. */
export const CALLBACK_REPEAT_DAYS = 30;
export const CALLBACK_UPLOAD_FAILED_MESSAGE = 'Failed to upload callback opportunities';
export const CALLBACK_ADD_FAILED_MESSAGE = 'Failed to add callback opportunity';
export const CALLBACK_PARSE_FAILED_MESSAGE = 'Failed to parse CSV file';
export const CALLBACK_FILE_ERROR_MESSAGE = 'There was an error processing your file. Please check the format and try again.';

/** The upload's columns (spec §5), in the template's order. */
export const CALLBACK_CSV_COLUMNS = ['First Name', 'Last Name', 'Phone', 'State', 'Price'] as const;

const STATE_CODES = new Set<string>(US_STATE_CODES);

/** Dollars as text or a number → cents; null when it is not a price within the bound. */
function callbackPriceCents(value: string | number): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim().replace(/^\$/, '');
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return cents <= CALLBACK_PRICE_MAX_CENTS ? cents : null;
}

const requiredText = (max: number, label: string) =>
  z
    .string({ error: CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE })
    .trim()
    .min(1, CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE)
    .max(max, `${label} must be at most ${max} characters`);

/** Ten US digits whose area code is a geographic one (the lead importer's rule, contracts/area-codes.ts). */
const phoneField = requiredText(30, 'Phone')
  .transform((v, ctx) => {
    const digits = usPhoneDigits(v);
    if (digits === null) {
      ctx.addIssue({ code: 'custom', message: CALLBACK_PHONE_MESSAGE });
      return z.NEVER;
    }
    const problem = areaCodeProblem(digits);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return digits;
  });

/** A 2-letter code or a state's name, any case (as an aged lead's State column). */
const stateInputField = requiredText(50, 'State').transform((v, ctx) => {
  const code = usStateOfText(v);
  if (code === null) {
    ctx.addIssue({ code: 'custom', message: CALLBACK_STATE_INPUT_MESSAGE });
    return z.NEVER;
  }
  return code;
});

const stateField = requiredText(2, 'State')
  .transform((v) => v.toUpperCase())
  .refine((v) => STATE_CODES.has(v), CALLBACK_STATE_MESSAGE);

/** Blank, null or absent: the default price; otherwise dollars within the bound. Output in cents. */
const priceField = z.preprocess(
  (v) => (v === '' || v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? DEFAULT_CALLBACK_PRICE_CENTS / 100 : v),
  z.union([z.string().max(20, CALLBACK_PRICE_MESSAGE), z.number()], { error: CALLBACK_PRICE_MESSAGE }).transform((v, ctx) => {
    const cents = callbackPriceCents(v);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: CALLBACK_PRICE_MESSAGE });
      return z.NEVER;
    }
    return cents;
  }),
);

/**
 * One opportunity typed by an admin, by the manual form or as a CSV row: one rule for both
 * (issue 22). Names and phone required; state a code or a name; price blank → 15.00. Output price in cents.
 */
export const callbackOpportunityInput = z.object({
  firstName: requiredText(100, 'First name'),
  lastName: requiredText(100, 'Last name'),
  phone: phoneField,
  state: stateInputField,
  price: priceField,
});
export type CallbackOpportunityInput = z.input<typeof callbackOpportunityInput>;

/** `POST /api/callback-opportunities/bulk`: rows are bounded text here and checked one by one (callbackOpportunityInput, the manual form's rule). */
const bulkCell = z.union([z.string().max(200), z.number(), z.null()]).optional();
export const bulkCallbackOpportunitiesBody = z.object({
  csvData: z
    .array(z.object({ firstName: bulkCell, lastName: bulkCell, phone: bulkCell, state: bulkCell, price: bulkCell }), {
      error: 'csvData must be a list of rows',
    })
    .min(1, 'The file has no rows')
    .max(CALLBACK_BULK_MAX_ROWS, 'At most 5,000 rows at once'),
});
export type BulkCallbackOpportunitiesInput = z.input<typeof bulkCallbackOpportunitiesBody>;

/** A refused row of a bulk upload: its row number in the file (the header is row 1, as in a lead import). */
export interface CallbackRowError {
  row: number;
  field: string;
  message: string;
}

/** 200 of the bulk upload: the good rows are created, the bad ones listed. */
export interface BulkCallbackResult {
  created: number;
  rejected: CallbackRowError[];
}

export const callbackOpportunityListQuery = z.object({
  status: z.enum(CALLBACK_OPPORTUNITY_STATUSES, { error: `Status must be one of ${CALLBACK_OPPORTUNITY_STATUSES.join(', ')}` }).optional(),
  state: z
    .string()
    .max(20, CALLBACK_STATE_MESSAGE)
    .trim()
    .toUpperCase()
    .refine((v) => v === 'NONE' || STATE_CODES.has(v), CALLBACK_STATE_MESSAGE)
    .optional(),
  source: z.enum(CALLBACK_SOURCES, { error: `Source must be one of ${CALLBACK_SOURCES.join(', ')}` }).optional(),
  page: z.coerce.number({ error: 'Page must be a whole number from 1' }).int('Page must be a whole number from 1').min(1, 'Page must be a whole number from 1').max(100000).optional(),
});

/** `GET /api/callback-opportunities/export.csv`: the list's filters, every page (issue 22). */
export const callbackOpportunityExportQuery = callbackOpportunityListQuery.omit({ page: true });
/** The most rows one export holds, newest first. */
export const CALLBACK_EXPORT_MAX_ROWS = 50_000;
export const CALLBACK_EXPORT_COLUMNS = [
  'Opportunity ID', 'Status', 'First Name', 'Last Name', 'Phone', 'State', 'Price (USD)', 'Source', 'Vendor',
  'Callback Time (UTC)', 'Call Outcome', 'Lead Quality', 'Interest Level', 'Assigned To (user id)', 'Assigned At (UTC)',
  'Assigned By', 'Contacted At (UTC)', 'Suppressed At (UTC)', 'Expires At (UTC)', 'Created At (UTC)', 'Transcript',
] as const;

/**
 * `GET /api/admin/callback-agents` (issue 22): the agents who can receive call-backs — those with
 * a call-back account (they bought Call-Backs) — for the manual-assign picker, with their
 * balance and the states they take call-backs in. Admins are never listed.
 */
const callbackAgentSchema = z.object({
  userId: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** Call-backs paid for and not yet delivered. */
  balance: z.number().int().nonnegative(),
  /** 2-letter codes. */
  states: z.array(z.string().length(2)),
});
export type CallbackAgent = z.infer<typeof callbackAgentSchema>;
/** The most agents the picker lists (those with a balance first). */
export const CALLBACK_AGENTS_MAX = 200;

/** An admin sets the state of an opportunity whose state could not be found. */
export const callbackStateBody = z.object({ state: stateField });
export const assignCallbackBody = z.object({ userId: z.uuid({ error: 'userId must be a user id' }) });

const callbackOpportunitySchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  /** Null while it waits for an admin to give it one. */
  state: z.string().nullable(),
  /** Dollars, '15.00'. */
  price: z.string(),
  source: z.enum(CALLBACK_SOURCES),
  vendorName: z.string().nullable(),
  transcript: z.string().nullable(),
  callbackTime: z.iso.datetime({ offset: true }).nullable(),
  callOutcome: z.string().nullable(),
  leadQuality: z.string().nullable(),
  interestLevel: z.string().nullable(),
  status: z.enum(CALLBACK_OPPORTUNITY_STATUSES),
  /** When it left the market because its phone is on the suppression list. */
  suppressedAt: z.iso.datetime({ offset: true }).nullable(),
  assignedUserId: z.uuid().nullable(),
  assignedAt: z.iso.datetime({ offset: true }).nullable(),
  expiresAt: z.iso.datetime({ offset: true }),
  createdAt: z.iso.datetime({ offset: true }),
  /** Issue 24 §3: the callback time falls outside calling hours in the prospect's zone (false without a time or a zone). */
  callbackTimeOutsideCallingHours: z.boolean(),
});
export type CallbackOpportunity = z.infer<typeof callbackOpportunitySchema>;

// ---------------------------------------------------------------------------------------------
// The agent's call-backs
// ---------------------------------------------------------------------------------------------

const myCallbackSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  phone: z.string(),
  state: z.string(),
  callbackTime: z.iso.datetime({ offset: true }).nullable(),
  transcript: z.string().nullable(),
  callOutcome: z.string().nullable(),
  leadQuality: z.string().nullable(),
  interestLevel: z.string().nullable(),
  status: z.enum(['assigned', 'contacted']),
  assignedAt: z.iso.datetime({ offset: true }),
  /** When the phone opted out since it was delivered, or null: 'Do not call — opted out on …' (issue 24). */
  optedOutAt: z.iso.datetime({ offset: true }).nullable(),
  /** Issue 24: the national DNC registry's check of the phone now. */
  dnc: dncCheckSchema,
  // Issue 24 §3: the prospect's clock now, and the agent's logged calls counted by the 3-in-24-hours rule.
  ...prospectCallingHoursShape,
  attemptsLast24h: z.number().int().nonnegative(),
  lastAttemptAt: z.iso.datetime({ offset: true }).nullable(),
});
export type MyCallback = z.infer<typeof myCallbackSchema>;

/**
 * A paid Call-Backs order whose call-backs are not in the balance yet (issue 22): the payment is
 * taken and the catalog credits it a moment later, when the payment's event reaches it.
 */
const paidCallBacksOrderSchema = z.object({
  orderId: z.uuid(),
  /** Call-backs the order bought. */
  count: z.number().int().positive(),
  paidAt: z.iso.datetime({ offset: true }),
});
export type PaidCallBacksOrder = z.infer<typeof paidCallBacksOrderSchema>;

export const myCallbacksResponse = z.object({
  /** Call-backs paid for and not yet delivered. */
  balance: z.number().int().nonnegative(),
  /**
   * Paid Call-Backs orders not credited to the balance yet, newest first: on their way (issue 22).
   * My Call-backs shows them and asks again until they are in the balance.
   */
  pending: z.array(paidCallBacksOrderSchema),
  /** The states the agent takes call-backs in (2-letter codes). */
  states: z.array(z.string().length(2)),
  callbacks: z.array(myCallbackSchema),
});
export type MyCallbacks = z.infer<typeof myCallbacksResponse>;

/** How many of a buyer's latest paid Call-Backs orders orders names to the catalog. */
export const PAID_CALL_BACKS_ORDERS_LIMIT = 50;

/**
 * `GET /api/internal/my-paid-call-backs-orders` (orders service; never forwarded by the gateway):
 * the signed buyer's latest paid Call-Backs orders (not refunded in full), newest first. The
 * catalog answers My Call-backs with those it has not credited yet.
 */
export const paidCallBacksOrdersAnswer = z.object({
  orders: z.array(paidCallBacksOrderSchema).max(PAID_CALL_BACKS_ORDERS_LIMIT),
});
export type PaidCallBacksOrdersAnswer = z.infer<typeof paidCallBacksOrdersAnswer>;

export const myCallbackStatusBody = z.object({
  status: z.literal('contacted', { error: "Status must be 'contacted'" }),
});

export const myCallbackStatesBody = z.object({
  states: z
    .array(
      z
        .string({ error: CALLBACK_STATE_MESSAGE })
        .max(20, CALLBACK_STATE_MESSAGE)
        .trim()
        .toUpperCase()
        .refine((v) => STATE_CODES.has(v), CALLBACK_STATE_MESSAGE),
      { error: 'States must be a list of 2-letter codes' },
    )
    .max(US_STATE_CODES.length)
    .transform((states) => [...new Set(states)].sort()),
});
