import type { CustomerSearchTerms } from '@warmline/contracts';
import type { Queryable } from '@warmline/platform';

/**
 * The gateway's part of the customer search (issue 12): live users and survey responses whose
 * name, agency, e-mail, username or phone digits contain the text, any case. Exact matches
 * (e-mail, username, phone digits equal to it) are read first and marked `exact`, then the
 * others, each newest first.
 *
 * The two expressions below are those of migrations/1766000000100_customer-search-indexes.sql:
 * PostgreSQL uses an expression index only for the same expression. The fields are joined by a newline, which no search text holds, so a match never
 * spans two fields (but "dana cole" still finds Dana Cole).
 */
const SEARCH_TEXT = `(first_name || ' ' || last_name || E'\\n' || agency_name || E'\\n' || email || E'\\n' || username)`;
const PHONE_DIGITS = `regexp_replace(phone, '\\D', '', 'g')`;

export interface UserMatch {
  id: string;
  firstName: string;
  lastName: string;
  agencyName: string;
  email: string;
  phone: string;
  role: string;
  username: string;
  createdAt: Date;
  exact: boolean;
}

export interface SurveyMatch extends UserMatch {
  leadType: string;
  salesperson: string;
}

/**
 * "Contains" matches are found one of two ways, chosen by how many there are, not by the
 * planner's estimate of it: fewer than RARE_MATCHES are all read (from the trigram indexes, for
 * a rare text) and sorted: a full name, an e-mail, a phone, a few dozen rows. A text found more
 * often is read as before issue 27, the planner walking the newest rows until `limit` match
 * ('gmail': a few hundred rows); its estimate is sound for such a text. The planner alone walked
 * for some full names whose count it overestimated twentyfold from the statistics' histogram,
 * and then read every row (0.3–1.2 s at 100,000 survey responses; issue 27, docs/adr/0053).
 * Either way the answer is the same: the newest `limit` matches. Small, because a frequent text
 * reads this many matches before its walk, and the planner may read them with a sequential scan.
 */
export const RARE_MATCHES = 100;

/**
 * One statement: the exact matches (btree indexes on lower(email), lower(username), the phone
 * digits), then the other matches, each newest first and at most `limit`.
 */
function searchSql(table: string, columns: string, live: string, terms: CustomerSearchTerms, limit: number): { text: string; values: unknown[] } {
  const values: unknown[] = [terms.lowered, terms.containsPattern, limit];
  let exact = `lower(email) = $1 OR lower(username) = $1`;
  let contains = `${SEARCH_TEXT} ILIKE $2 ESCAPE '\\'`;
  if (terms.phoneDigits) {
    values.push(terms.phoneDigits, `%${terms.phoneDigits}%`);
    exact += ` OR ${PHONE_DIGITS} = $4`;
    contains += ` OR ${PHONE_DIGITS} LIKE $5`;
  }
  const others = `${live} (${contains}) AND NOT (${exact})`;
  // `rare` holds every other match when there are fewer than RARE_MATCHES (its count says so);
  // the two halves after it are gated on that count, so only one of them runs.
  return {
    text: `WITH rare AS MATERIALIZED (SELECT ${columns} FROM ${table} WHERE ${others} LIMIT ${RARE_MATCHES})
           (SELECT ${columns}, true AS exact FROM ${table} WHERE ${live} (${exact}) ORDER BY created_at DESC LIMIT $3)
           UNION ALL
           (SELECT *, false AS exact FROM rare WHERE (SELECT count(*) FROM rare) < ${RARE_MATCHES} ORDER BY "createdAt" DESC LIMIT $3)
           UNION ALL
           (SELECT ${columns}, false AS exact FROM ${table} WHERE ${others} AND (SELECT count(*) FROM rare) >= ${RARE_MATCHES}
             ORDER BY created_at DESC LIMIT $3)`,
    values,
  };
}

const PERSON = `id, first_name AS "firstName", last_name AS "lastName", agency_name AS "agencyName", email, phone, role,
  username, created_at AS "createdAt"`;

/** Live users only: a deleted account is gone from every list. */
export async function searchUsers(db: Queryable, terms: CustomerSearchTerms, limit: number): Promise<UserMatch[]> {
  const { text, values } = searchSql('users', PERSON, 'deleted_at IS NULL AND', terms, limit);
  return (await db.query<UserMatch>(text, values)).rows;
}

export async function searchSurveyResponses(db: Queryable, terms: CustomerSearchTerms, limit: number): Promise<SurveyMatch[]> {
  const { text, values } = searchSql('survey_responses', `${PERSON}, lead_type AS "leadType", salesperson`, '', terms, limit);
  return (await db.query<SurveyMatch>(text, values)).rows;
}
