import { useState } from 'react';
import { Button } from '../../../components/button';
import { TextField } from '../../../components/field';

/**
 * An admin's decision on what an agent asked (a lead return, a transfer dispute): Accept at
 * once, or Refuse with a reason the agent will read. The reason is asked for before Refuse is
 * sent; the server's refusal of the decision shows where the reason goes.
 */
export function AcceptOrRefuse({
  what,
  subject,
  hint,
  missingReason,
  busy,
  failure,
  onEdit,
  onDecide,
  className,
}: {
  /** 'return', 'dispute': the buttons say 'Refuse return', 'Accept dispute: …'. */
  what: string;
  /** Who or what, for the buttons' accessible names. */
  subject: string;
  /** Where the agent reads the reason. */
  hint: string;
  /** The words when Refuse is sent without a reason. */
  missingReason: string;
  busy: boolean;
  /** The server's answer when the decision failed. */
  failure: string | undefined;
  /** The admin changed the reason: the last failure no longer stands. */
  onEdit: () => void;
  onDecide: (decision: 'accept' | 'refuse', reason?: string) => void;
  className: string;
}) {
  const [refusing, setRefusing] = useState(false);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const error = missing ? missingReason : failure;
  const refuse = () => {
    if (!reason.trim()) return setMissing(true);
    onDecide('refuse', reason.trim());
  };
  return (
    <>
      {refusing ? (
        <TextField
          label="Why is it refused?"
          name="reason"
          value={reason}
          maxLength={500}
          onChange={(e) => {
            setReason(e.target.value);
            setMissing(false);
            onEdit();
          }}
          error={error}
          hint={hint}
        />
      ) : error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className={className}>
        {refusing ? (
          <>
            <Button variant="danger" className="btn--small" busy={busy} onClick={refuse}>
              Refuse {what}
            </Button>
            <Button variant="ghost" className="btn--small" disabled={busy} onClick={() => setRefusing(false)}>
              Cancel
            </Button>
          </>
        ) : (
          <>
            <Button className="btn--small" busy={busy} aria-label={`Accept ${what}: ${subject}`} onClick={() => onDecide('accept')}>
              Accept
            </Button>
            <Button variant="secondary" className="btn--small" disabled={busy} aria-label={`Refuse ${what}: ${subject}`} onClick={() => setRefusing(true)}>
              Refuse
            </Button>
          </>
        )}
      </div>
    </>
  );
}
