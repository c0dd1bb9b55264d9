import type { KeyObject } from 'node:crypto';
import {
  EMAIL_TAKEN_MESSAGE,
  SURVEY_FUNNELS,
  USERNAME_TAKEN_MESSAGE,
  campaignOrderFor,
  type PublicSalesperson,
  type SavedSurvey,
  type SurveyResponseRecord,
  type SurveySubmission,
  type SurveySubmittedAnswer,
} from '@warmline/contracts';
import { conflict, notFound, withTransaction } from '@warmline/platform';
import { enqueue } from '@warmline/platform/bus/outbox';
import { signCheckoutToken } from '@warmline/platform/checkout-token';
import { findSalespersonBySlug, type SalespersonRecord } from '../db/salespeople';
import { findLatestSurveyOfUser, insertSurveyResponse } from '../db/survey-responses';
import { listResponsesOfSalesperson } from '../db/read-models/survey-responses';
import { findUserByEmail, findUserByUsername, insertUser, isUniqueViolation } from '../db/users';
import { SOURCE, type AccountsContext, type RequestOrigin } from './context';
import { hashPassword } from './passwords';
import type { ThrottleRule } from '../edge/throttle';

/** The survey funnels (spec §2): each submission creates an account and stores the answers. */

export interface SurveysContext extends AccountsContext {
  /** Where the new-account sales notice goes. */
  salesTeamEmail: string;
  /** Signs the second brand's one-time checkout token (the secret the orders service verifies it with). */
  /** The gateway's private identity key, which signs checkout tokens. */
  identityKey: KeyObject;
}

const SURVEY_NOT_FOUND = 'Survey not found';
const SALESPERSON_NOT_FOUND = 'Salesperson not found';

/**
 * A 409 names which account field is taken (spec: the user must be able to fix it), which also
 * tells a prober that the username or address exists; so conflicts are counted per IP.
 */
const SURVEY_CONFLICTS_PER_IP: ThrottleRule = { name: 'survey-conflict-ip', limit: 20, windowSeconds: 15 * 60 };
const tooManyConflicts = (minutes: number) =>
  `Too many sign-up attempts with taken usernames or emails. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/**
 * Every survey that creates an account sends e-mails to an address the caller chose (the
 * welcome letter), so one address may sign up at most 5 times an hour (issue 11). A survey
 * refused for a taken name does not count here (the conflict limit above covers probing).
 */
const SIGN_UPS_PER_IP: ThrottleRule = { name: 'sign-up-ip', limit: 5, windowSeconds: 60 * 60 };
const TOO_MANY_SIGN_UPS = 'Too many sign-ups from this address; try again later';

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
  // The marker stored with the response (spec §7): the funnel's, or the referring salesperson's name.
  const salesperson = source.funnel === 'referral' ? source.salesperson.displayName : funnel.salesperson!;
  const referrer = source.funnel === 'referral' ? source.salesperson : null;
  const conflictHits: Array<[ThrottleRule, string]> = [[SURVEY_CONFLICTS_PER_IP, origin.ip]];
  await ctx.throttle.assertAllowed(conflictHits, tooManyConflicts);

  // Answer a taken name before spending an argon2 hash on it; the unique indexes still decide.
  const taken = await takenField(ctx, answers);
  if (taken) {
    await ctx.throttle.record(conflictHits);
    throw taken;
  }

  // Counted atomically before the hash, so a burst of surveys cannot all pass the limit.
  const signUpHits: Array<[ThrottleRule, string]> = [[SIGN_UPS_PER_IP, origin.ip]];
  await ctx.throttle.consume(signUpHits, () => TOO_MANY_SIGN_UPS);

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
      await enqueue(db, { ...common, type: 'account.registered', data: { userId: user.id, role: user.role } });
      await enqueue(db, {
        ...common,
        type: 'survey.submitted',
        data: {
          responseId: response.id,
          userId: user.id,
          brand: funnel.brand,
          funnel: funnel.id,
          salespersonId: referrer?.id ?? null,
          leadType: answers.leadType,
        },
      });
      const { firstName, lastName, agencyName, role, phone, email, username, ...surveyAnswers } = stored;
      await enqueue(db, {
        ...common,
        type: 'email.survey_sales_notice',
        data: {
          to: ctx.salesTeamEmail,
          responseId: response.id,
          userId: user.id,
          funnel: funnel.id,
          ...(referrer ? { salesperson: { slug: referrer.slug, displayName: referrer.displayName } } : {}),
          agent: { firstName, lastName, agencyName, role, phone, email, username },
          answers: surveyAnswers,
          estimatedOrderCents: totalPriceCents,
        },
      });
      await enqueue(db, {
        ...common,
        type: 'email.welcome',
        data: {
          to: user.email,
          firstName: answers.firstName,
          username: answers.username,
          loginUrl: `${ctx.publicUrl.replace(/\/+$/, '')}/login`,
          // The second brand's sign-ups are welcomed in its name.
          brand: funnel.brand,
        },
      });
      return {
        message: 'Survey submitted',
        responseId: response.id,
        userId: user.id,
        totalPrice: totalPriceCents,
        // The second brand's checkout follows at once without a session: this links it to the new account.
        ...(source.funnel === 'ringcloud'
          ? { checkoutToken: signCheckoutToken(ctx.identityKey, { userId: user.id, purpose: 'ringcloud-checkout' }) }
          : {}),
      };
    });
  } catch (err) {
    // Someone took the name between the check and the insert.
    // No account was made: the sign-up is given back.
    await ctx.throttle.refund(SIGN_UPS_PER_IP, origin.ip).catch(() => undefined);
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

/**
 * A login may name a username or an e-mail (any case), so neither may equal any account's
 * username or e-mail: an older username shaped like an address counts as taken for that e-mail.
 */
async function takenField(ctx: AccountsContext, answers: SurveySubmission) {
  if (await findUserByUsername(ctx.pool, answers.username) || await findUserByEmail(ctx.pool, answers.username)) {
    return conflict(USERNAME_TAKEN_MESSAGE, { field: 'username' });
  }
  if (await findUserByEmail(ctx.pool, answers.email) || await findUserByUsername(ctx.pool, answers.email)) {
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
