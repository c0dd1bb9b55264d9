import { z } from 'zod';
import { usStateOfText, type UsStateCode } from './us-states';
import { dollarsToCents, formatUsd, PricingError } from './pricing';

/**
 * Live call transfers ordered from the dashboard (spec §2 Buy Call Transfers, §3 Call-transfer
 * order form and Transfer order, §5, §7), and the Insurance Recruiting request. One schema for
 * the SPA's form and the orders service, so both say the spec's words.
 */

export const TRANSFER_LEAD_TYPE = 'Live Transfers';

/** Spec §4: display values of a transfer order. Paid happens on payment; the rest are the team's. */
const TRANSFER_ORDER_STATUSES = ['pending', 'paid', 'completed', 'cancelled'] as const;
export type TransferOrderStatus = (typeof TRANSFER_ORDER_STATUSES)[number];

/** Far above any real order, and small enough that a total always fits a card payment. */
const MAX_TRANSFERS_PER_ORDER = 10_000;
const MAX_CALLS_PER_DAY = 10_000;
/** Card payments have a floor and a ceiling (Stripe: $0.50 and $999,999.99). */
const MIN_TRANSFER_ORDER_CENTS = 50;
const MAX_TRANSFER_ORDER_CENTS = 99_999_999;

const TRANSFER_ORDER_MESSAGES = {
  totalTransfers: 'Must be at least 1 transfer',
  callsPerDay: 'Must be at least 1 call per day',
  transferHours: 'Please specify transfer hours',
  transferPhone: 'Phone number must be at least 10 digits',
  workingStates: 'Please specify working states',
} as const;

/* ------------------------------------------------------------------ states ---------- */

/** The most words a state's name has ('District of Columbia'). */
const LONGEST_NAME_WORDS = 3;
/** Shown with what was not recognised, wherever working states are typed (issue 17). */
const STATE_CODE_EXAMPLE = 'use 2-letter codes like TX, FL';

/**
 * The states of one term between commas. A term that is no state as a whole is read word by
 * word, so 'TX FL' and 'Texas and New York' are two states each; the words that make no state
 * ('Texass', 'ZZ') come back as they were typed, a run of them as one.
 */
function statesOfTerm(term: string): { states: UsStateCode[]; unknown: string[] } {
  const whole = usStateOfText(term);
  if (whole) return { states: [whole], unknown: [] };
  const words = term.split(/[\s/&]+/).filter(Boolean);
  const states: UsStateCode[] = [];
  const unknown: string[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length > 0) unknown.push(pending.join(' '));
    pending = [];
  };
  for (let i = 0; i < words.length; ) {
    // 'and' joins states; so does a lower-case 'or' between two words ('Texas or Florida'),
    // while 'OR' in capitals is Oregon ('TX OR WA').
    const word = words[i]!;
    if (word.toLowerCase() === 'and' || (word === 'or' && i > 0 && i < words.length - 1)) {
      flush();
      i += 1;
      continue;
    }
    // The longest name first: 'West Virginia' is not 'West' and Virginia.
    let found: { code: UsStateCode; words: number } | null = null;
    for (let n = Math.min(LONGEST_NAME_WORDS, words.length - i); n >= 1 && !found; n -= 1) {
      const code = usStateOfText(words.slice(i, i + n).join(' '));
      if (code) found = { code, words: n };
    }
    if (found) {
      flush();
      states.push(found.code);
      i += found.words;
    } else {
      pending.push(words[i]!);
      i += 1;
    }
  }
  flush();
  return { states, unknown };
}

/** The states of some terms, each once in the order typed, and what was not a state. */
function readStates(terms: string[]): { states: UsStateCode[]; unknown: string[] } {
  const states: UsStateCode[] = [];
  const unknown: string[] = [];
  for (const term of terms) {
    const read = statesOfTerm(term.trim().replace(/\s+/g, ' '));
    for (const code of read.states) if (!states.includes(code)) states.push(code);
    for (const text of read.unknown) if (!unknown.includes(text)) unknown.push(text);
  }
  return { states, unknown };
}

/** "'ZZ' is not a US state — use 2-letter codes like TX, FL": what was typed, named. */
function notStatesMessage(unknown: string[]): string {
  const named = unknown.slice(0, 5).map((t) => `'${t.slice(0, 40)}'`).join(', ');
  return unknown.length === 1
    ? `${named} is not a US state — ${STATE_CODE_EXAMPLE}`
    : `${named} are not US states — ${STATE_CODE_EXAMPLE}`;
}

