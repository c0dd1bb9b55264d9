import { useId, useState } from 'react';
import { US_STATE_CODES, type UsStateCode } from '@warmline/contracts/us-states';
import type { MyCallback, MyCallbacks } from '@warmline/contracts/callbacks';
import { stateName } from '@warmline/contracts/us-states';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { StateMultiSelect } from '../transfers/state-multi-select';
import { useMarkContacted, useMyCallbacks, useSetMyCallbackStates } from './api';
import { usPhoneText } from '../../lib/phone-text';
import { DncBadge } from '../compliance/dnc-badge';
import { outcomeText, telHref } from './format';
import { usDateTime } from '../../lib/us-date';
import { EvidenceLink } from '../compliance/evidence-link';
import { DoNotCallPhone } from '../compliance/do-not-call-phone';
import './callbacks.css';
import { CallAttempts, CallingHoursBadge } from '../compliance/calling-hours-badge';

const isStateCode = (s: string): s is UsStateCode => (US_STATE_CODES as readonly string[]).includes(s);

/**
 * My Call-backs (issue 15 §7; the notification e-mail links to /dashboard?view=my-callbacks): the
 * call-backs delivered to me with name, phone, time, transcript and outcome, my balance of call-backs
 * paid for and not yet delivered, and the states I take them in.
 */
