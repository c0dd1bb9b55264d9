import { useState, type FormEvent } from 'react';
import { createVendorKeyBody, type CreatedVendorKey, type VendorKey } from '@warmline/contracts/callbacks';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { TextField } from '../../../components/field';
import { LoadError } from '../../../components/load-error';
import { Spinner } from '../../../components/spinner';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { validate } from '../../../lib/form';
import { fieldMessages, useCreateVendorKey, useRevokeVendorKey, useVendorKeys } from './callback-opportunities-api';
import { usDateTime } from '../../../lib/us-date';
import { useBusinessTimeZone } from '../../../lib/site-config';
import './vendor-keys.css';

/**
 * Vendor keys (issue 15 §2): an admin makes one per voice-AI vendor, sees it once (only its hash is
 * kept), and revokes it when the vendor should stop; the list says who made each and how much it is used.
 */
export function VendorKeysSection() {
  const keys = useVendorKeys();
  // Issue 22: the back office's times are the business's (BUSINESS_TIMEZONE), named.
  const zone = useBusinessTimeZone();
  const [created, setCreated] = useState<CreatedVendorKey | null>(null);
  const [revoking, setRevoking] = useState<VendorKey | null>(null);

  return (
    <section className="card callbacks-section" aria-labelledby="vendor-keys-title">
      <h2 id="vendor-keys-title" className="callbacks-section__title">
        Vendor Keys
      </h2>
      <p className="callbacks-section__hint">
        A voice-AI vendor posts its calls to the webhook with its key (see the{' '}
        <a className="link" href="/brightcalldocs" target="_blank" rel="noopener noreferrer">
          integration guide<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        ). Each key is shown once, when it is made.
      </p>
      <CreateKeyForm onCreated={setCreated} />
      {keys.isPending ? (
        <Spinner label="Loading vendor keys…" showLabel />
      ) : keys.isError ? (
        <LoadError what="vendor keys" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : keys.data.length === 0 ? (
        <p className="admin-empty">No vendor keys yet.</p>
      ) : (
        // A list, not a seven-column table: the section is half the tab wide from 960 px and the
        // whole of a phone, and each key with its Revoke must fit either (issue 22).
        <ul className="vendor-keys" aria-label="Vendor keys">
          {keys.data.map((key) => (
            <li key={key.id} className="vendor-key" data-testid="vendor-key">
              <div className="vendor-key__head">
                <span className="vendor-key__name">
                  <strong>{key.name}</strong> <code className="vendor-key__hint">{key.keyHint}…</code>
                </span>
                {key.revokedAt ? (
                  <span className="callback-status callback-status--revoked">Revoked {usDateTime(key.revokedAt, zone)}</span>
                ) : (
                  <span className="vendor-key__active">
                    <span className="callback-status callback-status--active">Active</span>
                    <Button variant="danger" className="btn--small" onClick={() => setRevoking(key)} aria-label={`Revoke the key of ${key.name}`}>
                      Revoke
                    </Button>
                  </span>
                )}
              </div>
              <dl className="vendor-key__facts">
                <div>
                  <dt>Created</dt>
                  <dd>
                    {usDateTime(key.createdAt, zone)}
                    {key.createdBy ? ` by ${key.createdBy}` : ''}
                  </dd>
                </div>
                <div>
                  <dt>Last used</dt>
                  <dd>{key.lastUsedAt ? usDateTime(key.lastUsedAt, zone) : 'Never'}</dd>
                </div>
                <div>
                  <dt>Calls received</dt>
                  <dd>{key.callsReceived.toLocaleString('en-US')}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(null)} /> : null}
      {revoking ? <RevokeKeyDialog vendorKey={revoking} onClose={() => setRevoking(null)} /> : null}
    </section>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedVendorKey) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const create = useCreateVendorKey();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = validate(createVendorKeyBody, { name });
    if (!checked.ok) {
      setError(checked.errors.name);
      return;
    }
    setError(undefined);
    create.mutate(checked.data.name, {
      onSuccess: (made) => {
        setName('');
        onCreated(made);
      },
      onError: (failure) => {
        const message = fieldMessages(failure).name;
        if (message) setError(message);
        else toast({ title: 'Failed to create vendor key', description: errorMessage(failure, 'Please try again.'), variant: 'destructive' });
      },
    });
  };

  return (
    <form className="callbacks-inline-form" onSubmit={submit} noValidate>
      <TextField label="Vendor name" name="name" value={name} maxLength={100} error={error} onChange={(e) => setName(e.target.value)} placeholder="e.g. BrightCall" />
      <Button type="submit" busy={create.isPending}>
        Create Key
      </Button>
    </form>
  );
}

/** The key, once: a Copy button and a plain warning that closing loses it. */
function CreatedKeyDialog({ created, onClose }: { created: CreatedVendorKey; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('yes');
    } catch {
      // No clipboard (an insecure origin, a refused permission): the key is selectable text.
      setCopied('failed');
    }
  };
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Key for ${created.name}`} description="Copy this key now and give it to the vendor: it will not be shown again. If it is lost, revoke it and create a new one.">
      <div className="vendor-key-secret">
        <code data-testid="created-key" className="vendor-key-secret__value">
          {created.key}
        </code>
        <Button variant="secondary" className="btn--small" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy key'}
        </Button>
      </div>
      <p className="callbacks-section__hint" role="status">
        {copied === 'yes' ? 'The key is on your clipboard.' : copied === 'failed' ? 'Copying did not work here: select the key and copy it by hand.' : ''}
      </p>
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button>I have copied the key</Button>
        </DialogClose>
      </div>
    </Dialog>
  );
}

function RevokeKeyDialog({ vendorKey, onClose }: { vendorKey: VendorKey; onClose: () => void }) {
  const revoke = useRevokeVendorKey();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Revoke Vendor Key"
      description={`Revoke the key of ${vendorKey.name} (${vendorKey.keyHint}…)? Its calls are refused at once; this cannot be undone.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Keep Key</Button>
        </DialogClose>
        <Button
          variant="danger"
          busy={revoke.isPending}
          onClick={() =>
            revoke.mutate(vendorKey.id, {
              onSuccess: () => {
                toast({ title: 'Key revoked', description: `${vendorKey.name} can no longer post calls with it.`, variant: 'success' });
                onClose();
              },
              onError: (error) => toast({ title: 'Failed to revoke vendor key', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
            })
          }
        >
          Revoke Key
        </Button>
      </div>
    </Dialog>
  );
}
