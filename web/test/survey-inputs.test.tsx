import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SURVEY_FUNNELS, type SurveyFunnel } from '@warmline/contracts/surveys';
import { SurveyWizard } from '../src/features/survey/survey-wizard';

/**
 * Issue 17 item 6: the survey marks its required fields (a visible *, the note saying what it
 * means, aria-required) on both steps of every funnel, and checks the working states against
 * the real state codes on the field, with the server's message, before anything is sent.
 */
afterEach(cleanup);

function renderWizard(funnel: SurveyFunnel = SURVEY_FUNNELS.main) {
  const onSubmit = vi.fn();
  render(<SurveyWizard funnel={funnel} submitting={false} onSubmit={onSubmit} submitLabel="Submit Survey" />);
  return { onSubmit };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function toStep2(funnel?: SurveyFunnel) {
  const rendered = renderWizard(funnel);
  type('First Name', 'Ann');
  type('Last Name', 'Lee');
  type('Agency Name', 'Lee Agency');
  type('Role', 'Insurance Agent');
  type('Phone Number', '555-123-4567');
  type('Email', 'ann@example.com');
  type('Username', 'annlee');
  type('Password', 'sunny-harbor-42');
  fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  return rendered;
}

/** Whether a field shows the * beside its label and tells assistive technology it is required. */
function marking(label: string): { mark: boolean; ariaRequired: boolean } {
  const control = screen.getByLabelText(label);
  const mark = control.closest('.field')?.querySelector('.field__label-line .field__required');
  return { mark: !!mark && mark.textContent?.trim() === '*', ariaRequired: control.getAttribute('aria-required') === 'true' };
}

const REQUIRED = { mark: true, ariaRequired: true };
const OPTIONAL = { mark: false, ariaRequired: false };

describe('required fields are marked', () => {
  it.each([['main'], ['ringcloud'], ['referral']] as const)('when the %s survey opens, then every step-1 field is marked required and the note explains the *', (id) => {
    renderWizard(SURVEY_FUNNELS[id]);
    expect(screen.getByText(/Fields marked/).textContent).toBe('Fields marked * are required.');
    for (const label of ['First Name', 'Last Name', 'Agency Name', 'Role', 'Phone Number', 'Email', 'Username', 'Password']) {
      expect(marking(label), label).toEqual(REQUIRED);
    }
  });

  it('when step 2 of the main survey shows, then the service type and working states are marked, the optional answers are not', () => {
    toStep2();
    expect(screen.getByText(/Fields marked/).textContent).toBe('Fields marked * are required.');
    const group = screen.getByRole('radiogroup', { name: 'Service Type' });
    expect(group.getAttribute('aria-required')).toBe('true');
    expect(group.querySelector('legend .field__required')?.textContent?.trim()).toBe('*');
    expect(marking('Working States')).toEqual(REQUIRED);
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    for (const label of ['Total Transfers Needed', 'Transfers Per Day', 'Calls Per Day', 'Preferred Transfer Hours']) {
      expect(marking(label), label).toEqual(OPTIONAL);
    }
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    expect(marking('Lead Age Range')).toEqual(OPTIONAL);
  });

  it('when the second brand needs a count or an age range for its checkout, then that field is marked required', () => {
    toStep2(SURVEY_FUNNELS.ringcloud);
    expect(screen.getByRole('radiogroup', { name: 'Lead Type' }).getAttribute('aria-required')).toBe('true');
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    expect(marking('Total Transfers Needed')).toEqual(REQUIRED);
    fireEvent.click(screen.getByLabelText('Call-Backs'));
    expect(marking('Total Callbacks Needed')).toEqual(REQUIRED);
    expect(marking('Callback Preference')).toEqual(OPTIONAL);
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    expect(marking('Lead Age Range')).toEqual(REQUIRED);
  });

  it('when the referral survey asks the timezone, then it is optional (the schema does not require it)', () => {
    toStep2(SURVEY_FUNNELS.referral);
    expect(marking('Timezone')).toEqual(OPTIONAL);
    expect(marking('Working States')).toEqual(REQUIRED);
  });
});

describe('working states are real state codes', () => {
  it("when 'ZZ' is typed and the field is left, then the field says it is not a US state before anything is sent", () => {
    const { onSubmit } = toStep2();
    type('Working States', 'ZZ');
    fireEvent.blur(screen.getByLabelText('Working States'));
    const message = "'ZZ' is not a US state — use 2-letter codes like TX, FL";
    expect(screen.getByRole('alert').textContent).toBe(message);
    const input = screen.getByLabelText('Working States');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(message);

    fireEvent.click(screen.getByLabelText('Aged Leads'));
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(screen.getByText(message)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("when 'Texass, fl' is submitted, then the misspelt name is named and nothing is sent", () => {
    const { onSubmit } = toStep2();
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    type('Working States', 'Texass, fl');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(screen.getByText("'Texass' is not a US state — use 2-letter codes like TX, FL")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("when 'Texas, fl' is typed, then leaving the field shows 'TX, FL' and that is what is submitted", () => {
    const { onSubmit } = toStep2();
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    type('Working States', 'Texas, fl');
    fireEvent.blur(screen.getByLabelText('Working States'));
    expect((screen.getByLabelText('Working States') as HTMLInputElement).value).toBe('TX, FL');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ leadType: 'Aged Leads', workingStates: 'TX, FL' }));
  });

  it('when a state name is submitted without leaving the field, then it is still sent as its code', () => {
    const { onSubmit } = toStep2();
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    type('Working States', 'district of columbia');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ workingStates: 'DC' }));
  });
});
