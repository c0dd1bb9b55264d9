import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SURVEY_FUNNELS } from '@warmline/contracts/surveys';
import { SurveyWizard, type SurveyWizardProps } from '../src/features/survey/survey-wizard';

/** The survey wizard says what is wrong in the spec's words and moves on only when a step is right. */
afterEach(cleanup);

function renderWizard(props: Partial<SurveyWizardProps> = {}) {
  const onSubmit = vi.fn();
  const utils = render(<SurveyWizard funnel={SURVEY_FUNNELS.main} submitting={false} onSubmit={onSubmit} submitLabel="Submit Survey" {...props} />);
  return { onSubmit, ...utils };
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

function fillStep1() {
  type('First Name', 'Ann');
  type('Last Name', 'Lee');
  type('Agency Name', 'Lee Agency');
  type('Role', 'Insurance Agent');
  type('Phone Number', '555-123-4567');
  type('Email', 'ann@example.com');
  type('Username', 'annlee');
  type('Password', 'sunny-harbor-42');
}

const STEP1_MESSAGES = [
  'First name is required',
  'Last name is required',
  'Agency name is required',
  'Please select your role',
  'Phone number must be at least 10 digits',
  'Invalid email address',
  'Username must be at least 3 characters',
  'Password must be at least 8 characters',
];

describe('step 1, Your Information', () => {
  it('when Continue is pressed on an empty step, then every step-1 message shows and the step stays', () => {
    renderWizard();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    for (const message of STEP1_MESSAGES) expect(screen.getByText(message)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your Information' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Lead Preferences' })).toBeNull();
    expect(screen.getByLabelText('First Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('when a field is too short, then only its message shows', () => {
    renderWizard();
    fillStep1();
    type('Phone Number', '555-1234');
    type('Password', '1234567');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Phone number must be at least 10 digits')).toBeTruthy();
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.queryByText('First name is required')).toBeNull();
  });

  it('when the password is a common one, then the field says it is too common', () => {
    renderWizard();
    fillStep1();
    type('Password', 'Password1');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('This password is too common')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('when the step is valid, then Continue moves to Lead Preferences, and Back returns with every answer kept', () => {
    renderWizard();
    fillStep1();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('heading', { name: 'Lead Preferences' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    type('Working States', 'TX');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText('First Name') as HTMLInputElement).value).toBe('Ann');
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('Insurance Agent');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('sunny-harbor-42');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((screen.getByLabelText('Aged Leads') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Working States') as HTMLInputElement).value).toBe('TX');
  });
});

describe('step 2, Lead Preferences', () => {
  function toStep2(props: Partial<SurveyWizardProps> = {}) {
    const rendered = renderWizard(props);
    fillStep1();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    return rendered;
  }

  it('when the main survey is submitted empty, then it asks for a service type and the working states, and sends nothing', () => {
    const { onSubmit } = toStep2();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(screen.getByText('Please select a service type')).toBeTruthy();
    expect(screen.getByText('Please specify your working states')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('when the second brand is submitted empty, then it asks for a lead type', () => {
    toStep2({ funnel: SURVEY_FUNNELS.ringcloud });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(screen.getByText('Please select a lead type')).toBeTruthy();
  });

  it('when a lead type is chosen, then its block shows: transfers, recruiting, aged leads', () => {
    toStep2();
    expect(screen.queryByLabelText('Total Transfers Needed')).toBeNull();
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    for (const label of ['Total Transfers Needed', 'Transfers Per Day', 'Calls Per Day', 'Preferred Transfer Hours']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    fireEvent.click(screen.getByLabelText('Insurance Recruiting'));
    expect(screen.getByLabelText('Agents Needed')).toBeTruthy();
    expect(screen.getByLabelText('Recruiting Preferences')).toBeTruthy();
    expect(screen.queryByLabelText('Total Transfers Needed')).toBeNull();
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    expect(screen.getByLabelText('Lead Age Range')).toBeTruthy();
    expect(screen.queryByLabelText('Timezone')).toBeNull();
  });

  it("when the referral or second brand's Call-Backs are chosen, then it asks total callbacks and a preference; the referral asks the timezone", () => {
    toStep2({ funnel: SURVEY_FUNNELS.referral });
    expect(screen.getByLabelText('Timezone')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Call-Backs'));
    expect(screen.getByLabelText('Total Callbacks Needed')).toBeTruthy();
    expect(screen.getByLabelText('Callback Preference')).toBeTruthy();
  });

  it('when the answers are valid, then it submits them parsed, numbers as integers, only the chosen block', () => {
    const { onSubmit } = toStep2();
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    type('Total Transfers Needed', '40');
    type('Calls Per Day', '120');
    fireEvent.click(screen.getByLabelText('Aged Leads'));
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    type('Working States', 'TX, FL');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(onSubmit).toHaveBeenCalledWith({
      firstName: 'Ann',
      lastName: 'Lee',
      agencyName: 'Lee Agency',
      role: 'Insurance Agent',
      phone: '555-123-4567',
      email: 'ann@example.com',
      username: 'annlee',
      password: 'sunny-harbor-42',
      leadType: 'Live Transfers',
      workingStates: 'TX, FL',
      totalTransfers: 40,
      callsPerDay: 120,
    });
  });

  it("when the second brand's Live Transfers has no count, then it asks how many before the checkout", () => {
    const { onSubmit } = toStep2({ funnel: SURVEY_FUNNELS.ringcloud });
    fireEvent.click(screen.getByLabelText('Live Transfers'));
    type('Working States', 'TX');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Survey' }));
    expect(screen.getByText('Please enter how many transfers you need (at least 1)')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("when it is submitting, then the button says 'Submitting...' and is disabled", () => {
    renderWizard({ submitting: true, initialValues: { firstName: 'Ann' } });
    fillStep1();
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const button = screen.getByRole('button', { name: 'Submitting...' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('when the server says the username is taken, then the wizard returns to step 1 and shows it under the field', () => {
    const { rerender, onSubmit } = toStep2();
    rerender(
      <SurveyWizard
        funnel={SURVEY_FUNNELS.main}
        submitting={false}
        onSubmit={onSubmit}
        fieldError={{ field: 'username', message: 'Username is already taken' }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Your Information' })).toBeTruthy();
    expect(screen.getByText('Username is already taken')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByLabelText('Username') as HTMLInputElement).value).toBe('annlee');
  });
});
