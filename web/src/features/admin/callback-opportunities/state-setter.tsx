import { useId, useState } from 'react';
import { US_STATE_CODES } from '@warmline/contracts/us-states';
import type { CallbackOpportunity } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { errorMessage } from '../../../lib/api';
import { fieldMessages, useSetOpportunityState } from './callback-opportunities-api';

/** 'Needs state': the opportunity's area code named no state, so an admin gives it one. */
export function StateSetter({ opportunity }: { opportunity: CallbackOpportunity }) {
  const id = useId();
  const [state, setState] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSetOpportunityState();
  return (
    <span className="callback-state-setter">
      <span className="callback-status callback-status--needs-state">Needs state</span>
      <label htmlFor={id} className="visually-hidden">
        State of {opportunity.firstName} {opportunity.lastName}
      </label>
      <select id={id} className="field__input field__select callback-state-setter__select" value={state} onChange={(e) => setState(e.target.value)}>
        <option value="">Choose…</option>
        {US_STATE_CODES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <Button
        variant="secondary"
        className="btn--small"
        disabled={!state}
        busy={save.isPending}
        onClick={() =>
          save.mutate(
            { id: opportunity.id, state },
            {
              onSuccess: () => setError(null),
              onError: (failure) => setError(fieldMessages(failure).state ?? errorMessage(failure, 'The state could not be saved; please try again.')),
            },
          )
        }
      >
        Set state
      </Button>
      {error ? (
        <span className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
