import { describe, expect, it } from 'vitest';
import {
  EMPTY_SURVEY_FORM,
  SURVEY_STEP2_SCHEMAS,
  SURVEY_SUBMISSION_SCHEMAS,
  campaignOrderFor,
  createPaymentIntentBody,
  isValidSalespersonSlug,
  mainSurveyStep2Schema,
  referralSurveyStep2Schema,
  ringcloudPaymentIntentBody,
  ringcloudSurveyStep2Schema,
  surveyInteger,
  surveyStep1Schema,
} from '../src/index';

/** The survey schemas say what the spec says (§3, §5), for the SPA's wizard and the gateway alike. */

const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

const step1 = {
  firstName: 'Ann',
  lastName: 'Lee',
  agencyName: 'Lee Agency',
  role: 'Insurance Agent',
  phone: '555-123-4567',
  email: 'ann@example.com',
  username: 'annlee',
  password: 'sunny-harbor-42',
};

describe('step 1, Your Information', () => {
  it('when every field is filled in, then it parses (trimmed)', () => {
    expect(surveyStep1Schema.parse({ ...step1, firstName: '  Ann ', email: ' ann@example.com ' })).toEqual(step1);
  });

  it.each([
    [{ firstName: '' }, 'First name is required'],
    [{ firstName: '  ' }, 'First name is required'],
    [{ firstName: undefined }, 'First name is required'],
    [{ lastName: '' }, 'Last name is required'],
    [{ agencyName: '' }, 'Agency name is required'],
    [{ role: '' }, 'Please select your role'],
    [{ role: 'Manager' }, 'Please select your role'],
    [{ phone: '555123456' }, 'Phone number must be at least 10 digits'],
    [{ phone: 'abcdefghijkl' }, 'Phone number must be at least 10 digits'],
    [{ email: 'ann@' }, 'Invalid email address'],
    [{ email: '' }, 'Invalid email address'],
    [{ username: 'an' }, 'Username must be at least 3 characters'],
    [{ username: ' an ' }, 'Username must be at least 3 characters'],
    [{ password: '1234567' }, 'Password must be at least 8 characters'],
    [{ password: 'Password1' }, 'This password is too common'],
  ])('when %j, then it says %s', (override, message) => {
    expect(firstMessage(surveyStep1Schema.safeParse({ ...step1, ...override }))).toBe(message);
  });

  it('when the role is either sign-up role, then it is accepted', () => {
    expect(surveyStep1Schema.parse({ ...step1, role: 'Agency Owner' }).role).toBe('Agency Owner');
    expect(surveyStep1Schema.parse({ ...step1, role: 'Insurance Agent' }).role).toBe('Insurance Agent');
  });
});

describe('step 2, Lead Preferences', () => {
  it('when no lead type is chosen, then the main survey asks for a service type and the others for a lead type', () => {
    expect(firstMessage(mainSurveyStep2Schema.safeParse({ workingStates: 'TX' }))).toBe('Please select a service type');
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ workingStates: 'TX' }))).toBe('Please select a lead type');
    expect(firstMessage(referralSurveyStep2Schema.safeParse({ leadType: '', workingStates: 'TX' }))).toBe('Please select a lead type');
  });

  it("when a lead type of another survey is sent, then it is refused with that survey's message", () => {
    expect(firstMessage(mainSurveyStep2Schema.safeParse({ leadType: 'Call-Backs', workingStates: 'TX' }))).toBe('Please select a service type');
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ leadType: 'Insurance Recruiting', workingStates: 'TX' }))).toBe(
      'Please select a lead type',
    );
  });

  it('when the working states are empty, then it asks for them', () => {
    expect(firstMessage(mainSurveyStep2Schema.safeParse({ leadType: 'Aged Leads', workingStates: ' ' }))).toBe(
      'Please specify your working states',
    );
  });

  it('when counts are typed, then they are parsed as integers and a non-number becomes 0', () => {
    const parsed = mainSurveyStep2Schema.parse({
      leadType: 'Live Transfers',
      workingStates: 'TX',
      totalTransfers: 'abc',
      transfersPerDay: '12abc',
      callsPerDay: 7.9,
      transferHours: '',
    });
    expect(parsed).toEqual({ leadType: 'Live Transfers', workingStates: 'TX', totalTransfers: 0, transfersPerDay: 12, callsPerDay: 7 });
    const integer = surveyInteger('Total transfers');
    expect(integer.parse('42')).toBe(42);
    expect(integer.parse(' 8 ')).toBe(8);
    expect(integer.parse('3.9')).toBe(3);
    expect(integer.parse(true)).toBe(0);
    expect(integer.parse(Number.NaN)).toBe(0);
    expect(integer.parse('')).toBeUndefined();
    expect(integer.parse(undefined)).toBeUndefined();
    expect(firstMessage(integer.safeParse('-1'))).toBe('Total transfers cannot be negative');
    expect(firstMessage(integer.safeParse('2000000'))).toBe('Total transfers must be at most 1000000');
  });

  it('when the age range or timezone is not one of the listed values, then it is refused', () => {
    for (const ageRange of ['30-60', '60-90', '90-180']) {
      expect(mainSurveyStep2Schema.parse({ leadType: 'Aged Leads', workingStates: 'TX', ageRange }).ageRange).toBe(ageRange);
    }
    expect(firstMessage(mainSurveyStep2Schema.safeParse({ leadType: 'Aged Leads', workingStates: 'TX', ageRange: '0-30' }))).toBe(
      'Please select an age range (30-60, 60-90 or 90-180 days)',
    );
    for (const timezone of ['PST', 'MST', 'CST', 'EST']) {
      expect(referralSurveyStep2Schema.parse({ leadType: 'Aged Leads', workingStates: 'TX', timezone }).timezone).toBe(timezone);
    }
    expect(firstMessage(referralSurveyStep2Schema.safeParse({ leadType: 'Aged Leads', workingStates: 'TX', timezone: 'UTC' }))).toBe(
      'Please select a timezone (PST, MST, CST or EST)',
    );
  });

  it("when fields of another lead type's block are present, then they are dropped, not validated", () => {
    const leftovers = { totalTransfers: '-9', transferHours: 'x', totalCallbacks: '5', callbackPreference: 'am', ageRange: 'bogus', timezone: 'EST' };
    expect(mainSurveyStep2Schema.parse({ leadType: 'Insurance Recruiting', workingStates: 'TX', ...leftovers, ageRange: undefined })).toEqual({
      leadType: 'Insurance Recruiting',
      workingStates: 'TX',
      totalCallbacks: 5,
      callbackPreference: 'am',
    });
    expect(referralSurveyStep2Schema.parse({ leadType: 'Call-Backs', workingStates: 'TX', ...leftovers, ageRange: undefined })).toEqual({
      leadType: 'Call-Backs',
      workingStates: 'TX',
      totalCallbacks: 5,
      callbackPreference: 'am',
      timezone: 'EST',
    });
    expect(mainSurveyStep2Schema.parse({ leadType: 'Aged Leads', workingStates: 'TX', ...leftovers, ageRange: '60-90' })).toEqual({
      leadType: 'Aged Leads',
      workingStates: 'TX',
      ageRange: '60-90',
    });
  });

  it('when the second brand leads to its checkout, then the quantity the order needs is required', () => {
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ leadType: 'Live Transfers', workingStates: 'TX' }))).toBe(
      'Please enter how many transfers you need (at least 1)',
    );
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ leadType: 'Call-Backs', workingStates: 'TX', totalCallbacks: '0' }))).toBe(
      'Please enter how many callbacks you need (at least 1)',
    );
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ leadType: 'Aged Leads', workingStates: 'TX' }))).toBe('Please select an age range');
    // The referral and main surveys keep these optional (spec §3).
    expect(referralSurveyStep2Schema.safeParse({ leadType: 'Live Transfers', workingStates: 'TX' }).success).toBe(true);
  });

  it('when the form is empty, then every funnel refuses it with its first message', () => {
    expect(firstMessage(SURVEY_STEP2_SCHEMAS.main.safeParse(EMPTY_SURVEY_FORM))).toBe('Please select a service type');
    expect(firstMessage(SURVEY_SUBMISSION_SCHEMAS.referral.safeParse(EMPTY_SURVEY_FORM))).toBe('First name is required');
  });
});