export function MyCallbacksView({ onBuy }: { onBuy: () => void }) {
  const mine = useMyCallbacks();
  return (
    <section className="dash-view" aria-labelledby="my-callbacks-title">
      <div className="view-header view-header--actions">
        <div className="view-header__text">
          <h1 id="my-callbacks-title" className="view-header__title">
            My Call-backs
          </h1>
          <p className="view-header__lead">Prospects who asked to be called back, delivered to you in the states you take. Call them at the time they asked for.</p>
        </div>
        <Button variant="secondary" onClick={onBuy}>
          Buy Call-backs
        </Button>
      </div>
      {mine.isPending ? (
        <Spinner label="Loading your call-backs…" showLabel />
      ) : mine.isError ? (
        <LoadError what="your call-backs" error={mine.error} onRetry={() => void mine.refetch()} />
      ) : (
        <>
          <div className="my-callbacks__top">
            <BalanceCard balance={mine.data.balance} pending={mine.data.pending} />
            <StatesEditor states={mine.data.states} />
          </div>
          {mine.data.callbacks.length === 0 ? (
            <div className="card dash-note">
              <p>No call-backs delivered yet. {mine.data.states.length === 0 ? 'Choose the states you take them in, so they can reach you.' : ''}</p>
            </div>
          ) : (
            <ul className="my-callback-list">
              {mine.data.callbacks.map((c) => (
                <CallbackCard key={c.id} callback={c} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Call-backs to come: the balance, and the paid orders not in it yet (issue 22: right after paying,
 * the credit follows a moment later). Those count as to come and say they are on their way; the
 * view asks again until they are in the balance.
 */
function BalanceCard({ balance, pending }: { balance: number; pending: MyCallbacks['pending'] }) {
  const onTheWay = pending.reduce((sum, order) => sum + order.count, 0);
  const toCome = balance + onTheWay;
  return (
    <div className="card my-callbacks__balance">
      <p className="my-callbacks__balance-label">Call-backs to come</p>
      <p className="my-callbacks__balance-value" data-testid="callback-balance">
        {toCome.toLocaleString('en-US')}
      </p>
      {onTheWay > 0 ? (
        <p className="my-callbacks__pending" role="status" data-testid="callbacks-on-their-way">
          <span className="spinner my-callbacks__pending-spinner" aria-hidden="true" />
          <span>
            {onTheWay.toLocaleString('en-US')} {onTheWay === 1 ? 'call-back' : 'call-backs'} on {onTheWay === 1 ? 'its' : 'their'} way: your payment is in,
            and {onTheWay === 1 ? 'it is' : 'they are'} being added to your balance.
          </span>
        </p>
      ) : null}
      <p className="my-callbacks__hint">
        {toCome > 0
          ? 'Paid for and not yet delivered: each one arrives as a prospect in your states asks for a call-back.'
          : 'Buy call-backs to start receiving them.'}
      </p>
    </div>
  );
}

function StatesEditor({ states }: { states: string[] }) {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<UsStateCode[]>([]);
  const [error, setError] = useState<string | undefined>();
  const save = useSetMyCallbackStates();
  const titleId = useId();

  const start = () => {
    setChosen(states.filter(isStateCode));
    setError(undefined);
    setEditing(true);
  };

  return (
    <section className="card my-callbacks__states" aria-labelledby={titleId}>
      <h2 id={titleId} className="my-callbacks__subtitle">
        Your call-back states
      </h2>
      {editing ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate([...chosen].sort(), {
              onSuccess: () => {
                setEditing(false);
                toast({ title: 'States saved', description: chosen.length ? `You take call-backs in ${chosen.length} ${chosen.length === 1 ? 'state' : 'states'}.` : 'You take call-backs in no state for now.', variant: 'success' });
              },
              onError: (failure) => setError(errorMessage(failure, 'The states could not be saved; please try again.')),
            });
          }}
        >
          <StateMultiSelect label="States" value={chosen} onChange={setChosen} error={error} disabled={save.isPending} emptyHint="Choose every state you take call-backs in." />
          <div className="my-callbacks__actions">
            <Button type="submit" busy={save.isPending}>
              Save states
            </Button>
            <Button variant="ghost" onClick={() => setEditing(false)} disabled={save.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <p className="my-callbacks__state-list" data-testid="callback-states">
            {states.length ? states.map((s) => (isStateCode(s) ? `${stateName(s)} (${s})` : s)).join(', ') : 'None chosen yet'}
          </p>
          <Button variant="secondary" className="btn--small" onClick={start}>
            Change states
          </Button>
        </>
      )}
    </section>
  );
}

function CallbackCard({ callback: c }: { callback: MyCallback }) {
  const titleId = useId();
  const contact = useMarkContacted();
  return (
    <li className="card my-callback" data-testid="my-callback" aria-labelledby={titleId}>
      <div className="my-callback__head">
        <h2 id={titleId} className="my-callback__name">
          {c.fullName}
        </h2>
        <span className={`my-callback__status my-callback__status--${c.status}`}>{c.status === 'contacted' ? 'Contacted' : 'To call'}</span>
      </div>
      <DoNotCallPhone linkClassName="my-callback__phone link" href={telHref(c.phone)} optedOutAt={c.optedOutAt}>
        {usPhoneText(c.phone)}
      </DoNotCallPhone>
      <DncBadge dnc={c.dnc} />
      <CallingHoursBadge hours={c} />
      <dl className="my-callback__facts">
        <div>
          <dt>Call back</dt>
          <dd>{c.callbackTime ? usDateTime(c.callbackTime) : 'Any time'}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{c.state}</dd>
        </div>
        {c.callOutcome ? (
          <div>
            <dt>Outcome</dt>
            <dd>{outcomeText(c.callOutcome)}</dd>
          </div>
        ) : null}
        {c.leadQuality || c.interestLevel ? (
          <div>
            <dt>Quality / interest</dt>
            <dd>{[c.leadQuality, c.interestLevel].map((v) => v ?? '—').join(' / ')}</dd>
          </div>
        ) : null}
        <div>
          <dt>Delivered</dt>
          <dd>{usDateTime(c.assignedAt)}</dd>
        </div>
      </dl>
      {c.transcript ? (
        <details className="my-callback__transcript">
          <summary>Transcript</summary>
          <p>{c.transcript}</p>
        </details>
      ) : null}
      <EvidenceLink kind="callback" id={c.id} name={c.fullName} />
      <CallAttempts callbackId={c.id} attemptsLast24h={c.attemptsLast24h} prospectName={c.fullName} />
      {c.status === 'assigned' ? (
        <div className="my-callbacks__actions">
          <Button
            className="btn--small"
            busy={contact.isPending}
            // The visible words first (WCAG 2.5.3, label in name: a voice user says what they see), then whose.
            aria-label={`Mark contacted: ${c.fullName}`}
            onClick={() =>
              contact.mutate(c.id, {
                onError: (failure) => toast({ title: 'Failed to update call-back', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
              })
            }
          >
            Mark contacted
          </Button>
        </div>
      ) : null}
    </li>
  );
}
