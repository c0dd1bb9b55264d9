import type { InputHTMLAttributes } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { BillingDetails } from '@warmline/contracts/orders';
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

/** How each billing field is asked for; its input's name keeps it apart from the card's own. */
const BILLING_INPUTS = {
  name: { name: 'billingName', label: 'Name on card', autoComplete: 'cc-name' },
  email: { name: 'billingEmail', label: 'Email for your receipt', type: 'email', autoComplete: 'email', inputMode: 'email' },
  phone: { name: 'billingPhone', label: 'Phone', type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
} as const satisfies Record<keyof BillingValues, InputHTMLAttributes<HTMLInputElement> & { name: string; label: string }>;

const BILLING_FIELDS = ['name', 'email', 'phone'] as const;

/** The name of a billing field's input, e.g. to put the cursor in it. */
export function billingInputName(field: keyof BillingValues): string {
  return BILLING_INPUTS[field].name;
}

/**
 * A signed-in buyer's billing name and e-mail, from their account (issue 22: every checkout a
 * logged-in buyer reaches starts with them, as the call-back checkout does). They stay editable.
 */
export function accountBilling(user: Pick<PublicUser, 'firstName' | 'lastName' | 'email'>): BillingDetails {
  return { name: `${user.firstName} ${user.lastName}`.trim(), email: user.email };
}

/** The billing fields' first values: what the checkout knows already (e.g. from a survey), else empty. */
export function initialBilling(defaults: BillingDetails | undefined): BillingValues {
  return { name: defaults?.name ?? '', email: defaults?.email ?? '', phone: defaults?.phone ?? '' };
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
  return (
    <>
      {BILLING_FIELDS.filter((field) => spec[field] !== 'hidden').map((field) => {
        const { label, ...input } = BILLING_INPUTS[field];
        return (
          <TextField
            key={field}
            {...input}
            label={spec[field] === 'optional' ? `${label} (optional)` : label}
            value={values[field]}
            onChange={(e) => onChange(field, e.target.value)}
            error={errors[field]}
            required={spec[field] === 'required'}
            disabled={disabled}
          />
        );
      })}
    </>
  );
}
