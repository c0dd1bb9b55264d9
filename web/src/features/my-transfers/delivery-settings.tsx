import { useId, useState, type FormEvent } from 'react';
import { US_STATE_CODES, type UsStateCode } from '@warmline/contracts/us-states';
import {
  AGENT_TIME_ZONES,
  WEEKDAYS,
  timeZoneName,
  transferSettingsBody,
  type TransferSettingsInput,
  type TransferSettingsView,
  type Weekday,
} from '@warmline/contracts/live-transfers';
import { stateName } from '@warmline/contracts/us-states';
import { Button } from '../../components/button';
import { Field, FieldError, TextField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { ApiError, errorMessage } from '../../lib/api';
import { focusFirstError } from '../../lib/form';
import { usPhoneText } from '../../lib/phone-text';
import { StateMultiSelect } from '../transfers/state-multi-select';
import { useSaveTransferSettings, useTransferSettings } from './api';
import { WEEKDAY_NAMES, clockText, hoursLines } from './format';

const FIELDS = ['transferPhone', 'states', 'timeZone', 'hours', 'dailyCap', 'atOnce'] as const;
type SettingsField = (typeof FIELDS)[number];
type SettingsErrors = Partial<Record<SettingsField | 'form', string>>;

/** One day's row of the weekly hours: on or off, from and to (one range a day). */
interface DayHours {
  on: boolean;
  from: string;
  to: string;
}

interface SettingsValues {
  transferPhone: string;
  states: UsStateCode[];
  timeZone: string;
  days: Record<Weekday, DayHours>;
  dailyCap: string;
  atOnce: string;
}

/** Every half hour of a day, and '24:00' as a day's end. */
const HALF_HOURS = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const isStateCode = (s: string): s is UsStateCode => (US_STATE_CODES as readonly string[]).includes(s);

function valuesOf(settings: TransferSettingsView): SettingsValues {
  const days = Object.fromEntries(
    WEEKDAYS.map((day) => {
      const ranges = settings.hours.filter((h) => h.day === day).sort((a, b) => a.from.localeCompare(b.from));
      // A day of several ranges shows as one, from the first start to the last end.
      return [day, ranges.length ? { on: true, from: ranges[0]!.from, to: ranges.at(-1)!.to } : { on: false, from: '09:00', to: '17:00' }];
    }),
  ) as Record<Weekday, DayHours>;
  return {
    transferPhone: usPhoneText(settings.transferPhone),
    states: settings.states.filter(isStateCode),
    timeZone: settings.timeZone,
    days,
    dailyCap: String(settings.dailyCap),
    atOnce: String(settings.atOnce),
  };
}

/** What the form sends: numbers typed as text become numbers (or stay text, for the schema to name). */
function bodyOf(values: SettingsValues, paused: boolean): TransferSettingsInput {
  const number = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    transferPhone: values.transferPhone,
    states: values.states,
    timeZone: values.timeZone as TransferSettingsInput['timeZone'],
    hours: WEEKDAYS.filter((day) => values.days[day].on).map((day) => ({ day, from: values.days[day].from, to: values.days[day].to })),
    dailyCap: number(values.dailyCap),
    atOnce: number(values.atOnce),
    paused,
  };
}

