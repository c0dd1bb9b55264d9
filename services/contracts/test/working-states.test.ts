import { describe, expect, it } from 'vitest';
import {
  SURVEY_SUBMISSION_SCHEMAS,
  mainSurveyStep2Schema,
  normaliseWorkingStates,
  parseWorkingStates,
  recognisedStates,
  ringcloudSurveyStep2Schema,
  surveyWorkingStatesSchema,
} from '../src/index';

/** Issue 17 item 6: working states are real state codes, however they were typed. */

const firstMessage = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? undefined : r.error?.issues[0]?.message;

describe('normaliseWorkingStates', () => {
  it.each([
    ['Texas, fl', 'TX, FL'],
    ['texas', 'TX'],
    ['new york', 'NY'],
    ['  New   York ; district of columbia', 'NY, DC'],
    ['District of Columbia', 'DC'],
    ['tx fl ca', 'TX, FL, CA'],
    ['Texas and New Mexico', 'TX, NM'],
    ['TX/OK', 'TX, OK'],
    ['West Virginia, Virginia', 'WV, VA'],
    ['North Carolina South Carolina', 'NC, SC'],
    ['TX, tx, Texas', 'TX'],
    ['pr', 'PR'],
    ['Texas or Florida', 'TX, FL'],
    ['TX OR WA', 'TX, OR, WA'],
    ['or', 'OR'],
  ])("when '%s' is typed, then it is stored as '%s'", (typed, stored) => {
    expect(normaliseWorkingStates(typed)).toEqual({ ok: true, text: stored });
  });

  it.each([
    ['ZZ', "'ZZ' is not a US state — use 2-letter codes like TX, FL"],
    ['Texass', "'Texass' is not a US state — use 2-letter codes like TX, FL"],
    ['TX, ZZ', "'ZZ' is not a US state — use 2-letter codes like TX, FL"],
    ['TX ZZ', "'ZZ' is not a US state — use 2-letter codes like TX, FL"],
    ['New Yrok, Florida', "'New Yrok' is not a US state — use 2-letter codes like TX, FL"],
    ['ZZ; Texass', "'ZZ', 'Texass' are not US states — use 2-letter codes like TX, FL"],
    ['all of them', "'all of them' is not a US state — use 2-letter codes like TX, FL"],
  ])("when '%s' is typed, then it is refused naming what is not a state", (typed, message) => {
    expect(normaliseWorkingStates(typed)).toEqual({ ok: false, message });
  });

  it('when nothing but separators is typed, then the form’s own empty message is given', () => {
    expect(normaliseWorkingStates(' , ; ', 'Please specify your working states')).toEqual({
      ok: false,
      message: 'Please specify your working states',
    });
  });
});

describe('the transfer order and the saved survey read states the same way', () => {
  it('when a list mixes codes, names and cases, then it gives each code once in order', () => {
    expect(parseWorkingStates(['ok', 'Texas', 'TX', 'new jersey'])).toEqual({ ok: true, states: ['OK', 'TX', 'NJ'] });
    expect(parseWorkingStates(['TX', 'XY'])).toEqual({ ok: false, message: "'XY' is not a US state — use 2-letter codes like TX, FL" });
  });

  it('when a saved survey has free text, then the recognisable states are kept and the rest left out', () => {
    expect(recognisedStates('Texas and Oklahoma')).toEqual(['TX', 'OK']);
    expect(recognisedStates('TX ZZ, maine')).toEqual(['TX', 'ME']);
    expect(recognisedStates('TX, FL')).toEqual(['TX', 'FL']);
    expect(recognisedStates('')).toEqual([]);
  });
});

describe('the survey schemas', () => {
  it("when step 2 has 'Texas, fl', then it parses to 'TX, FL'", () => {
    expect(mainSurveyStep2Schema.parse({ leadType: 'Aged Leads', workingStates: 'Texas, fl' }).workingStates).toBe('TX, FL');
    expect(surveyWorkingStatesSchema.parse(' florida ')).toBe('FL');
  });

  it("when step 2 has 'ZZ', then every funnel refuses it with the message", () => {
    const message = "'ZZ' is not a US state — use 2-letter codes like TX, FL";
    expect(firstMessage(mainSurveyStep2Schema.safeParse({ leadType: 'Aged Leads', workingStates: 'ZZ' }))).toBe(message);
    expect(firstMessage(ringcloudSurveyStep2Schema.safeParse({ leadType: 'Call-Backs', totalCallbacks: '20', workingStates: 'ZZ' }))).toBe(message);
    const referral = SURVEY_SUBMISSION_SCHEMAS.referral.safeParse({ leadType: 'Call-Backs', workingStates: 'ZZ' });
    expect(referral.success).toBe(false);
    expect(referral.error?.issues.map((i) => i.message)).toContain(message);
  });

  it('when the working states are blank or only commas, then the spec’s message is given', () => {
    expect(firstMessage(surveyWorkingStatesSchema.safeParse('  '))).toBe('Please specify your working states');
    expect(firstMessage(surveyWorkingStatesSchema.safeParse(', ,'))).toBe('Please specify your working states');
  });
});
