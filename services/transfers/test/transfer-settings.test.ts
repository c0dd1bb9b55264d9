import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_SETTINGS_MESSAGES } from '@warmline/contracts';
import { ANONYMOUS } from '@warmline/platform/identity';
import { agent, MON_FRI_9_TO_5, profileOf, startLedgerFixture, type LedgerFixture } from './ledger-fixture';

/**
 * Delivery settings (issue 23 §2): every field validated and named, saved on the agent, and
 * before the first save suggested from the survey and the latest transfer order — even when
 * the gateway or orders cannot answer.
 */

let fx: LedgerFixture;

beforeAll(async () => {
  fx = await startLedgerFixture();
});

afterAll(async () => {
  await fx?.cleanup();
});

const SETTINGS = {
  transferPhone: '(512) 555-0143',
  states: ['tx', 'OK', 'TX'],
  timeZone: 'America/Chicago',
  hours: [
    { day: 'mon', from: '09:00', to: '12:00' },
    { day: 'mon', from: '13:00', to: '17:00' },
    { day: 'sat', from: '10:00', to: '14:00' },
  ],
  dailyCap: 8,
  atOnce: 2,
  paused: false,
};

describe('saving delivery settings', () => {
  it('when every field is missing or wrong, then it answers 400 naming each field with its message, and nothing is saved', async () => {
    const me = agent();

    const empty = await fx.call('PUT', '/api/my-transfers/settings', { body: {}, identity: me });
    const wrong = await fx.call('PUT', '/api/my-transfers/settings', {
      body: { transferPhone: '555-01', states: ['ZZ'], timeZone: 'Europe/Paris', hours: [{ day: 'mon', from: '17:00', to: '09:00' }], dailyCap: 0, atOnce: 2.5, paused: 'yes' },
      identity: me,
    });

    expect(empty.status).toBe(400);
    const emptyPaths = (empty.body.issues as Array<{ path: string; message: string }>).map((i) => i.path);
    expect(emptyPaths).toEqual(expect.arrayContaining(['transferPhone', 'states', 'timeZone', 'hours', 'dailyCap']));
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'transferPhone', message: TRANSFER_SETTINGS_MESSAGES.transferPhone },
        { path: 'states', message: TRANSFER_SETTINGS_MESSAGES.states },
        { path: 'timeZone', message: TRANSFER_SETTINGS_MESSAGES.timeZone },
        { path: 'hours.0.to', message: TRANSFER_SETTINGS_MESSAGES.hours },
        { path: 'dailyCap', message: TRANSFER_SETTINGS_MESSAGES.dailyCap },
        { path: 'atOnce', message: TRANSFER_SETTINGS_MESSAGES.atOnce },
        { path: 'paused', message: TRANSFER_SETTINGS_MESSAGES.paused },
      ]),
    );
    const { rows } = await fx.pool.query('SELECT 1 FROM agents WHERE user_id = $1', [me.userId]);
    expect(rows).toHaveLength(0);
  });

  it('when hours of one day overlap, then it answers 400 on hours', async () => {
    const answer = await fx.call('PUT', '/api/my-transfers/settings', {
      body: { ...SETTINGS, hours: [{ day: 'tue', from: '09:00', to: '13:00' }, { day: 'tue', from: '12:00', to: '17:00' }] },
      identity: agent(),
    });

    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([{ path: 'hours', message: TRANSFER_SETTINGS_MESSAGES.hoursOverlap }]);
  });

  it('when the settings are valid, then they are saved as given (phone as digits, states sorted once), with the name the vendor is told', async () => {
    const me = agent();
    fx.profiles.set(me.userId!, profileOf({ firstName: 'Dana', lastName: 'Cole' }));

    const saved = await fx.call('PUT', '/api/my-transfers/settings', { body: SETTINGS, identity: me });
    const read = await fx.call('GET', '/api/my-transfers/settings', { identity: me });

    expect(saved.status).toBe(200);
    const expected = {
      saved: true,
      transferPhone: '5125550143',
      states: ['OK', 'TX'],
      timeZone: 'America/Chicago',
      timeZoneName: 'Central Time',
      hours: SETTINGS.hours,
      dailyCap: 8,
      atOnce: 2,
      paused: false,
    };
    expect(saved.body).toEqual(expected);
    expect(read.body).toEqual(expected);
    const { rows } = await fx.pool.query('SELECT display_name AS name, settings_saved_at IS NOT NULL AS saved FROM agents WHERE user_id = $1', [me.userId]);
    expect(rows[0]).toEqual({ name: 'Dana Cole', saved: true });
  });

  it('when the agent pauses and resumes, then only paused changes; a wrong body is 400 naming paused', async () => {
    const me = agent();
    await fx.call('PUT', '/api/my-transfers/settings', { body: SETTINGS, identity: me });

    const paused = await fx.call('PATCH', '/api/my-transfers/pause', { body: { paused: true }, identity: me });
    expect(paused.body).toMatchObject({ saved: true, paused: true, dailyCap: 8 });
    expect((await fx.call('GET', '/api/my-transfers/settings', { identity: me })).body.paused).toBe(true);
    const resumed = await fx.call('PATCH', '/api/my-transfers/pause', { body: { paused: false }, identity: me });
    expect(resumed.body.paused).toBe(false);

    const wrong = await fx.call('PATCH', '/api/my-transfers/pause', { body: { paused: 'no' }, identity: me });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'paused', message: TRANSFER_SETTINGS_MESSAGES.paused }]);
  });

  it('when nobody is logged in, then every settings route answers 401', async () => {
    expect((await fx.call('GET', '/api/my-transfers/settings', { identity: ANONYMOUS })).status).toBe(401);
    expect((await fx.call('PUT', '/api/my-transfers/settings', { body: SETTINGS, identity: ANONYMOUS })).status).toBe(401);
    expect((await fx.call('PATCH', '/api/my-transfers/pause', { body: { paused: true }, identity: ANONYMOUS })).status).toBe(401);
  });
});

