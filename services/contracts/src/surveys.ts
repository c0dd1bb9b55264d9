import { z } from 'zod';
import { USER_ROLES, newPasswordSchema } from './accounts';
export * from './salespeople';
import {
  AGED_LEAD_AGE_RANGES,
  PricingError,
  RINGCLOUD_LEAD_TYPES,
  RINGCLOUD_PACKAGE_PREFIX,
  RINGCLOUD_PRICING,
  centsToDollars,
  quotePackage,
  type PackageQuote,
} from './pricing';
import { normaliseWorkingStates } from './transfers';

/**
 * The survey funnels (spec §2, §3, §5): one schema family for the SPA's wizard and the
 * gateway's survey endpoints, so both say the same thing in the spec's words.
 *
 * - main (/survey → POST /api/survey): lead types Live Transfers, Aged Leads, Insurance Recruiting
 * - ringcloud (/ringcloud → POST /api/ringcloud-survey): the second brand, ends in a card checkout
 * - referral (/{slug} → POST /api/{slug}-survey): one salesperson's campaign, asks the timezone
 */

const MAIN_SURVEY_LEAD_TYPES = ['Live Transfers', 'Aged Leads', 'Insurance Recruiting'] as const;
/** The second brand's and the referral survey's lead types. */
export const CAMPAIGN_LEAD_TYPES = RINGCLOUD_LEAD_TYPES;
const SURVEY_LEAD_TYPES = ['Live Transfers', 'Aged Leads', 'Insurance Recruiting', 'Call-Backs'] as const;
export type SurveyLeadType = (typeof SURVEY_LEAD_TYPES)[number];

export const SURVEY_TIMEZONES = ['PST', 'MST', 'CST', 'EST'] as const;
type SurveyTimezone = (typeof SURVEY_TIMEZONES)[number];

export const SURVEY_AGE_RANGES = AGED_LEAD_AGE_RANGES;

export const SURVEY_FUNNEL_IDS = ['main', 'ringcloud', 'referral'] as const;
export type SurveyFunnelId = (typeof SURVEY_FUNNEL_IDS)[number];

export interface SurveyFunnel {
  id: SurveyFunnelId;
  /** The brand the funnel shows and stores with each response. */
  brand: 'WarmLine' | 'RingCloud';
  leadTypes: readonly SurveyLeadType[];
  /** The message when no lead type is chosen (spec §5 differs per survey). */
  leadTypeMessage: string;
  /** The salesperson marker stored with each response; a referral stores its salesperson's name. */
  salesperson?: string;
  /** Whether step 2 asks the timezone (the referral survey). */
  asksTimezone: boolean;
  /**
   * Whether the answers are priced into an order right away (the second brand's checkout):
   * then the quantity the price needs (or the age range of Aged Leads) is required.
   */
  leadsToCheckout: boolean;
}

export const SURVEY_FUNNELS: Record<SurveyFunnelId, SurveyFunnel> = {
  main: {
    id: 'main',
    brand: 'WarmLine',
    leadTypes: MAIN_SURVEY_LEAD_TYPES,
    leadTypeMessage: 'Please select a service type',
    salesperson: 'Survey Form',
    asksTimezone: false,
    leadsToCheckout: false,
  },
  ringcloud: {
    id: 'ringcloud',
    brand: 'RingCloud',
    leadTypes: CAMPAIGN_LEAD_TYPES,
    leadTypeMessage: 'Please select a lead type',
    salesperson: 'RingCloud',
    asksTimezone: false,
    leadsToCheckout: true,
  },
  referral: {
    id: 'referral',
    brand: 'WarmLine',
    leadTypes: CAMPAIGN_LEAD_TYPES,
    leadTypeMessage: 'Please select a lead type',
    asksTimezone: true,
    leadsToCheckout: false,
  },
};