export type WorkingStatesResult = { ok: true; states: UsStateCode[] } | { ok: false; message: string };

/**
 * Working states as a list of codes: from a list ('TX', 'ok', 'Texas') or a text separated by
 * commas, semicolons or new lines ('TX, OK' — what the survey stores; 'Texas; fl'). Codes and
 * full names count, in any case; repeats are dropped, the order kept. Anything else is named in
 * the message. `emptyMessage` is the form's own words for no state at all.
 */
export function parseWorkingStates(input: unknown, emptyMessage: string = TRANSFER_ORDER_MESSAGES.workingStates): WorkingStatesResult {
  let terms: unknown[];
  if (typeof input === 'string') terms = input.split(/[,;\n]/);
  else if (Array.isArray(input)) terms = input;
  else if (input === undefined || input === null) terms = [];
  else return { ok: false, message: emptyMessage };

  if (terms.some((term) => typeof term !== 'string')) return { ok: false, message: 'Working states must be state codes such as TX' };
  const { states, unknown } = readStates(terms as string[]);
  if (unknown.length > 0) return { ok: false, message: notStatesMessage(unknown) };
  if (states.length === 0) return { ok: false, message: emptyMessage };
  return { ok: true, states };
}

/**
 * Working states as the survey stores them, whatever way they were typed: 'Texas, fl' →
 * 'TX, FL' (issue 17: checked against the real state codes, not kept as free text).
 */
export function normaliseWorkingStates(text: string, emptyMessage?: string): { ok: true; text: string } | { ok: false; message: string } {
  const result = parseWorkingStates(text, emptyMessage);
  return result.ok ? { ok: true, text: result.states.join(', ') } : result;
}

/**
 * The states of a saved survey's free text that are recognisable, for pre-filling the form
 * (unknown words are left for the agent to choose again, not refused).
 */
export function recognisedStates(text: string | null | undefined): UsStateCode[] {
  if (!text) return [];
  return readStates(text.split(/[,;\n]/)).states;
}

/* -------------------------------------------------------------- the order form ---------- */

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A whole count of at least 1, from a number input (number or its text). */
const atLeastOne = (message: string, unit: string, max: number) =>
  z.union([z.number(), z.string().max(30, message), z.null()], { error: message }).transform((value, ctx): number => {
    const n = isBlank(value) ? Number.NaN : typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isFinite(n) || n < 1) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (!Number.isInteger(n)) {
      ctx.addIssue({ code: 'custom', message: `Must be a whole number of ${unit}` });
      return z.NEVER;
    }
    if (n > max) {
      ctx.addIssue({ code: 'custom', message: `Must be at most ${max.toLocaleString('en-US')} ${unit}` });
      return z.NEVER;
    }
    return n;
  });

const transferPhone = z
  .string({ error: TRANSFER_ORDER_MESSAGES.transferPhone })
  .trim()
  .max(30, 'Phone number must be at most 30 characters')
  .refine((v) => v.replace(/\D/g, '').length >= 10, TRANSFER_ORDER_MESSAGES.transferPhone);

/** Working states as a list of codes or names, or the survey's comma-separated text. */
const workingStates = z
  .union(
    [
      z.string().max(1000, 'Working states must be at most 1000 characters'),
      z.array(z.string({ error: 'Working states must be state codes such as TX' }).max(100, 'Working states must be state codes such as TX')).max(100, 'Working states must be at most 100 states'),
      z.null(),
    ],
    {
      // A union names no option's own issue when several fail; say what was wrong with a list here.
      error: (issue) =>
        !Array.isArray(issue.input)
          ? TRANSFER_ORDER_MESSAGES.workingStates
          : issue.input.length > 100
            ? 'Working states must be at most 100 states'
            : 'Working states must be state codes such as TX',
    },
  )
  .transform((value, ctx): UsStateCode[] => {
  const result = parseWorkingStates(value);
  if (!result.ok) {
    ctx.addIssue({ code: 'custom', message: result.message });
    return z.NEVER;
  }
  return result.states;
});

/** The price the browser computed, in dollars (number or numeric text), as cents. */
const browserPrice = z
  .union([z.number(), z.string().trim().max(20, 'Price must be a number in dollars').regex(/^\d+(\.\d{1,2})?$/, 'Price must be a number in dollars')], {
    error: 'Price must be a number in dollars',
  })
  .transform((v, ctx) => {
    try {
      return dollarsToCents(typeof v === 'number' ? v : Number(v));
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof PricingError ? err.message : 'Price must be a number in dollars' });
      return z.NEVER;
    }
  });

