import { randomBytes } from 'node:crypto';

/**
 * Survey answers for tests (data factory): the gateway owns the surveys, and its suites and the
 * ones that sign an agent up through it (orders) build their bodies here instead of copying one.
 */

/** The password the factory gives new accounts: one the password rules accept. */
const SURVEY_PASSWORD = 'sunny-harbor-42';

/** Who fills the survey in; the username and e-mail are `<stem>_<8 hex>`, unique per call. */
export interface Respondent {
  firstName: string;
  lastName: string;
  agencyName: string;
  phone: string;
  role?: string;
  stem: string;
}

export const SAM_RIVERA: Respondent = { firstName: 'Sam', lastName: 'Rivera', agencyName: 'Rivera Insurance', phone: '(555) 123-4567', stem: 'sam' };
export const DANA_COLE: Respondent = { firstName: 'Dana', lastName: 'Cole', agencyName: 'Cole Insurance', phone: '(555) 777-0101', stem: 'dana' };

export type SurveyAnswers = Record<string, unknown> & { username: string; email: string; password: string };

/**
 * A valid main survey for live transfers in Texas, from the survey form, with `answers` on top
 * (an answer given as undefined leaves that field out of the JSON body).
 */
export function surveyAnswers(who: Respondent, answers: Record<string, unknown> = {}): SurveyAnswers {
  const tag = randomBytes(4).toString('hex');
  return {
    firstName: who.firstName,
    lastName: who.lastName,
    agencyName: who.agencyName,
    role: who.role ?? 'Agency Owner',
    phone: who.phone,
    email: `${who.stem}_${tag}@example.com`,
    username: `${who.stem}_${tag}`,
    password: SURVEY_PASSWORD,
    leadType: 'Live Transfers',
    workingStates: 'TX',
    salesperson: 'Survey Form',
    ...answers,
  } as SurveyAnswers;
}
