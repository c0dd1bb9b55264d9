import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { USER_ROLES } from '@warmline/contracts/accounts';
import {
  CAMPAIGN_ORDER_FIELD,
  EMPTY_SURVEY_FORM,
  LEAD_TYPE_FIELDS,
  SURVEY_AGE_RANGES,
  SURVEY_STEP2_SCHEMAS,
  SURVEY_SUBMISSION_SCHEMAS,
  SURVEY_TIMEZONES,
  surveyStep1Schema,
  surveyWorkingStatesSchema,
  type SurveyFunnel,
  type SurveyFormValues,
  type SurveyLeadType,
  type SurveySubmission,
} from '@warmline/contracts/surveys';
import { Button } from '../../components/button';
import { PasswordField, RequiredNote, TextField, type TextFieldProps } from '../../components/field';
import { useForm, validate, type FieldErrors } from '../../lib/form';
import { RadioCards, SelectField } from './survey-fields';

/**
 * The two-step survey of every funnel (spec §2, §4 "Survey wizard"): step 1 'Your Information',
 * step 2 'Lead Preferences' with the block of the chosen lead type. Continue moves on only when
 * step 1 is valid; Back keeps every answer; the schemas (and so the messages) are the contracts'.
 * What differs per funnel — brand, lead types, messages, labels — comes in as props.
 */

type Field = keyof SurveyFormValues;
type Errors = FieldErrors<SurveyFormValues>;

const SURVEY_STEPS = ['Your Information', 'Lead Preferences'] as const;

export interface SurveyWizardProps {
  funnel: SurveyFunnel;
  /** Shown under the lead type's name, e.g. the second brand's prices. */
  leadTypeHints?: Partial<Record<SurveyLeadType, string>>;
  /** Shown on step 2 above the buttons (the main survey's notice about pricing). */
  notice?: ReactNode;
  submitLabel?: string;
  submitting: boolean;
  /**
   * A refusal of the server that names a step-1 field (a taken username or e-mail): the wizard
   * goes back to step 1 and shows it under that field. A new object each time, so the same
   * message twice still shows.
   */
  fieldError?: { field: 'username' | 'email'; message: string } | null;
  onSubmit(answers: SurveySubmission): void;
  /** For tests and resumed sessions; a new survey starts empty. */
  initialValues?: Partial<SurveyFormValues>;
}

const ROLE_OPTIONS = USER_ROLES.map((role) => ({ value: role, label: role }));
const AGE_RANGE_OPTIONS = SURVEY_AGE_RANGES.map((range) => ({ value: range, label: `${range} days` }));
const TIMEZONE_OPTIONS = SURVEY_TIMEZONES.map((zone) => ({ value: zone, label: zone }));

const STEP1_FIELDS: readonly Field[] = ['firstName', 'lastName', 'agencyName', 'role', 'phone', 'email', 'username', 'password'];

/**
 * Whether the schemas refuse the survey without this answer (issue 17: the survey marks its
 * required fields): all of step 1, the lead type and working states, and in the funnel that
 * ends in a checkout the answer its order is priced from. Everything else is optional (spec §3).
 */
function isRequired(funnel: SurveyFunnel, leadType: SurveyLeadType | '', name: Field): boolean {
  if (STEP1_FIELDS.includes(name) || name === 'leadType' || name === 'workingStates') return true;
  if (!funnel.leadsToCheckout || !leadType || !(leadType in CAMPAIGN_ORDER_FIELD)) return false;
  return CAMPAIGN_ORDER_FIELD[leadType as keyof typeof CAMPAIGN_ORDER_FIELD] === name;
}

