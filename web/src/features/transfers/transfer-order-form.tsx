import { useState, type FormEvent } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { formatUsd } from '@warmline/contracts/pricing';
import type { SavedSurvey } from '@warmline/contracts/surveys';
import {
  callTransferOrderFormSchema,
  priceTextToCents,
  recognisedStates,
  type CallTransferOrderFormValues,
} from '@warmline/contracts/transfers';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { submitValid, textFieldBinder, type FieldErrors } from '../../lib/form';
import { StateMultiSelect } from './state-multi-select';

export type TransferFormErrors = FieldErrors<CallTransferOrderFormValues>;
export type ValidTransferOrder = ReturnType<typeof callTransferOrderFormSchema.parse>;

/** The form pre-filled from the saved survey and the current user (spec §5). */
export function prefilledTransferForm(user: PublicUser, survey: SavedSurvey | null): CallTransferOrderFormValues {
  const count = (n: number | null | undefined) => (n && n > 0 ? String(n) : '');
  return {
    totalTransfers: count(survey?.totalTransfers),
    callsPerDay: count(survey?.callsPerDay ?? survey?.transfersPerDay),
    transferHours: survey?.transferHours ?? '',
    transferPhone: user.phone,
    workingStates: recognisedStates(survey?.workingStates),
  };
}

/** totalTransfers × the agent's price, when the count is a whole number of at least 1. */
export function transferTotalCents(totalTransfers: string, unitPrice: string): number | null {
  const count = Number(totalTransfers);
  const unit = priceTextToCents(unitPrice);
  if (!Number.isInteger(count) || count < 1 || unit === null) return null;
  return count * unit;
}

/**
 * The call-transfer order form (spec §3, §5): totalTransfers, callsPerDay, transferHours,
 * transferPhone and workingStates, checked with the contracts schema the server uses.
 */
export function TransferOrderForm({
  values,
  onChange,
  unitPrice,
  serverErrors,
  submitting,
  onBack,
  onSubmit,
}: {
  values: CallTransferOrderFormValues;
  onChange(values: CallTransferOrderFormValues): void;
  /** The agent's per-transfer price, e.g. '31.50'. */
  unitPrice: string;
  /** Field messages the server gave for the last attempt. */
  serverErrors: TransferFormErrors;
  submitting: boolean;
  onBack(): void;
  onSubmit(order: ValidTransferOrder): void;
}) {
  const [errors, setErrors] = useState<TransferFormErrors>({});
  const shown: TransferFormErrors = { ...serverErrors, ...errors };
  const total = transferTotalCents(values.totalTransfers, unitPrice);
  const unitCents = priceTextToCents(unitPrice);

  const set = <K extends keyof CallTransferOrderFormValues>(field: K, value: CallTransferOrderFormValues[K]) => {
    onChange({ ...values, [field]: value });
    if (shown[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const field = textFieldBinder(values, shown, set);

  const submit = (event: FormEvent<HTMLFormElement>) =>
    submitValid(event, callTransferOrderFormSchema, values, setErrors, (order) => {
      if (!submitting) onSubmit(order); // Enter pressed again while the order is being made
    });

  return (
    <form className="card transfer-form" onSubmit={submit} noValidate aria-labelledby="transfer-form-title">
      <h2 id="transfer-form-title" className="transfer-form__title">
        Order Call Transfers
      </h2>
      <p className="transfer-form__lead">
        Tell us how many transfers you want, when and where to send them. Your price:{' '}
        <strong>{unitCents === null ? unitPrice : formatUsd(unitCents)} per transfer</strong>.
      </p>
      <div className="transfer-form__grid">
        <TextField
          label="Total transfers"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          {...field('totalTransfers')}
          disabled={submitting}
        />
        <TextField
          label="Calls per day"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="How many transfers a day you can take"
          {...field('callsPerDay')}
          disabled={submitting}
        />
        <TextField label="Transfer hours" placeholder="e.g. Mon-Fri 9am-5pm CST" {...field('transferHours')} disabled={submitting} />
        <TextField
          label="Transfer phone"
          type="tel"
          autoComplete="tel"
          hint="The number we send live transfers to"
          {...field('transferPhone')}
          disabled={submitting}
        />
      </div>
      <StateMultiSelect
        label="Working states"
        value={values.workingStates}
        onChange={(states) => set('workingStates', states)}
        error={shown.workingStates}
        disabled={submitting}
      />
      <div className="transfer-form__total" aria-live="polite">
        <span>
          {total === null || unitCents === null
            ? 'Total'
            : `${Number(values.totalTransfers).toLocaleString('en-US')} ${Number(values.totalTransfers) === 1 ? 'transfer' : 'transfers'} × ${formatUsd(unitCents)}`}
        </span>
        <strong data-testid="transfer-total">{total === null ? '—' : formatUsd(total)}</strong>
      </div>
      <div className="transfer-form__actions">
        <Button variant="secondary" onClick={onBack} disabled={submitting}>
          Back
        </Button>
        <Button type="submit" busy={submitting}>
          {submitting ? 'Creating Order...' : 'Continue to Payment'}
        </Button>
      </div>
    </form>
  );
}
