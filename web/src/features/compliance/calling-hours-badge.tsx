import { useId, useState } from 'react';
import { CALL_ATTEMPT_OUTCOMES, CALL_ATTEMPT_OUTCOME_LABELS, type CallAttemptOutcome, type ProspectCallingHours } from '@warmline/contracts/calling-hours';
import { Button } from '../../components/button';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useLogCallAttempt } from './api';
import './calling-hours.css';

/**
 * Issue 24 §3: the prospect's local time and whether a call is allowed now, as the server worked
 * them out (the rules live in contracts; the page's own refresh brings them up to date):
 * '3:45 PM CST · Callable now', '9:12 PM EST · Not callable — Opens 8:00 AM'.
 */
export function CallingHoursBadge({ hours }: { hours: ProspectCallingHours }) {
  const verdict = hours.callableNow ? 'Callable now' : `Not callable${hours.callingHoursNote ? ` — ${hours.callingHoursNote}` : ''}`;
  return (
    <span className={`calling-hours ${hours.callableNow ? 'calling-hours--open' : 'calling-hours--closed'}`} data-testid="calling-hours">
      <span className="calling-hours__time">{hours.localTime}</span>
      <span aria-hidden="true"> · </span>
      <span className="visually-hidden">, </span>
      <span className="calling-hours__verdict">{verdict}</span>
      {hours.callableNow && hours.callingHoursNote ? <span className="calling-hours__note"> ({hours.callingHoursNote})</span> : null}
    </span>
  );
}

/** The admin's call-backs: a callback time that falls outside calling hours in the prospect's zone. */
export function OutsideCallingHoursFlag({ outside }: { outside: boolean }) {
  if (!outside) return null;
  return (
    <span className="calling-hours calling-hours--closed calling-hours--flag" data-testid="callback-time-outside-hours">
      Callback time outside calling hours
    </span>
  );
}

/**
 * My Call-backs: the calls the agent logged in the last 24 hours (Florida, Oklahoma and Maryland
 * allow 3), and a form to log one more. A call outside the hours is recorded all the same; the
 * answer's words say so.
 */
export function CallAttempts({ callbackId, attemptsLast24h, prospectName }: { callbackId: string; attemptsLast24h: number; prospectName: string }) {
  const outcomeId = useId();
  const [outcome, setOutcome] = useState<CallAttemptOutcome | ''>('');
  const log = useLogCallAttempt();
  return (
    <div className="call-attempts" data-testid="call-attempts">
      <p className="call-attempts__count">
        Calls logged in the last 24 hours: <strong>{attemptsLast24h}</strong>
      </p>
      <div className="call-attempts__form">
        <label htmlFor={outcomeId} className="call-attempts__label">
          Outcome
        </label>
        <select id={outcomeId} value={outcome} onChange={(e) => setOutcome(e.target.value as CallAttemptOutcome | '')}>
          <option value="">Not said</option>
          {CALL_ATTEMPT_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {CALL_ATTEMPT_OUTCOME_LABELS[o]}
            </option>
          ))}
        </select>
        <Button
          variant="secondary"
          className="btn--small"
          busy={log.isPending}
          aria-label={`Log a call: ${prospectName}`}
          onClick={() =>
            log.mutate(
              { callbackId, ...(outcome ? { outcome } : {}) },
              {
                onSuccess: (answer) => {
                  setOutcome('');
                  toast({ title: answer.allowedWhenMade ? 'Call logged' : 'Call logged — not allowed when made', description: answer.message, variant: answer.allowedWhenMade ? 'success' : 'destructive' });
                },
                onError: (failure) => toast({ title: 'Failed to log the call', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' }),
              },
            )
          }
        >
          Log a call
        </Button>
      </div>
    </div>
  );
}
