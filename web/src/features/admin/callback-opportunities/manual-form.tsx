import { useState, type FormEvent } from 'react';
import { CALLBACK_ADD_FAILED_MESSAGE, CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE, CALLBACK_PRICE_MEANING, DEFAULT_CALLBACK_PRICE, callbackOpportunityInput } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/field';
import { toast } from '../../../components/toast-store';
import { ApiError, errorMessage } from '../../../lib/api';
import { validate, type FieldErrors } from '../../../lib/form';
import { fieldMessages, useAddCallbackOpportunity } from './callback-opportunities-api';

interface ManualValues {
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  price: string;
}

const EMPTY_MANUAL: ManualValues = { firstName: '', lastName: '', phone: '', state: '', price: DEFAULT_CALLBACK_PRICE };

export function ManualForm() {
  const [values, setValues] = useState<ManualValues>(EMPTY_MANUAL);
  const [errors, setErrors] = useState<FieldErrors<ManualValues>>({});
  const [allRequired, setAllRequired] = useState(false);
  const add = useAddCallbackOpportunity();

  const set = (name: keyof ManualValues, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // Spec §5: every field is required, said once for the form; other problems beside their fields.
    // A blank price is the default price, as in a CSV (issue 22: one rule for both).
    const blank = (Object.keys(values) as Array<keyof ManualValues>).filter((k) => k !== 'price' && values[k].trim() === '');
    setAllRequired(blank.length > 0);
    const checked = validate(callbackOpportunityInput, values);
    if (!checked.ok || blank.length > 0) {
      const shown: FieldErrors<ManualValues> = {};
      if (!checked.ok) for (const [k, m] of Object.entries(checked.errors)) if (m !== CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE) shown[k as keyof ManualValues] = m;
      setErrors(shown);
      const first = blank[0] ?? (Object.keys(shown)[0] as keyof ManualValues | undefined);
      const control = first ? form.elements.namedItem(first) : null;
      if (control instanceof HTMLElement) control.focus();
      return;
    }
    setErrors({});
    add.mutate(values, {
      onSuccess: () => {
        toast({ title: 'Callback opportunity added', description: `${values.firstName.trim()} ${values.lastName.trim()}`, variant: 'success' });
        setValues(EMPTY_MANUAL);
      },
      onError: (failure) => {
        const byField = fieldMessages(failure);
        if (Object.keys(byField).length > 0) setErrors(byField);
        // 409: the phone is on the suppression list, or has an open opportunity already.
        else if (failure instanceof ApiError && failure.status === 409 && failure.serverMessage) setErrors({ phone: failure.serverMessage });
        toast({ title: CALLBACK_ADD_FAILED_MESSAGE, description: errorMessage(failure, 'Please try again.'), variant: 'destructive' });
      },
    });
  };

  // The input's own aria-invalid replaces the field's, so it says both: a message beside it, or blank when all are required.
  const blankInvalid = (name: keyof ManualValues) => (errors[name] || (allRequired && values[name].trim() === '') ? true : undefined);

  return (
    <section className="card callbacks-section" aria-labelledby="callback-manual-title">
      <h2 id="callback-manual-title" className="callbacks-section__title">
        Add Manually
      </h2>
      <form className="callbacks-manual" onSubmit={submit} noValidate>
        {allRequired ? (
          <p className="field__error callbacks-manual__all" role="alert">
            {CALLBACK_ALL_FIELDS_REQUIRED_MESSAGE}
          </p>
        ) : null}
        <TextField label="First name" name="firstName" autoComplete="off" maxLength={100} value={values.firstName} error={errors.firstName} aria-invalid={blankInvalid('firstName')} onChange={(e) => set('firstName', e.target.value)} />
        <TextField label="Last name" name="lastName" autoComplete="off" maxLength={100} value={values.lastName} error={errors.lastName} aria-invalid={blankInvalid('lastName')} onChange={(e) => set('lastName', e.target.value)} />
        <TextField label="Phone" name="phone" type="tel" autoComplete="off" maxLength={30} placeholder="(512) 555-0143" value={values.phone} error={errors.phone} aria-invalid={blankInvalid('phone')} onChange={(e) => set('phone', e.target.value)} />
        <TextField
          label="State"
          name="state"
          autoComplete="off"
          maxLength={2}
          placeholder="TX"
          className="callbacks-manual__short"
          value={values.state}
          error={errors.state}
          aria-invalid={blankInvalid('state')}
          onChange={(e) => set('state', e.target.value.toUpperCase().slice(0, 2))}
        />
        <TextField
          label="Price ($)"
          name="price"
          inputMode="decimal"
          autoComplete="off"
          maxLength={10}
          placeholder={DEFAULT_CALLBACK_PRICE}
          className="callbacks-manual__price"
          hint={CALLBACK_PRICE_MEANING}
          value={values.price}
          error={errors.price}
          onChange={(e) => set('price', e.target.value)}
        />
        <div className="callbacks-manual__submit">
          <Button type="submit" busy={add.isPending}>
            Add Opportunity
          </Button>
        </div>
      </form>
    </section>
  );
}