describe('suggested settings before the first save', () => {
  it("when the survey names a zone, states and calls per day and an order names a phone and hours, then they are suggested (saved: false)", async () => {
    const me = agent();
    fx.profiles.set(me.userId!, profileOf({ workingStates: ['UT', 'CO'], surveyTimeZone: 'MST', callsPerDay: 12 }));
    fx.latestOrders.set(me.userId!, { transferPhone: '(405) 555-0199', callsPerDay: 5, transferHours: '10am-6pm', states: ['TX'] });

    const answer = await fx.call('GET', '/api/my-transfers/settings', { identity: me });

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      saved: false,
      transferPhone: '4055550199',
      states: ['CO', 'UT'],
      timeZone: 'America/Denver',
      timeZoneName: 'Mountain Time',
      hours: MON_FRI_9_TO_5.map((h) => ({ ...h, from: '10:00', to: '18:00' })),
      dailyCap: 12,
      atOnce: 1,
      paused: false,
    });
  });

  it("when the survey says nothing, then the latest order's states, its zone from the first state and its calls per day are suggested", async () => {
    const me = agent();
    fx.profiles.set(me.userId!, profileOf({ phone: '(305) 555-0111' }));
    fx.latestOrders.set(me.userId!, { transferPhone: 'ask me', callsPerDay: 5, transferHours: 'whenever', states: ['FL', 'GA'] });

    const answer = await fx.call('GET', '/api/my-transfers/settings', { identity: me });

    expect(answer.body).toMatchObject({
      saved: false,
      transferPhone: '3055550111',
      states: ['FL', 'GA'],
      timeZone: 'America/New_York',
      timeZoneName: 'Eastern Time',
      hours: MON_FRI_9_TO_5,
      dailyCap: 5,
      atOnce: 1,
    });
  });

  it('when the gateway and orders cannot answer, then it still answers with Mon–Fri 9–5 and one at once', async () => {
    const me = agent();
    fx.outages.gateway = true;
    fx.outages.orders = true;
    try {
      const answer = await fx.call('GET', '/api/my-transfers/settings', { identity: me });

      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ saved: false, transferPhone: '', states: [], hours: MON_FRI_9_TO_5, atOnce: 1, paused: false });
      expect(answer.body.timeZone).toBe('America/Chicago');
    } finally {
      fx.outages.gateway = false;
      fx.outages.orders = false;
    }
  });

  it('when the gateway is down while saving, then the settings are saved without a name', async () => {
    const me = agent();
    fx.outages.gateway = true;
    try {
      const answer = await fx.call('PUT', '/api/my-transfers/settings', { body: SETTINGS, identity: me });

      expect(answer.status).toBe(200);
      expect(answer.body.saved).toBe(true);
    } finally {
      fx.outages.gateway = false;
    }
  });
});