/** Messages by field from issues whose path starts with the field ('hours.2.to' → hours). */
function errorsOf(issues: ReadonlyArray<{ path: string; message: string }>): SettingsErrors {
  const errors: SettingsErrors = {};
  for (const issue of issues) {
    const head = issue.path.split('.')[0] ?? '';
    const field = FIELDS.find((f) => f === head) ?? 'form';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The server's 400 `issues`, by field. */
function serverErrors(error: unknown): SettingsErrors | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  try {
    const body = JSON.parse(error.bodyText) as { error?: string; issues?: Array<{ path: string; message: string }> };
    return body.issues?.length ? errorsOf(body.issues) : { form: body.error ?? 'The settings were refused.' };
  } catch {
    return null;
  }
}

/**
 * Delivery settings (issue 23 §2): where and when transfers reach the agent. A set the agent has
 * not saved yet is a suggestion from their survey and latest transfer order, and says so: routing
 * uses only saved settings.
 */
export function DeliverySettings({ paused }: { paused: boolean }) {
  const settings = useTransferSettings();
  const [editing, setEditing] = useState(false);
  const titleId = useId();
  return (
    <section className="card my-transfers__settings" aria-labelledby={titleId}>
      <h2 id={titleId} className="my-transfers__subtitle">
        Delivery settings
      </h2>
      {settings.isPending ? (
        <Spinner label="Loading your delivery settings…" showLabel />
      ) : settings.isError ? (
        <LoadError what="your delivery settings" error={settings.error} onRetry={() => void settings.refetch()} />
      ) : editing || !settings.data.saved ? (
        <SettingsForm settings={settings.data} paused={paused} onDone={() => setEditing(false)} onCancel={settings.data.saved ? () => setEditing(false) : undefined} />
      ) : (
        <SettingsSummary settings={settings.data} onEdit={() => setEditing(true)} />
      )}
    </section>
  );
}

function SettingsSummary({ settings: s, onEdit }: { settings: TransferSettingsView; onEdit: () => void }) {
  const lines = hoursLines(s.hours);
  return (
    <>
      <dl className="my-transfers__facts" data-testid="transfer-settings">
        <div>
          <dt>Transfer phone</dt>
          <dd>{usPhoneText(s.transferPhone)}</dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>{s.timeZoneName || timeZoneName(s.timeZone)}</dd>
        </div>
        <div>
          <dt>Daily cap</dt>
          <dd>{s.dailyCap.toLocaleString('en-US')} a day</dd>
        </div>
        <div>
          <dt>At once</dt>
          <dd>{s.atOnce}</dd>
        </div>
        <div className="my-transfers__fact--wide">
          <dt>Working states</dt>
          <dd>{s.states.map((code) => stateName(code)).join(', ')}</dd>
        </div>
        <div className="my-transfers__fact--wide">
          <dt>Hours</dt>
          <dd>{lines.length ? lines.join(' · ') : 'No hours set: no transfer can reach you'}</dd>
        </div>
      </dl>
      <Button variant="secondary" className="btn--small" onClick={onEdit}>
        Change settings
      </Button>
    </>
  );
}

function SettingsForm({
  settings,
  paused,
  onDone,
  onCancel,
}: {
  settings: TransferSettingsView;
  paused: boolean;
  onDone: () => void;
  onCancel: (() => void) | undefined;
}) {
  const [values, setValues] = useState<SettingsValues>(() => valuesOf(settings));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const save = useSaveTransferSettings();
  const hoursId = useId();

  const set = <K extends keyof SettingsValues>(key: K, value: SettingsValues[K], field: SettingsField = key as SettingsField) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };
  const setDay = (day: Weekday, change: Partial<DayHours>) => set('days', { ...values.days, [day]: { ...values.days[day], ...change } }, 'hours');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body = bodyOf(values, paused);
    const checked = transferSettingsBody.safeParse(body);
    if (!checked.success) {
      const found = errorsOf(checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
      setErrors(found);
      focusFirstError(form, found);
      return;
    }
    setErrors({});
    save.mutate(body, {
      onSuccess: () => {
        toast({ title: 'Settings saved', description: paused ? 'Transfers stay paused until you resume them.' : 'Transfers reach you by these settings from the next call.', variant: 'success' });
        onDone();
      },
      onError: (failure) => {
        const found = serverErrors(failure);
        if (found) {
          setErrors(found);
          focusFirstError(form, found);
        } else {
          toast({ title: 'Failed to save settings', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' });
        }
      },
    });
  };

  return (
    <form className="my-transfers__form" onSubmit={submit} noValidate>
      {settings.saved ? null : (
        <p className="my-transfers__suggested" role="note" data-testid="settings-suggested">
          Suggested from your survey and your latest transfer order. Check them and press <strong>Save settings</strong>: no transfer is sent to you
          until your settings are saved.
        </p>
      )}
      <TextField
        label="Transfer phone"
        name="transferPhone"
        type="tel"
        autoComplete="tel-national"
        value={values.transferPhone}
        onChange={(e) => set('transferPhone', e.target.value)}
        error={errors.transferPhone}
        hint="The number prospects are transferred to, with its area code."
        required
      />
      <StateMultiSelect
        label="Working states"
        value={values.states}
        onChange={(states) => set('states', states)}
        error={errors.states}
        disabled={save.isPending}
        emptyHint="Choose every state you are licensed to take transfers in."
      />
      <Field label="Time zone" error={errors.timeZone} hint="Your hours and your daily cap count in this zone.">
        {(control) => (
          <select {...control} name="timeZone" className="field__input field__select" value={values.timeZone} onChange={(e) => set('timeZone', e.target.value)}>
            {AGENT_TIME_ZONES.some((z) => z.zone === values.timeZone) ? null : <option value={values.timeZone}>{values.timeZone}</option>}
            {AGENT_TIME_ZONES.map((z) => (
              <option key={z.zone} value={z.zone}>
                {z.name} ({z.zone})
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="hours-editor" aria-describedby={errors.hours ? `${hoursId}-error` : `${hoursId}-hint`} aria-invalid={errors.hours ? true : undefined}>
        <legend className="field__label">Weekly hours ({timeZoneName(values.timeZone)})</legend>
        <p id={`${hoursId}-hint`} className="field__hint">
          Tick the days you take transfers, and from when to when.
        </p>
        <ul className="hours-editor__days">
          {WEEKDAYS.map((day) => (
            <li key={day} className="hours-editor__day">
              <label className="hours-editor__on">
                <input type="checkbox" name={day === 'mon' ? 'hours' : undefined} checked={values.days[day].on} onChange={(e) => setDay(day, { on: e.target.checked })} />
                <span>{WEEKDAY_NAMES[day]}</span>
              </label>
              <TimeSelect label={`${WEEKDAY_NAMES[day]} from`} value={values.days[day].from} disabled={!values.days[day].on} onChange={(from) => setDay(day, { from })} />
              <span aria-hidden="true">–</span>
              <TimeSelect label={`${WEEKDAY_NAMES[day]} to`} value={values.days[day].to} disabled={!values.days[day].on} onChange={(to) => setDay(day, { to })} end />
            </li>
          ))}
        </ul>
        <FieldError id={`${hoursId}-error`} error={errors.hours} />
      </fieldset>
      <div className="my-transfers__numbers">
        <TextField
          label="Daily cap"
          name="dailyCap"
          inputMode="numeric"
          value={values.dailyCap}
          onChange={(e) => set('dailyCap', e.target.value)}
          error={errors.dailyCap}
          hint="Transfers a day, at most."
          required
        />
        <TextField
          label="Transfers at once"
          name="atOnce"
          inputMode="numeric"
          value={values.atOnce}
          onChange={(e) => set('atOnce', e.target.value)}
          error={errors.atOnce}
          hint="Calls you can take at the same time."
          required
        />
      </div>
      <FieldError id={`${hoursId}-form-error`} error={errors.form} />
      <div className="my-transfers__actions">
        <Button type="submit" busy={save.isPending}>
          Save settings
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** A time of day by the half hour; `end` adds midnight as the day's end (24:00). A saved time off the half hour stays offered. */
function TimeSelect({ label, value, onChange, disabled, end }: { label: string; value: string; onChange: (value: string) => void; disabled: boolean; end?: boolean }) {
  const options = [...HALF_HOURS, ...(end ? ['24:00'] : [])];
  if (!options.includes(value)) options.push(value);
  options.sort();
  return (
    <select className="field__input field__select hours-editor__time" aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      {options.map((t) => (
        <option key={t} value={t}>
          {clockText(t)}
        </option>
      ))}
    </select>
  );
}
