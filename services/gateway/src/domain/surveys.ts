import {
  EMAIL_TAKEN_MESSAGE,
  SURVEY_FUNNELS,
  USERNAME_TAKEN_MESSAGE,
  campaignOrderFor,
  formatUsd,
  type PublicSalesperson,
  type SavedSurvey,
  type SurveyResponseRecord,
  type SurveySubmission,
  type SurveySubmittedAnswer,
} from '@warmline/contracts';
import { conflict, notFound, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { findSalespersonBySlug, type SalespersonRecord } from '../db/salespeople';
import { findLatestSurveyOfUser, insertSurveyResponse, listResponsesOfSalesperson } from '../db/survey-responses';
import { findUserByEmail, findUserByUsername, insertUser, isUniqueViolation } from '../db/users';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import type { ThrottleRule } from './throttle';

/** The survey funnels (spec §2): each submission creates an account and stores the answers. */

export interface SurveysContext extends AccountsContext {
  /** Where the new-account sales notice goes. */
  salesTeamEmail: string;
}

export const SURVEY_NOT_FOUND = 'Survey not found';
export const SALESPERSON_NOT_FOUND = 'Salesperson not found';

/**
 * A 409 names which account field is taken (spec: the user must be able to fix it), which also
 * tells a prober that the username or address exists; so conflicts are counted per IP.
 */
export const SURVEY_CONFLICTS_PER_IP: ThrottleRule = { name: 'survey-conflict-ip', limit: 20, windowSeconds: 15 * 60 };
const tooManyConflicts = (minutes: number) =>
  `Too many sign-up attempts with taken usernames or emails. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

export type SurveySource =
  | { funnel: 'main' }
  | { funnel: 'ringcloud' }
  | { funnel: 'referral'; salesperson: SalespersonRecord };

/** The salesperson whose referral survey is open at /{slug}; inactive or unknown → 404. */
export async function openReferralSalesperson(ctx: AccountsContext, slug: string): Promise<SalespersonRecord> {
  const salesperson = await findSalespersonBySlug(ctx.pool, slug);
  if (!salesperson || !salesperson.active) throw notFound(SURVEY_NOT_FOUND);
  return salesperson;
}

export async function publicSalesperson(ctx: AccountsContext, slug: string): Promise<PublicSalesperson> {
  const salesperson = await findSalespersonBySlug(ctx.pool, slug);
  if (!salesperson || !salesperson.active) throw notFound(SALESPERSON_NOT_FOUND);
  return { slug: salesperson.slug, displayName: salesperson.displayName };
}

/**
 * Submits a survey: creates the account (argon2id, as every account) and stores the answers
 * in one transaction, with `account.registered`, `survey.submitted`, the sales team's notice
 * and the agent's welcome e-mail in the outbox. A taken username or e-mail leaves nothing behind.
 */
export async function submitSurvey(
  ctx: SurveysContext,
  source: SurveySource,
  answers: SurveySubmission,
  origin: RequestOrigin,
): Promise<SurveySubmittedAnswer> {
  const funnel = SURVEY_FUNNELS[source.funnel];
  const salesperson = source.funnel === 'referral' ? source.salesperson.displayName : funnel.salesperson!;
  const conflictHits: Array<[ThrottleRule, string]> = [[SURVEY_CONFLICTS_PER_IP, origin.ip]];
  await ctx.throttle.assertAllowed(conflictHits, tooManyConflicts);

  // Answer a taken name before spending an argon2 hash on it; the unique indexes still decide.
  const taken = await takenField(ctx, answers);
  if (taken) {
    await ctx.throttle.record(conflictHits);
    throw taken;
  }

  const { password, ...stored } = answers;
  const passwordHash = await hashPassword(password);
  const order = source.funnel === 'main' ? null : campaignOrderFor(answers);
  const totalPriceCents = order?.ok ? order.quote.amountCents : null;

  try {
    return await withTransaction(ctx.pool, async (db) => {
      const user = await insertUser(db, {
        username: answers.username,
        email: answers.email,
        firstName: answers.firstName,
        lastName: answers.lastName,
        phone: answers.phone,
        agencyName: answers.agencyName,
        role: answers.role,
        passwordHash,
      });
      const response = await insertSurveyResponse(db, {
        userId: user.id,
        funnel: funnel.id,
        brand: funnel.brand,
        salesperson,
        salespersonId: source.funnel === 'referral' ? source.salesperson.id : null,
        answers: stored,
        totalPriceCents,
      });
      const common = { source: SOURCE, correlationId: origin.correlationId };
      await enqueue(db, {
        ...common,
        type: 'account.registered',
        data: { userId: user.id, username: user.username, email: user.email, role: user.role },
      });
      await enqueue(db, {
        ...common,
        type: 'survey.submitted',
        data: { responseId: response.id, userId: user.id, brand: funnel.brand, salesperson, leadType: answers.leadType },
      });
      await enqueue(db, {
        ...common,
        type: 'email.send',
        data: {
          to: ctx.salesTeamEmail,
          subject: oneLine(`New ${funnelName(source)} sign-up: ${answers.firstName} ${answers.lastName} (${answers.agencyName})`),
          template: 'survey-sales-notice',
          text: salesNoticeText(source, stored, totalPriceCents),
        },
      });
      await enqueue(db, {
        ...common,
        type: 'email.send',
        data: {
          to: user.email,
          subject: 'Welcome to WarmLine: your account is ready',
          template: 'welcome',
          text: welcomeText(answers, `${ctx.publicUrl.replace(/\/+$/, '')}/login`),
        },
      });
      return { message: 'Survey submitted', responseId: response.id, userId: user.id, totalPrice: totalPriceCents };
    });
  } catch (err) {
    // Someone took the name between the check and the insert.
    const raced = conflictFromUniqueViolation(err);
    if (raced) {
      await ctx.throttle.record(conflictHits);
      throw raced;
    }
    throw err;
  }
}

/** The logged-in user's latest survey, or null when they never filled one in. */
export async function savedSurveyOf(ctx: AccountsContext, userId: string): Promise<SavedSurvey | null> {
  return findLatestSurveyOfUser(ctx.pool, userId);
}

/** A salesperson's responses (the admin's Test Campaigns); the caller checked the admin flag. */
export async function responsesOfSalesperson(ctx: AccountsContext, slug: string): Promise<SurveyResponseRecord[]> {
  const salesperson = await findSalespersonBySlug(ctx.pool, slug);
  if (!salesperson) throw notFound(SALESPERSON_NOT_FOUND);
  return listResponsesOfSalesperson(ctx.pool, salesperson.id);
}

async function takenField(ctx: AccountsContext, answers: SurveySubmission) {
  if (await findUserByUsername(ctx.pool, answers.username)) {
    return conflict(USERNAME_TAKEN_MESSAGE, { field: 'username' });
  }
  if (await findUserByEmail(ctx.pool, answers.email)) {
    return conflict(EMAIL_TAKEN_MESSAGE, { field: 'email' });
  }
  return null;
}

function conflictFromUniqueViolation(err: unknown) {
  if (!isUniqueViolation(err)) return null;
  const constraint = (err as { constraint?: string }).constraint ?? '';
  if (constraint.includes('username')) return conflict(USERNAME_TAKEN_MESSAGE, { field: 'username' });
  if (constraint.includes('email')) return conflict(EMAIL_TAKEN_MESSAGE, { field: 'email' });
  return null;
}

function funnelName(source: SurveySource): string {
  if (source.funnel === 'main') return 'survey';
  if (source.funnel === 'ringcloud') return 'RingCloud survey';
  return `referral survey (${source.salesperson.displayName})`;
}

function funnelDescription(source: SurveySource): string {
  if (source.funnel === 'main') return 'Main survey (/survey), marker Survey Form';
  if (source.funnel === 'ringcloud') return 'RingCloud survey (/ringcloud), marker RingCloud; the customer goes on to the card checkout';
  return `Referral survey of ${source.salesperson.displayName} (/${source.salesperson.slug})`;
}

/** Subjects are one line: a name typed with a line break cannot add e-mail headers. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, 200);
}

function salesNoticeText(
  source: SurveySource,
  answers: Omit<SurveySubmission, 'password'>,
  totalPriceCents: number | null,
): string {
  const rows: Array<[string, string | number | undefined]> = [
    ['Funnel', funnelDescription(source)],
    ['Name', `${answers.firstName} ${answers.lastName}`],
    ['Agency', answers.agencyName],
    ['Role', answers.role],
    ['Phone', answers.phone],
    ['Email', answers.email],
    ['Username', answers.username],
    ['Lead type', answers.leadType],
    ['Working states', answers.workingStates],
    ['Total transfers', answers.totalTransfers],
    ['Transfers per day', answers.transfersPerDay],
    ['Calls per day', answers.callsPerDay],
    ['Transfer hours', answers.transferHours],
    [answers.leadType === 'Insurance Recruiting' ? 'Agents needed' : 'Total callbacks', answers.totalCallbacks],
    [answers.leadType === 'Insurance Recruiting' ? 'Preferences' : 'Callback preference', answers.callbackPreference],
    ['Age range (days)', answers.ageRange],
    ['Timezone', answers.timezone],
    ['Estimated order', totalPriceCents === null ? undefined : formatUsd(totalPriceCents)],
  ];
  return [
    'A new account was created from a survey. Please contact them within 24 hours to confirm their preferences and pricing.',
    '',
    ...rows.filter(([, value]) => value !== undefined && value !== '').map(([label, value]) => `${label}: ${value}`),
  ].join('\n');
}

function welcomeText(answers: SurveySubmission, loginLink: string): string {
  return [
    `Hello ${answers.firstName},`,
    '',
    'Thank you for completing our survey. Your WarmLine account has been created.',
    `Log in with your username "${answers.username}" and the password you chose:`,
    '',
    loginLink,
    '',
    'Our team will contact you within 24 hours to confirm your preferences and pricing.',
  ].join('\n');
}
