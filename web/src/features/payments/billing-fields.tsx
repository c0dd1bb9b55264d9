import { TextField } from '../../components/field';
import type { BillingFieldsSpec } from './payment-types';

export interface BillingValues {
  name: string;
  email: string;
  phone: string;
}

export type BillingErrors = Partial<Record<keyof BillingValues, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The billing fields' messages before anything is sent (the server checks the e-mail again). */
export function validateBilling(spec: BillingFieldsSpec, values: BillingValues): BillingErrors {
  const errors: BillingErrors = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const phone = values.phone.replace(/\D/g, '');
  if (spec.name === 'required' && !name) errors.name = 'Name on card is required';
  if (spec.email === 'required' && !email) errors.email = 'Email is required for your receipt';
  else if (spec.email !== 'hidden' && email && !EMAIL.test(email)) errors.email = 'Invalid email address';
  if (spec.phone === 'required' && phone.length < 10) errors.phone = 'Phone number must be at least 10 digits';
  else if (spec.phone === 'optional' && phone.length > 0 && phone.length < 10) errors.phone = 'Phone number must be at least 10 digits';
  return errors;
}

/** Only the fields asked for, trimmed, empty ones left out. */
export function billingDetailsOf(spec: BillingFieldsSpec, values: BillingValues) {
  return {
    ...(spec.name !== 'hidden' && values.name.trim() ? { name: values.name.trim() } : {}),
    ...(spec.email !== 'hidden' && values.email.trim() ? { email: values.email.trim() } : {}),
    ...(spec.phone !== 'hidden' && values.phone.trim() ? { phone: values.phone.trim() } : {}),
  };
}

export function BillingFields({
  spec,
  values,
  errors,
  disabled,
  onChange,
}: {
  spec: BillingFieldsSpec;
  values: BillingValues;
  errors: BillingErrors;
  disabled?: boolean;
  onChange(field: keyof BillingValues, value: string): void;
}) {
  const label = (text: string, requirement: string) => (requirement === 'optional' ? `${text} (optional)` : text);
  return (
    <>
      {spec.name !== 'hidden' ? (
        <TextField
          label={label('Name on card', spec.name)}
          name="billingName"
          autoComplete="cc-name"
          value={values.name}
          onChange={(e) => onChange('name', e.target.value)}
          error={errors.name}
          required={spec.name === 'required'}
          disabled={disabled}
        />
      ) : null}
      {spec.email !== 'hidden' ? (
        <TextField
          label={label('Email for your receipt', spec.email)}
          name="billingEmail"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={values.email}
          onChange={(e) => onChange('email', e.target.value)}
          error={errors.email}
          required={spec.email === 'required'}
          disabled={disabled}
        />
      ) : null}
      {spec.phone !== 'hidden' ? (
        <TextField
          label={label('Phone', spec.phone)}
          name="billingPhone"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          value={values.phone}
          onChange={(e) => onChange('phone', e.target.value)}
          error={errors.phone}
          required={spec.phone === 'required'}
          disabled={disabled}
        />
      ) : null}
    </>
  );
}
