import { z } from 'zod';
import { SURVEY_FUNNEL_IDS } from '../../surveys';

/**
 * Accounts (the gateway): sign-ups, users, passwords, the audit log, and the e-mails about them.
 * Registered, with every other context's messages, in ../messages.ts.
 */

/** An account was created (by a survey). The username and e-mail stay with the gateway. */
const accountRegisteredV1 = z.object({
  userId: z.uuid(),
  /** 'Insurance Agent' or 'Agency Owner'. */
  role: z.string(),
});

/**
 * A survey was submitted and its account created (one of the funnels of spec §2). Thin: the
 * answers stay in the gateway; the sales notice is an e-mail command sent in the same transaction.
 */
const surveySubmittedV1 = z.object({
  responseId: z.uuid(),
  userId: z.uuid(),
  /** 'WarmLine' or 'RingCloud'. */
  brand: z.string().min(1),
  /** 'main' (marker Survey Form), 'ringcloud' (marker RingCloud) or 'referral' (a salesperson's campaign). */
  funnel: z.enum(SURVEY_FUNNEL_IDS),
  /** The referring salesperson of a referral survey (the gateway owns their name); null otherwise. */
  salespersonId: z.uuid().nullable(),
  leadType: z.string().min(1),
});

const userDeletedV1 = z.object({ userId: z.uuid(), deletedBy: z.uuid() });

const userPriceChangedV1 = z.object({
  userId: z.uuid(),
  liveTransferPrice: z.string(),
  changedBy: z.uuid(),
});

const passwordResetCompletedV1 = z.object({ userId: z.uuid() });

/**
 * One rendered e-mail, sent once by the notifications worker (its email_log). Only the worker
 * writes these, from the typed `email.*` commands below: it is the one place e-mail bodies are
 * written.
 */
const emailSendV1 = z.object({
  to: z.email(),
  subject: z.string().min(1),
  text: z.string(),
  html: z.string().optional(),
  /** A short name of the message kind, for the e-mail log (e.g. 'password-reset'). */
  template: z.string().min(1),
  /** The body holds a secret (a reset link): the outbox row is emptied once the broker has it. */
  secret: z.boolean().optional(),
  /** Whose name it is sent in (absent: WarmLine): RingCloud's come from RINGCLOUD_MAIL_FROM, the rest from MAIL_FROM. */
  brand: z.enum(['WarmLine', 'RingCloud']).optional(),
});

/** Tell a user how to choose a new password. Holds the reset link: a secret (see carriesSecret). */
const emailPasswordResetV1 = z.object({
  to: z.email(),
  /** How the mail greets the user: their first name, else their username. */
  name: z.string().min(1),
  /** The username to log in with, reminded in the mail (absent in commands written before it travelled). */
  username: z.string().min(1).optional(),
  resetUrl: z.url(),
  expiresInMinutes: z.number().int().positive(),
});

/**
 * What changed in a user's sign-in (issue 22 item 12, docs/adr/0030): their password was reset
 * with an e-mailed link, changed by themselves or by an admin, or their two-factor turned on or
 * off. The e-mail tells them when, and what to do if it was not them.
 */
const ACCOUNT_SECURITY_CHANGES = ['password_reset', 'password_changed', 'password_set_by_admin', 'two_factor_on', 'two_factor_off', 'two_factor_reset_by_admin'] as const;

export type AccountSecurityChange = (typeof ACCOUNT_SECURITY_CHANGES)[number];

/** Tell a user that their password or two-factor changed (never the password, never a code). */
const emailAccountSecurityV1 = z.object({
  to: z.email(),
  /** How the mail greets the user: their first name, else their username. */
  name: z.string().min(1),
  username: z.string().min(1),
  change: z.enum(ACCOUNT_SECURITY_CHANGES),
  /** When it happened (ISO 8601). */
  changedAt: z.iso.datetime({ offset: true }),
});

/** Welcome a user whose account a survey created, with how to log in. */
const emailWelcomeV1 = z.object({
  to: z.email(),
  firstName: z.string(),
  username: z.string().min(1),
  loginUrl: z.url(),
  /** The brand of the survey they signed up through (absent: WarmLine); the mail is in its name. */
  brand: z.enum(['WarmLine', 'RingCloud']).optional(),
});