/** The order form's fields (spec §3). */
const orderFormFields = {
  totalTransfers: atLeastOne(TRANSFER_ORDER_MESSAGES.totalTransfers, 'transfers', MAX_TRANSFERS_PER_ORDER),
  callsPerDay: atLeastOne(TRANSFER_ORDER_MESSAGES.callsPerDay, 'calls per day', MAX_CALLS_PER_DAY),
  transferHours: z
    .string({ error: TRANSFER_ORDER_MESSAGES.transferHours })
    .trim()
    .min(1, TRANSFER_ORDER_MESSAGES.transferHours)
    .max(200, 'Transfer hours must be at most 200 characters'),
  transferPhone,
  workingStates,
};

/**
 * 'Transfers per day (50) cannot be more than the total transfers (10)': the field's label on the
 * form and in the checkout's summary is 'Transfers per day' (issue 22); `callsPerDay` stays its API name.
 */
function callsPerDayAboveTotalMessage(callsPerDay: number, totalTransfers: number): string {
  return `Transfers per day (${callsPerDay.toLocaleString('en-US')}) cannot be more than the total transfers (${totalTransfers.toLocaleString('en-US')})`;
}

type TransferCounts = { totalTransfers: unknown; callsPerDay: unknown };

/**
 * Issue 17: an order of 10 transfers at 50 calls a day is a typo, not an order; it is refused
 * on the form and by the server (both parse with these schemas), on the calls-per-day field.
 * It is checked whenever both counts are whole numbers, also when another field is wrong, so
 * one answer names every mistake.
 */
const perDayWithinTotal = (order: { totalTransfers: number; callsPerDay: number }) => order.callsPerDay <= order.totalTransfers;
const perDayWithinTotalRule = {
  path: ['callsPerDay'],
  error: (issue: { input?: unknown }) => {
    const order = issue.input as { totalTransfers: number; callsPerDay: number };
    return callsPerDayAboveTotalMessage(order.callsPerDay, order.totalTransfers);
  },
  when: (payload: z.core.ParsePayload) => {
    const order = payload.value as TransferCounts;
    const countFailed = payload.issues.some((i) => i.path?.[0] === 'totalTransfers' || i.path?.[0] === 'callsPerDay');
    return !countFailed && typeof order.totalTransfers === 'number' && typeof order.callsPerDay === 'number';
  },
};

/** The order form's fields (spec §3), as the SPA validates them before sending. */
export const callTransferOrderFormSchema = z.object(orderFormFields).refine(perDayWithinTotal, perDayWithinTotalRule);

/**
 * `POST /api/call-transfer-order` (spec §7): the form's fields, leadType 'Live Transfers' and
 * the price the browser computed (totalTransfers × the agent's per-transfer price). The server
 * prices the order itself; a `price` that differs is refused.
 */
export const callTransferOrderBody = z
  .object({
    ...orderFormFields,
    leadType: z.preprocess(
      (v) => (isBlank(v) ? undefined : v),
      z.literal(TRANSFER_LEAD_TYPE, { error: `Lead type must be '${TRANSFER_LEAD_TYPE}'` }).optional(),
    ),
    price: z.preprocess((v) => (isBlank(v) ? undefined : v), browserPrice.optional()),
  })
  .refine(perDayWithinTotal, perDayWithinTotalRule);
export type CallTransferOrderInput = z.input<typeof callTransferOrderBody>;
export type CallTransferOrderRequest = z.output<typeof callTransferOrderBody>;

/** What the form holds while the agent types (every input's value; states as a list). */
export interface CallTransferOrderFormValues {
  totalTransfers: string;
  callsPerDay: string;
  transferHours: string;
  transferPhone: string;
  workingStates: UsStateCode[];
}

/* ------------------------------------------------------------------- pricing ---------- */

/** '31.50' (a liveTransferPrice) → 3150; null when it is not a price. */
export function priceTextToCents(text: string): number | null {
  if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) return null;
  return Math.round(Number(text.trim()) * 100);
}

/** 63000 → '630.00' (spec §3: totals are decimal strings). */
export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export type TransferQuote =
  | { ok: true; unitPriceCents: number; totalCents: number }
  | { ok: false; message: string };