/** The fields of step 2 that belong to one lead type (spec §5 "conditional blocks"). */
export const LEAD_TYPE_FIELDS = {
  'Live Transfers': ['totalTransfers', 'transfersPerDay', 'callsPerDay', 'transferHours'],
  'Insurance Recruiting': ['totalCallbacks', 'callbackPreference'],
  'Call-Backs': ['totalCallbacks', 'callbackPreference'],
  'Aged Leads': ['ageRange'],
} as const satisfies Record<SurveyLeadType, readonly string[]>;

const CONDITIONAL_FIELDS = ['totalTransfers', 'transfersPerDay', 'callsPerDay', 'transferHours', 'totalCallbacks', 'callbackPreference', 'ageRange'] as const;
type ConditionalField = (typeof CONDITIONAL_FIELDS)[number];

/** Largest count a survey stores; far above any real order, and inside a Postgres integer. */
const SURVEY_MAX_COUNT = 1_000_000;

/* ----------------------------------------------------------------- fields ---------- */

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const requiredText = (message: string, max: number, label: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, `${label} must be at most ${max} characters`);

const optionalText = (max: number, label: string) =>
  z.preprocess(
    (v) => (isBlank(v) ? undefined : v),
    z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`).optional(),
  );

/**
 * A count as the wizard's number inputs send it (spec §5): parsed as an integer, anything that
 * is not a number becoming 0 ('12abc' → 12, 'abc' → 0, 3.7 → 3). An empty field is no answer.
 */
export const surveyInteger = (label: string) =>
  z
    .preprocess(
      // A number input left unparseable gives NaN: no number, so 0 like any other non-number.
      (value) => (typeof value === 'number' && Number.isNaN(value) ? 0 : value),
      z.union([z.number(), z.string().max(30, `${label} must be at most 30 characters`), z.boolean(), z.null()], {
        error: `${label} must be a number`,
      }),
    )
    .transform((value, ctx): number | undefined => {
      if (isBlank(value)) return undefined;
      const n = typeof value === 'number' ? Math.trunc(value) : Number.parseInt(String(value).trim(), 10);
      const parsed = Number.isFinite(n) ? n : 0;
      if (parsed < 0) {
        ctx.addIssue({ code: 'custom', message: `${label} cannot be negative` });
        return z.NEVER;
      }
      if (parsed > SURVEY_MAX_COUNT) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most ${SURVEY_MAX_COUNT}` });
        return z.NEVER;
      }
      return parsed;
    })
    .optional();

const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => (isBlank(v) ? undefined : v), z.enum(values, { error: message }).optional());

/** At least 10 digits, whatever the punctuation: '(555) 123-4567' is fine, 'call me pls' is not. */
const PHONE_MESSAGE = 'Phone number must be at least 10 digits';
const phone = z
  .string({ error: PHONE_MESSAGE })
  .trim()
  .max(30, 'Phone number must be at most 30 characters')
  .refine((v) => v.replace(/\D/g, '').length >= 10, PHONE_MESSAGE);

/* ----------------------------------------------------------------- step 1 ---------- */