/**
 * Tell the sales team of a survey sign-up, with everything the agent answered (not the
 * password), so someone contacts them within 24 hours.
 */
const emailSurveySalesNoticeV1 = z.object({
  /** The sales team's inbox. */
  to: z.email(),
  responseId: z.uuid(),
  userId: z.uuid(),
  funnel: z.enum(SURVEY_FUNNEL_IDS),
  /** The referring salesperson of a referral survey. */
  salesperson: z.object({ slug: z.string().min(1), displayName: z.string().min(1) }).optional(),
  agent: z.object({
    firstName: z.string(),
    lastName: z.string(),
    agencyName: z.string(),
    role: z.string(),
    phone: z.string(),
    email: z.email(),
    username: z.string(),
  }),
  answers: z.object({
    leadType: z.string().min(1),
    workingStates: z.string(),
    totalTransfers: z.number().int().optional(),
    transfersPerDay: z.number().int().optional(),
    callsPerDay: z.number().int().optional(),
    transferHours: z.string().optional(),
    totalCallbacks: z.number().int().optional(),
    callbackPreference: z.string().optional(),
    ageRange: z.string().optional(),
    timezone: z.string().optional(),
  }),
  /** What the answers price to (the second brand's and referral funnels); null otherwise. */
  estimatedOrderCents: z.number().int().nonnegative().nullable(),
});

/** Tell the recruiting team that an agent asked for help recruiting agents (dashboard). */
const emailRecruitingRequestV1 = z.object({
  /** The recruiting team's inbox. */
  to: z.email(),
  requestId: z.uuid(),
  receivedAt: z.iso.datetime({ offset: true }),
  agentsNeeded: z.number().int().positive(),
  needs: z.string(),
  agent: z.object({
    userId: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    agencyName: z.string(),
    username: z.string(),
    /** Where the agent asked to be answered (the form's address, not necessarily the account's). */
    email: z.email(),
    phone: z.string(),
  }),
});

/**
 * Record one admin action in the audit log (issue 12). The gateway stores these (its own admin
 * actions it writes directly, in the same transaction); other services send this command from
 * their outbox in the transaction of the action, so the log is one list. Never editable.
 */
const auditRecordV1 = z.object({
  /** The admin who acted (a user id), and their username at the time. */
  actorId: z.uuid(),
  actorUsername: z.string().min(1).max(200),
  /** What was done, dotted lower case: 'user.price_changed', 'transfer_order.status_changed', 'order.refunded', 'campaign.created', ... */
  action: z.string().regex(/^[a-z_]+(\.[a-z_]+)+$/).max(100),
  /** What it was done to. */
  subjectType: z.string().min(1).max(50),
  subjectId: z.string().min(1).max(200),
  /** A human label of the subject at the time, e.g. 'Dana Cole (dana@example.com)'. */
  subjectLabel: z.string().max(300).optional(),
  /** The values before and after (only the fields that changed; never a password or secret). */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().max(500).optional(),
  /** When the action happened (not when the command arrived). */
  at: z.iso.datetime(),
});

export const accountEvents = {
  'account.registered': { 1: accountRegisteredV1 },
  'survey.submitted': { 1: surveySubmittedV1 },
  'user.deleted': { 1: userDeletedV1 },
  'user.price_changed': { 1: userPriceChangedV1 },
  'password_reset.completed': { 1: passwordResetCompletedV1 },
} as const;

export const accountCommands = {
  'email.send': { 1: emailSendV1 },
  'email.password_reset': { 1: emailPasswordResetV1 },
  'email.welcome': { 1: emailWelcomeV1 },
  'email.account_security': { 1: emailAccountSecurityV1 },
  'email.survey_sales_notice': { 1: emailSurveySalesNoticeV1 },
  'email.recruiting_request': { 1: emailRecruitingRequestV1 },
  'audit.record': { 1: auditRecordV1 },
} as const;
