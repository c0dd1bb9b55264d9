import type { Queryable } from '@warmline/platform';
import { escapeLike } from './users';

/**
 * The gateway's part of the customer search (issue 12): live users and survey responses whose
 * name, agency, e-mail, username or phone digits contain the text, any case. `exact` marks an
 * e-mail, username or phone equal to it; those come first, then the newest.
 */

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

/** The WHERE and exactness of one table's search, over its own column names. */
function matching(text: string): { params: unknown[]; where: string; exact: string } {
  const digits = text.replace(/\D/g, '');
  return {
    params: [`%${escapeLike(text)}%`, text.toLowerCase(), digits.length >= 3 ? digits : ''],
    where: `((first_name || ' ' || last_name) ILIKE $1 ESCAPE '\\' OR agency_name ILIKE $1 ESCAPE '\\'
             OR email ILIKE $1 ESCAPE '\\' OR username ILIKE $1 ESCAPE '\\'
             OR ($3 <> '' AND regexp_replace(phone, '\\D', '', 'g') LIKE '%' || $3 || '%'))`,
    exact: `(lower(email) = $2 OR lower(username) = $2 OR ($3 <> '' AND regexp_replace(phone, '\\D', '', 'g') = $3))`,
  };
}

const PERSON = `id, first_name AS "firstName", last_name AS "lastName", agency_name AS "agencyName", email, phone, role,
  username, created_at AS "createdAt"`;

export async function searchUsers(db: Queryable, text: string, limit: number): Promise<UserMatch[]> {
  const m = matching(text);
  const { rows } = await db.query<UserMatch>(
    `SELECT ${PERSON}, ${m.exact} AS exact FROM users
      WHERE deleted_at IS NULL AND ${m.where}
      ORDER BY exact DESC, created_at DESC LIMIT $4`,
    [...m.params, limit],
  );
  return rows;
}

export async function searchSurveyResponses(db: Queryable, text: string, limit: number): Promise<SurveyMatch[]> {
  const m = matching(text);
  const { rows } = await db.query<SurveyMatch>(
    `SELECT ${PERSON}, lead_type AS "leadType", salesperson, ${m.exact} AS exact FROM survey_responses
      WHERE ${m.where}
      ORDER BY exact DESC, created_at DESC LIMIT $4`,
    [...m.params, limit],
  );
  return rows;
}