const surveyStep1Shape = {
  firstName: requiredText('First name is required', 100, 'First name'),
  lastName: requiredText('Last name is required', 100, 'Last name'),
  agencyName: requiredText('Agency name is required', 200, 'Agency name'),
  role: z.enum(USER_ROLES, { error: 'Please select your role' }),
  phone,
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .max(254, 'Invalid email address')
    .pipe(z.email('Invalid email address')),
  username: z
    .string({ error: 'Username must be at least 3 characters' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters')
    // A login names a username or an e-mail (issue 17): a username shaped like an address could
    // be someone else's e-mail and catch their logins.
    .refine((name) => !name.includes('@'), 'Username cannot contain @'),
  // At least 8 characters and not a common password, as everywhere (issue 11 overrides spec §5's 6).
  password: newPasswordSchema,
};

/** Step 1 'Your Information', the same in every funnel. */
export const surveyStep1Schema = z.object(surveyStep1Shape);
type SurveyStep1 = z.output<typeof surveyStep1Schema>;

/* ----------------------------------------------------------------- step 2 ---------- */

const WORKING_STATES_MESSAGE = 'Please specify your working states';

/**
 * Working states (spec §5: at least 1 character) checked against the real state codes (issue
 * 17): 'Texas, fl' is stored as 'TX, FL'; 'ZZ' or 'Texass' is refused with a message naming it.
 * The wizard checks the field with this too, so the browser says what the server would.
 */
export const surveyWorkingStatesSchema = requiredText(WORKING_STATES_MESSAGE, 500, 'Working states').transform((text, ctx): string => {
  const result = normaliseWorkingStates(text, WORKING_STATES_MESSAGE);
  if (result.ok) return result.text;
  ctx.addIssue({ code: 'custom', message: result.message });
  return z.NEVER;
});

function step2Shape(funnel: SurveyFunnel) {
  return {
    leadType: z.enum(funnel.leadTypes as unknown as [SurveyLeadType, ...SurveyLeadType[]], {
      error: funnel.leadTypeMessage,
    }),
    workingStates: surveyWorkingStatesSchema,
    totalTransfers: surveyInteger('Total transfers'),
    transfersPerDay: surveyInteger('Transfers per day'),
    callsPerDay: surveyInteger('Calls per day'),
    transferHours: optionalText(200, 'Transfer hours'),
    totalCallbacks: surveyInteger(funnel.id === 'main' ? 'Agents needed' : 'Total callbacks'),
    callbackPreference: optionalText(500, 'Preference'),
    ageRange: optionalChoice(SURVEY_AGE_RANGES, 'Please select an age range (30-60, 60-90 or 90-180 days)'),
    timezone: optionalChoice(SURVEY_TIMEZONES, 'Please select a timezone (PST, MST, CST or EST)'),
  };
}

/**
 * Keeps only the answers of the chosen lead type's block: a number typed under Live Transfers
 * and left behind when the user switched to Aged Leads is neither validated nor stored.
 * The timezone is kept only where the funnel asks it.
 */
function keepChosenBlock(funnel: SurveyFunnel) {
  return (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const values = { ...(input as Record<string, unknown>) };
    const leadType = values.leadType;
    const kept: readonly string[] =
      typeof leadType === 'string' && (funnel.leadTypes as readonly string[]).includes(leadType)
        ? LEAD_TYPE_FIELDS[leadType as SurveyLeadType]
        : [];
    for (const field of CONDITIONAL_FIELDS) if (!kept.includes(field)) delete values[field];
    if (!funnel.asksTimezone) delete values.timezone;
    return values;
  };
}

/**
 * For the funnel that ends in a checkout: what the order needs, priced by the contracts
 * table so the survey refuses a quantity the checkout would refuse.
 */
function requireOrderable(funnel: SurveyFunnel) {
  return (value: SurveyStep2, ctx: z.RefinementCtx): void => {
    if (!funnel.leadsToCheckout) return;
    const order = campaignOrderFor(value);
    if (order.ok) return;
    ctx.addIssue({ code: 'custom', path: [order.field], message: order.message });
  };
}

function step2Schema(funnel: SurveyFunnel) {
  return z.preprocess(keepChosenBlock(funnel), z.object(step2Shape(funnel)).superRefine(requireOrderable(funnel)));
}

export const mainSurveyStep2Schema = step2Schema(SURVEY_FUNNELS.main);
export const ringcloudSurveyStep2Schema = step2Schema(SURVEY_FUNNELS.ringcloud);
export const referralSurveyStep2Schema = step2Schema(SURVEY_FUNNELS.referral);

export interface SurveyStep2 {
  leadType: SurveyLeadType;
  workingStates: string;
  totalTransfers?: number | undefined;
  transfersPerDay?: number | undefined;
  callsPerDay?: number | undefined;
  transferHours?: string | undefined;
  totalCallbacks?: number | undefined;
  callbackPreference?: string | undefined;
  ageRange?: (typeof SURVEY_AGE_RANGES)[number] | undefined;
  timezone?: SurveyTimezone | undefined;
}

/* ------------------------------------------------------------- submission ---------- */

function submissionSchema(funnel: SurveyFunnel) {
  return z.preprocess(
    keepChosenBlock(funnel),
    z
      .object({
        ...surveyStep1Shape,
        ...step2Shape(funnel),
        // The browser sends a marker (spec §7), but the server stores its own: a form cannot
        // credit a sale to someone else.
        salesperson: z.string({ error: 'Salesperson must be text' }).max(200, 'Salesperson must be at most 200 characters').nullable().optional(),
      })
      .superRefine(requireOrderable(funnel))
      .transform(({ salesperson: _ignored, ...answers }) => answers),
  );
}

/** `POST /api/survey`: step 1 + step 2 (+ salesperson, ignored). */
export const mainSurveySubmissionSchema = submissionSchema(SURVEY_FUNNELS.main);
/** `POST /api/ringcloud-survey`. */
const ringcloudSurveySubmissionSchema = submissionSchema(SURVEY_FUNNELS.ringcloud);
/** `POST /api/{slug}-survey`. */
const referralSurveySubmissionSchema = submissionSchema(SURVEY_FUNNELS.referral);

export const SURVEY_STEP2_SCHEMAS = {
  main: mainSurveyStep2Schema,
  ringcloud: ringcloudSurveyStep2Schema,
  referral: referralSurveyStep2Schema,
} as const;

export const SURVEY_SUBMISSION_SCHEMAS = {
  main: mainSurveySubmissionSchema,
  ringcloud: ringcloudSurveySubmissionSchema,
  referral: referralSurveySubmissionSchema,
} as const;

export type SurveySubmission = SurveyStep1 & SurveyStep2;

/** The wizard's form state: every input's text, as typed. */
export type SurveyFormValues = { [K in keyof SurveyStep1 | keyof SurveyStep2]: string };

export const EMPTY_SURVEY_FORM: SurveyFormValues = {
  firstName: '',
  lastName: '',
  agencyName: '',
  role: '',
  phone: '',
  email: '',
  username: '',
  password: '',
  leadType: '',
  workingStates: '',
  totalTransfers: '',
  transfersPerDay: '',
  callsPerDay: '',
  transferHours: '',
  totalCallbacks: '',
  callbackPreference: '',
  ageRange: '',
  timezone: '',
};

/* -------------------------------------------------------------- answers ---------- */

/** Messages of a survey refused because its account cannot be created (HTTP 409). */
export const USERNAME_TAKEN_MESSAGE = 'Username is already taken';
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/** `409 { error, field }` of a survey endpoint: which step-1 field to change. */
export interface SurveyConflictAnswer {
  error: string;
  field: 'username' | 'email';
}

export interface SurveySubmittedAnswer {
  message: string;
  responseId: string;
  userId: string;
  /** The estimate of the campaign funnels, in cents; null when the answers do not price. */
  totalPrice: number | null;
  /**
   * The second brand only: a one-time token, bound to the new account and valid for a short
   * while, that links the checkout right after the survey to that account (issue 12). The SPA
   * sends it as `checkoutToken` with its payment intent; never stored beyond that visit.
   */
  checkoutToken?: string;
}

/** `GET /api/user-survey`: the logged-in user's latest survey (spec §3 "Saved survey"), or null. */
export interface SavedSurvey {
  leadType: string;
  totalTransfers: number | null;
  transfersPerDay: number | null;
  callsPerDay: number | null;
  transferHours: string | null;
  workingStates: string;
  createdAt: string;
}

/** `GET /api/{slug}-responses` rows (spec §3 "Test-campaign response"). */
export interface SurveyResponseRecord {
  id: string;
  firstName: string;
  lastName: string;
  agencyName: string;
  role: string;
  phone: string;
  email: string;
  username: string;
  leadType: string;
  workingStates: string;
  totalTransfers: number | null;
  transfersPerDay: number | null;
  callsPerDay: number | null;
  transferHours: string | null;
  timezone: string | null;
  totalCallbacks: number | null;
  callbackPreference: string | null;
  ageRange: string | null;
  /** Integer cents, null when the answers do not price. */
  totalPrice: number | null;
  salesperson: string;
  createdAt: string;
}

/* ------------------------------------------------------- the campaign order ---------- */

/**
 * The answer the checkout funnel prices its order from, per lead type: required there (the
 * wizard marks it), optional in the other funnels.
 */
export const CAMPAIGN_ORDER_FIELD = {
  'Live Transfers': 'totalTransfers',
  'Call-Backs': 'totalCallbacks',
  'Aged Leads': 'ageRange',
} as const satisfies Record<(typeof CAMPAIGN_LEAD_TYPES)[number], ConditionalField>;

export type CampaignOrder =
  | { ok: true; leadType: (typeof CAMPAIGN_LEAD_TYPES)[number]; calls: number; ageRange?: (typeof SURVEY_AGE_RANGES)[number]; quote: PackageQuote }
  | { ok: false; field: ConditionalField | 'leadType'; message: string };

/**
 * The order a campaign survey's answers make (spec §9 second-survey prices): Live Transfers
 * × $37, Call-Backs × $15, or a pack of 100 Aged Leads at $5 / $4 / $3 by age. The second
 * brand's checkout shows and charges this; referral responses store it as their totalPrice.
 */
export function campaignOrderFor(answers: Pick<SurveyStep2, 'leadType' | 'totalTransfers' | 'totalCallbacks' | 'ageRange'>): CampaignOrder {
  const { leadType } = answers;
  if (!(CAMPAIGN_LEAD_TYPES as readonly string[]).includes(leadType)) {
    return { ok: false, field: 'leadType', message: SURVEY_FUNNELS.ringcloud.leadTypeMessage };
  }
  const campaignLeadType = leadType as (typeof CAMPAIGN_LEAD_TYPES)[number];
  if (campaignLeadType === 'Aged Leads') {
    if (!answers.ageRange) return { ok: false, field: 'ageRange', message: 'Please select an age range' };
    const quote = quotePackage({ tier: 'ringcloud', leadType: campaignLeadType, ageRange: answers.ageRange });
    return { ok: true, leadType: campaignLeadType, calls: quote.count, ageRange: answers.ageRange, quote };
  }
  const field = CAMPAIGN_ORDER_FIELD[campaignLeadType];
  const count = answers[field];
  const units = RINGCLOUD_PRICING.perUnit[campaignLeadType].units;
  if (count === undefined || count < RINGCLOUD_PRICING.minCount) {
    return { ok: false, field, message: `Please enter how many ${units} you need (at least ${RINGCLOUD_PRICING.minCount})` };
  }
  try {
    const quote = quotePackage({ tier: 'ringcloud', leadType: campaignLeadType, count });
    return { ok: true, leadType: campaignLeadType, calls: count, quote };
  } catch (err) {
    if (err instanceof PricingError) return { ok: false, field, message: err.message };
    throw err;
  }
}

/**
 * The body of `POST /api/create-payment-intent` for the second brand's checkout (spec §7:
 * amount, packageType 'RingCloud ' + lead type, calls, callCount 1, tier 'ringcloud'). Aged
 * Leads also carry the survey's working states: the pack is filled only from them (issue 22).
 */
export function ringcloudPaymentIntentBody(order: Extract<CampaignOrder, { ok: true }>, workingStates?: string) {
  return {
    ...(order.leadType === 'Aged Leads' && workingStates ? { states: workingStates } : {}),
    amount: centsToDollars(order.quote.amountCents),
    packageType: `${RINGCLOUD_PACKAGE_PREFIX}${order.leadType}`,
    calls: order.calls,
    callCount: 1,
    tier: 'ringcloud' as const,
    ...(order.ageRange ? { ageRange: order.ageRange } : {}),
  };
}
