import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_CALL_HEADER } from '@warmline/platform';
import { signTestServiceCall } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * GET /internal/users/:id carries what the latest survey says about delivering transfers (issue
 * 23): the transfers service suggests an agent's zone and daily cap from it.
 */

let gw: GatewayFixture;

beforeAll(async () => {
  gw = await startGatewayFixture();
});

afterAll(async () => {
  await gw?.cleanup();
});

async function profileOf(user: { id: string; username: string }): Promise<Record<string, unknown>> {
  const answer = await fetch(new URL(`/internal/users/${user.id}`, gw.internalUrl), {
    headers: { [SERVICE_CALL_HEADER]: signTestServiceCall('transfers', 'gateway') },
  });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

async function survey(user: { id: string; email: string; username: string }, answers: { timezone: string | null; transfersPerDay: number | null; callsPerDay: number | null; at: string }) {
  await gw.pool.query(
    `INSERT INTO survey_responses (user_id, funnel, brand, salesperson, first_name, last_name, agency_name, role, phone, email,
                                   username, lead_type, working_states, timezone, transfers_per_day, calls_per_day, created_at)
     VALUES ($1, 'ringcloud', 'RingCloud', 'RingCloud', 'Avery', 'Agent', 'Agency', 'Insurance Agent', '5125550100', $2, $3,
             'Live Transfers', 'Texas', $4, $5, $6, $7)`,
    [user.id, user.email, user.username, answers.timezone, answers.transfersPerDay, answers.callsPerDay, answers.at],
  );
}

describe("the internal user endpoint's survey answers for transfers", () => {
  it("when the latest survey names a zone and transfers per day, then the answer carries them (the latest survey's)", async () => {
    const { user } = await gw.createAgent();
    await survey(user, { timezone: 'EST', transfersPerDay: 3, callsPerDay: 20, at: '2026-01-01T00:00:00Z' });
    await survey(user, { timezone: 'CST', transfersPerDay: 8, callsPerDay: 40, at: '2026-02-01T00:00:00Z' });

    const profile = await profileOf(user);

    expect(profile).toMatchObject({ surveyTimeZone: 'CST', callsPerDay: 8, workingStates: ['TX'] });
  });

  it('when the survey asked no transfers per day, then its calls per day are given', async () => {
    const { user } = await gw.createAgent();
    await survey(user, { timezone: null, transfersPerDay: null, callsPerDay: 12, at: '2026-02-01T00:00:00Z' });

    const profile = await profileOf(user);

    expect(profile.callsPerDay).toBe(12);
    expect(profile).not.toHaveProperty('surveyTimeZone');
  });

  it('when there is no survey, then neither is in the answer', async () => {
    const { user } = await gw.createAgent();

    const profile = await profileOf(user);

    expect(profile).not.toHaveProperty('surveyTimeZone');
    expect(profile).not.toHaveProperty('callsPerDay');
  });
});