export function SurveyWizard({
  funnel,
  leadTypeHints = {},
  notice,
  submitLabel = 'Submit',
  submitting,
  fieldError,
  onSubmit,
  initialValues,
}: SurveyWizardProps) {
  const [step, setStep] = useState<1 | 2>(1);
  const { values, errors, setErrors, setValue, field } = useForm<SurveyFormValues>({ ...EMPTY_SURVEY_FORM, ...initialValues });
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // A new step: say so to screen readers and keyboards by moving focus to its heading.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [step]);

  useEffect(() => {
    if (!fieldError) return;
    setErrors((e) => ({ ...e, [fieldError.field]: fieldError.message }));
    moved.current = true;
    setStep(1);
    // After the step renders, put the cursor in the field to fix.
    requestAnimationFrame(() => focusField(formRef.current, fieldError.field));
  }, [fieldError]);

  const showErrors = (found: Errors) => {
    setErrors(found);
    requestAnimationFrame(() => {
      const first = (Object.keys(found) as Field[]).find((f) => found[f]);
      if (first) focusField(formRef.current, first);
    });
  };

  const onContinue = () => {
    const result = validate(surveyStep1Schema, values);
    if (!result.ok) return showErrors(result.errors);
    setErrors({});
    moved.current = true;
    setStep(2);
  };

  const onFormSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step === 1) return onContinue();
    if (submitting) return;
    const step2 = validate(SURVEY_STEP2_SCHEMAS[funnel.id], values);
    if (!step2.ok) return showErrors(step2.errors as Errors);
    const all = validate(SURVEY_SUBMISSION_SCHEMAS[funnel.id], values);
    if (!all.ok) {
      // Only reachable if step 1 changed under us; show it where it can be fixed.
      const step1Errors = all.errors as Errors;
      if (STEP1_FIELDS.some((f) => step1Errors[f])) {
        moved.current = true;
        setStep(1);
      }
      return showErrors(step1Errors);
    }
    setErrors({});
    onSubmit(all.data as SurveySubmission);
  };

  const onBack = () => {
    setErrors({});
    moved.current = true;
    setStep(1);
  };

  const leadType = values.leadType as SurveyLeadType | '';
  const shown = new Set<string>(leadType && funnel.leadTypes.includes(leadType) ? LEAD_TYPE_FIELDS[leadType] : []);
  const leadTypeWord = funnel.id === 'main' ? 'Service Type' : 'Lead Type';
  /** A field's props with its required mark. */
  const input = (name: Exclude<Field, 'leadType'>) => ({ ...field(name), required: isRequired(funnel, leadType, name) });

  // Checked as soon as the agent leaves the field, with the schema the server uses: 'ZZ' is
  // named at once; 'texas, fl' is shown as the codes it is stored as.
  const checkWorkingStates = () => {
    if (!values.workingStates.trim()) return;
    const result = surveyWorkingStatesSchema.safeParse(values.workingStates);
    if (result.success) {
      if (result.data !== values.workingStates) setValue('workingStates', result.data);
    } else {
      setErrors((e) => ({ ...e, workingStates: result.error.issues[0]?.message }));
    }
  };

  return (
    <form ref={formRef} className="form survey-wizard" onSubmit={onFormSubmit} noValidate>
      <StepIndicator step={step} />
      <h2 ref={headingRef} tabIndex={-1} className="survey-wizard__step-title">
        {SURVEY_STEPS[step - 1]}
      </h2>
      <RequiredNote className="survey-wizard__required-note" />

      {step === 1 ? (
        <div className="survey-grid">
          <TextField label="First Name" autoComplete="given-name" {...input('firstName')} />
          <TextField label="Last Name" autoComplete="family-name" {...input('lastName')} />
          <TextField className="survey-grid__full" label="Agency Name" autoComplete="organization" {...input('agencyName')} />
          <SelectField className="survey-grid__full" label="Role" placeholder="Select your role" options={ROLE_OPTIONS} {...input('role')} />
          <TextField label="Phone Number" type="tel" autoComplete="tel" inputMode="tel" {...input('phone')} />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoCapitalize="none"
            spellCheck={false}
            {...input('email')}
          />
          <TextField
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            hint="At least 3 characters; you will log in with it."
            {...input('username')}
          />
          <PasswordField label="Password" autoComplete="new-password" hint="At least 8 characters, not a common password." {...input('password')} />
        </div>
      ) : (
        <div className="survey-grid">
          <div className="survey-grid__full">
            <RadioCards
              legend={leadTypeWord}
              name="leadType"
              value={values.leadType}
              options={funnel.leadTypes.map((type) => ({ value: type, label: type, hint: leadTypeHints[type] }))}
              onChange={(value) => setValue('leadType', value)}
              error={errors.leadType}
              required
            />
          </div>
          <TextField
            className="survey-grid__full"
            label="Working States"
            placeholder="e.g. TX, FL, CA"
            hint="2-letter codes or state names, separated by commas."
            autoComplete="off"
            onBlur={checkWorkingStates}
            {...input('workingStates')}
          />
          {shown.has('totalTransfers') ? <CountField label="Total Transfers Needed" {...input('totalTransfers')} /> : null}
          {shown.has('transfersPerDay') ? <CountField label="Transfers Per Day" {...input('transfersPerDay')} /> : null}
          {shown.has('callsPerDay') ? (
            <CountField label="Calls Per Day" hint="How many calls your agency handles a day." {...input('callsPerDay')} />
          ) : null}
          {shown.has('transferHours') ? (
            <TextField label="Preferred Transfer Hours" placeholder="e.g. 9am - 5pm EST" {...input('transferHours')} />
          ) : null}
          {shown.has('totalCallbacks') ? (
            <CountField label={leadType === 'Insurance Recruiting' ? 'Agents Needed' : 'Total Callbacks Needed'} {...input('totalCallbacks')} />
          ) : null}
          {shown.has('callbackPreference') ? (
            <TextField
              label={leadType === 'Insurance Recruiting' ? 'Recruiting Preferences' : 'Callback Preference'}
              placeholder={leadType === 'Insurance Recruiting' ? 'e.g. licensed in TX, bilingual' : 'e.g. mornings, final expense'}
              {...input('callbackPreference')}
            />
          ) : null}
          {shown.has('ageRange') ? (
            <SelectField label="Lead Age Range" placeholder="Select an age range" options={AGE_RANGE_OPTIONS} {...input('ageRange')} />
          ) : null}
          {funnel.asksTimezone ? (
            <SelectField label="Timezone" placeholder="Select your timezone" options={TIMEZONE_OPTIONS} {...input('timezone')} />
          ) : null}
          {notice ? <div className="survey-grid__full survey-notice">{notice}</div> : null}
        </div>
      )}

      <div className={`survey-actions${step === 1 ? ' survey-actions--end' : ''}`}>
        {step === 2 ? (
          <Button variant="secondary" onClick={onBack} disabled={submitting}>
            Back
          </Button>
        ) : null}
        {step === 1 ? (
          <Button type="submit">Continue</Button>
        ) : (
          <Button type="submit" busy={submitting}>
            {submitting ? 'Submitting...' : submitLabel}
          </Button>
        )}
      </div>
    </form>
  );
}

/** A whole number of transfers, calls or agents. */
function CountField(props: TextFieldProps) {
  return <TextField type="number" inputMode="numeric" min={0} step={1} {...props} />;
}

function StepIndicator({ step }: { step: 1 | 2 }) {
  return (
    <ol className="survey-steps" aria-label={`Step ${step} of ${SURVEY_STEPS.length}`}>
      {SURVEY_STEPS.map((name, index) => {
        const number = index + 1;
        const state = number < step ? 'done' : number === step ? 'current' : 'todo';
        return (
          <li key={name} className={`survey-steps__item survey-steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="survey-steps__number" aria-hidden="true">
              {state === 'done' ? '✓' : number}
            </span>
            <span className="survey-steps__name">{name}</span>
          </li>
        );
      })}
    </ol>
  );
}

/** The first field with a message: a radio group's checked (or first) option, or the input. */
function focusField(form: HTMLFormElement | null, name: string): void {
  if (!form) return;
  const target =
    form.querySelector<HTMLElement>(`[name="${name}"]:checked`) ?? form.querySelector<HTMLElement>(`[name="${name}"]`);
  target?.focus();
}