/** totalTransfers × the agent's own price, within what a card payment can take. */
export function quoteTransfers(totalTransfers: number, unitPriceCents: number): TransferQuote {
  const totalCents = totalTransfers * unitPriceCents;
  if (totalCents < MIN_TRANSFER_ORDER_CENTS) {
    return {
      ok: false,
      message: `Your price of ${formatUsd(unitPriceCents)} per transfer makes a total of ${formatUsd(totalCents)}; a card payment must be at least ${formatUsd(MIN_TRANSFER_ORDER_CENTS)}. Please contact support.`,
    };
  }
  if (totalCents > MAX_TRANSFER_ORDER_CENTS) {
    return {
      ok: false,
      message: `A total of ${formatUsd(totalCents)} is more than one card payment can take (${formatUsd(MAX_TRANSFER_ORDER_CENTS)}); please order fewer transfers at a time.`,
    };
  }
  return { ok: true, unitPriceCents, totalCents };
}

/* ------------------------------------------------------------------ answers ---------- */

export interface CallTransferOrderResponse {
  orderId: string;
  clientSecret: string;
  /** Dollars as a decimal string, e.g. '630.00'. */
  totalPrice: string;
  totalPriceCents: number;
  /** The agent's per-transfer price the order was made at, e.g. '31.50'. */
  unitPrice: string;
  totalTransfers: number;
  paymentProvider: 'sandbox' | 'stripe';
}

/** A transfer order as admins see it (spec §3 Transfer order). */
export interface TransferOrderRecord {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  /** The phone transfers are delivered to. */
  transferNumber: string;
  /** The agent's own contact phone and e-mail. */
  phone: string;
  email: string;
  totalTransfers: number;
  transfersPerDay: number;
  transferHours: string;
  selectedStates: UsStateCode[];
  leadType: typeof TRANSFER_LEAD_TYPE;
  /** Decimal strings, e.g. '31.50' and '630.00'. */
  unitPrice: string;
  totalPrice: string;
  status: TransferOrderStatus;
  createdAt: string;
  paidAt: string | null;
}

/** The four figures of the admin orders page, computed by the server. */
export interface TransferOrderStats {
  totalOrders: number;
  pendingOrders: number;
  /** Sum of paid (and completed) orders, a decimal string. */
  totalRevenue: string;
  /** Transfers in every order. */
  totalTransfers: number;
}

/** `GET /api/transfer-orders` (admins): newest first. */
export interface TransferOrdersResponse {
  orders: TransferOrderRecord[];
  stats: TransferOrderStats;
}

/**
 * `GET /internal/users/:id` at the gateway (owner of users), asked by the orders service with
 * a signed identity: who is ordering and at what per-transfer price.
 */
export interface BuyerProfile {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** Decimal string, e.g. '35.00'. */
  liveTransferPrice: string;
  /**
   * The 2-letter codes recognised in the working states of the user's latest survey (issue 15:
   * where an agent takes call-backs until they choose). Absent from answers of older gateways.
   */
  workingStates?: string[];
  /** The latest survey's time zone answer (issue 23); absent when it had none. */
  surveyTimeZone?: 'PST' | 'MST' | 'CST' | 'EST';
  /** The latest survey's transfers per day (else calls per day), when positive (issue 23). */
  callsPerDay?: number;
}

/* ------------------------------------------------------- insurance recruiting ---------- */

const RECRUITING_MESSAGES = {
  needs: 'Please tell us what your agency needs',
  agentsNeeded: 'Please enter how many agents you need (at least 1)',
  phone: 'Phone number must be at least 10 digits',
  email: 'Invalid email address',
} as const;

/** `POST /api/recruiting-requests`: the Insurance Recruiting view's 'Contact Recruiting Team' form. */
export const recruitingRequestBody = z.object({
  needs: z
    .string({ error: RECRUITING_MESSAGES.needs })
    .trim()
    .min(1, RECRUITING_MESSAGES.needs)
    .max(2000, 'Please keep it under 2000 characters'),
  agentsNeeded: atLeastOne(RECRUITING_MESSAGES.agentsNeeded, 'agents', 10_000),
  email: z
    .string({ error: RECRUITING_MESSAGES.email })
    .trim()
    .max(254, RECRUITING_MESSAGES.email)
    .pipe(z.email(RECRUITING_MESSAGES.email)),
  phone: z
    .string({ error: RECRUITING_MESSAGES.phone })
    .trim()
    .max(30, 'Phone number must be at most 30 characters')
    .refine((v) => v.replace(/\D/g, '').length >= 10, RECRUITING_MESSAGES.phone),
});
export type RecruitingRequestInput = z.input<typeof recruitingRequestBody>;
export type RecruitingRequest = z.output<typeof recruitingRequestBody>;

export interface RecruitingRequestResponse {
  id: string;
  message: string;
}
