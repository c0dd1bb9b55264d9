import type { Queryable } from '@warmline/platform';

/** Queries of `recruiting_requests` (the Insurance Recruiting view's requests). */

export interface NewRecruitingRequest {
  userId: string;
  firstName: string;
  lastName: string;
  agencyName: string;
  email: string;
  phone: string;
  needs: string;
  agentsNeeded: number;
}

export interface RecruitingRequestRecord extends NewRecruitingRequest {
  id: string;
  createdAt: Date;
}

export async function insertRecruitingRequest(db: Queryable, r: NewRecruitingRequest): Promise<RecruitingRequestRecord> {
  const { rows } = await db.query<RecruitingRequestRecord>(
    `INSERT INTO recruiting_requests (user_id, first_name, last_name, agency_name, email, phone, needs, agents_needed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     RETURNING id, user_id AS "userId", first_name AS "firstName", last_name AS "lastName", agency_name AS "agencyName",
               email, phone, needs, agents_needed AS "agentsNeeded", created_at AS "createdAt"`,
    [r.userId, r.firstName, r.lastName, r.agencyName, r.email, r.phone, r.needs, r.agentsNeeded],
  );
  return rows[0]!;
}
