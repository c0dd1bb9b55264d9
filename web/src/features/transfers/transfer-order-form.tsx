import { useState, type FormEvent } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { formatUsd } from '@warmline/contracts/pricing';
import type { SavedSurvey } from '@warmline/contracts/surveys';
import {
  callTransferOrderFormSchema,
  priceTextToCents,
  quoteTransfers,
  recognisedStates,
  type CallTransferOrderFormValues,
} from '@warmline/contracts/transfers';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { submitValid, textFieldBinder, type FieldErrors } from '../../lib/form';
import { StateMultiSelect } from './state-multi-select';

export type TransferFormErrors = FieldErrors<CallTransferOrderFormValues>;
export type ValidTransferOrder = ReturnType<typeof callTransferOrderFormSchema.parse>;

/** The one label of the order's per-day count, on the form and in the checkout's summary (issue 22). */
export const TRANSFERS_PER_DAY_LABEL = 'Transfers per day';

const positive = (n: number | null | undefined): n is number => typeof n === 'number' && n > 0;

/**
 * The form pre-filled from the saved survey and the current user (spec §5). The per-day count is
 * the survey's transfers per day — its calls per day is the agency's call volume (160), not what
 * it takes in transfers (10) — and never above the total, which the form would refuse (issue 22).
 */
export function prefilledTransferForm(user: PublicUser, survey: SavedSurvey | null): CallTransferOrderFormValues {
  const count = (n: number | null | undefined) => (positive(n) ? String(n) : '');
  const total = survey?.totalTransfers;
  const perDay = survey?.transfersPerDay;
  return {
    totalTransfers: count(total),
    callsPerDay: count(positive(perDay) && positive(total) ? Math.min(perDay, total) : perDay),
    transferHours: survey?.transferHours ?? '',
    transferPhone: user.phone,
    workingStates: recognisedStates(survey?.workingStates),
  };
}

type TransferTotal = { ok: true; count: number; unitCents: number; totalCents: number } | { ok: false; message?: string };

/**
 * totalTransfers × the agent's price, only for a count the server would take: a whole number
 * in range whose total a card payment can carry. Otherwise no total, and the reason (issue 17:
 * '2.5' is not rounded to 2, and 99999 shows no six-figure total). Empty: no total, no message yet.
 */
function transferTotal(totalTransfers: string, unitPrice: string): TransferTotal {
  if (totalTransfers.trim() === '') return { ok: false };
  // The field's own rule from the schema the server parses with ('Must be a whole number of transfers').
  const count = callTransferOrderFormSchema.shape.totalTransfers.safeParse(totalTransfers);
  if (!count.success) return { ok: false, message: count.error.issues[0]?.message };
  const unitCents = priceTextToCents(unitPrice);
  if (unitCents === null) return { ok: false };
  const quote = quoteTransfers(count.data, unitCents);
  return quote.ok ? { ok: true, count: count.data, unitCents, totalCents: quote.totalCents } : { ok: false, message: quote.message };
}

/** The order's total in cents, or null when the count gives none. */
export function transferTotalCents(totalTransfers: string, unitPrice: string): number | null {
  const total = transferTotal(totalTransfers, unitPrice);
  return total.ok ? total.totalCents : null;
}

/** A typed calls-per-day that breaks its own rule (whole, 1 to 10,000), said while typing. */
function callsPerDayMessage(callsPerDay: string): string | undefined {
  if (callsPerDay.trim() === '') return undefined;
  const parsed = callTransferOrderFormSchema.shape.callsPerDay.safeParse(callsPerDay);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
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
  const total = transferTotal(values.totalTransfers, unitPrice);
  // A count's own mistake shows as it is typed, in place of a total (the rest on submit).
  const typing: TransferFormErrors = {};
  if (!total.ok && total.message) typing.totalTransfers = total.message;
  const perDay = callsPerDayMessage(values.callsPerDay);
  if (perDay) typing.callsPerDay = perDay;
  const shown: TransferFormErrors = { ...serverErrors, ...errors, ...typing };
  const unitCents = priceTextToCents(unitPrice);

  const set = <K extends keyof CallTransferOrderFormValues>(field: K, value: CallTransferOrderFormValues[K]) => {
    onChange({ ...values, [field]: value });
    if (shown[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const field = textFieldBinder(values, shown, set);

  const submit = (event: FormEvent<HTMLFormElement>) =>
    submitValid(event, callTransferOrderFormSchema, values, setErrors, (order) => {
      // A total no card payment can carry is refused here as the server would (its message is shown).
      if (!total.ok && total.message) return;
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
          label={TRANSFERS_PER_DAY_LABEL}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="How many transfers a day you can take (no more than the total)"
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
          {total.ok ? `${total.count.toLocaleString('en-US')} ${total.count === 1 ? 'transfer' : 'transfers'} × ${formatUsd(total.unitCents)}` : 'Total'}
        </span>
        <strong data-testid="transfer-total">{total.ok ? formatUsd(total.totalCents) : '—'}</strong>
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