describe('submissions', () => {
  it("when a submission carries a salesperson, then the parsed answers drop it (the server sets its own)", () => {
    const parsed = SURVEY_SUBMISSION_SCHEMAS.main.parse({ ...step1, leadType: 'Aged Leads', workingStates: 'TX', salesperson: 'Mallory' });
    expect(parsed).not.toHaveProperty('salesperson');
    expect(parsed).toMatchObject({ ...step1, leadType: 'Aged Leads' });
  });
});

describe("the second brand's order (spec §9)", () => {
  it('when the answers are Live Transfers, Call-Backs or Aged Leads, then they are priced from the contracts table', () => {
    const transfers = campaignOrderFor({ leadType: 'Live Transfers', totalTransfers: 10 });
    expect(transfers).toMatchObject({ ok: true, calls: 10, quote: { amountCents: 37_000, unitPriceCents: 3700 } });
    const callbacks = campaignOrderFor({ leadType: 'Call-Backs', totalCallbacks: 3 });
    expect(callbacks).toMatchObject({ ok: true, calls: 3, quote: { amountCents: 4500 } });
    expect(campaignOrderFor({ leadType: 'Aged Leads', ageRange: '30-60' })).toMatchObject({ ok: true, calls: 100, quote: { amountCents: 50_000 } });
    expect(campaignOrderFor({ leadType: 'Aged Leads', ageRange: '60-90' })).toMatchObject({ quote: { amountCents: 40_000 } });
    expect(campaignOrderFor({ leadType: 'Aged Leads', ageRange: '90-180' })).toMatchObject({ quote: { amountCents: 30_000 } });
    expect(campaignOrderFor({ leadType: 'Insurance Recruiting' })).toMatchObject({ ok: false, field: 'leadType' });
  });

  it("when the checkout sends the order's payment-intent body, then the orders contract accepts its amount", () => {
    for (const answers of [
      { leadType: 'Live Transfers', totalTransfers: 25 },
      { leadType: 'Call-Backs', totalCallbacks: 7 },
      { leadType: 'Aged Leads', ageRange: '60-90' },
    ] as const) {
      const order = campaignOrderFor(answers);
      if (!order.ok) throw new Error(order.message);
      const body = ringcloudPaymentIntentBody(order);
      expect(body).toMatchObject({ tier: 'ringcloud', callCount: 1, packageType: `RingCloud ${answers.leadType}` });
      expect(createPaymentIntentBody.parse(body).quote.amountCents).toBe(order.quote.amountCents);
    }
  });
});

describe('salesperson slugs', () => {
  it('when a slug is lower-case words joined by dashes and not a route, then it is valid', () => {
    expect(isValidSalespersonSlug('john')).toBe(true);
    expect(isValidSalespersonSlug('mary-ann')).toBe(true);
    expect(isValidSalespersonSlug('John')).toBe(false);
    expect(isValidSalespersonSlug('survey')).toBe(false);
    expect(isValidSalespersonSlug('ringcloud')).toBe(false);
    expect(isValidSalespersonSlug('a--b')).toBe(false);
  });
});
