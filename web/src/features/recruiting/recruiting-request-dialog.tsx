import { useState, type FormEvent } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { recruitingRequestBody } from '@warmline/contracts/transfers';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { Field, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { focusFirstError, validate, type FieldErrors } from '../../lib/form';
import { useSendRecruitingRequest } from './api';

interface RequestValues {
  needs: string;
  agentsNeeded: string;
  email: string;
  phone: string;
}

/** The short request form behind 'Contact Recruiting Team': what the agency needs, how many agents, the contact. */
export function RecruitingRequestDialog({ user, open, onOpenChange }: { user: PublicUser; open: boolean; onOpenChange(open: boolean): void }) {
  const [values, setValues] = useState<RequestValues>({ needs: '', agentsNeeded: '', email: user.email, phone: user.phone });
  const [errors, setErrors] = useState<FieldErrors<RequestValues>>({});
  const send = useSendRecruitingRequest();

  const set = (field: keyof RequestValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (send.isPending) return;
    const result = validate(recruitingRequestBody, values);
    if (!result.ok) {
      setErrors(result.errors as FieldErrors<RequestValues>);
      focusFirstError(event.currentTarget, result.errors);
      return;
    }
    send.mutate(result.data, {
      onSuccess: () => {
        toast({ title: 'Request Sent', description: 'Our recruiting team will contact you within one business day.', variant: 'success' });
        setValues((v) => ({ ...v, needs: '', agentsNeeded: '' }));
        onOpenChange(false);
      },
      onError: (error) => {
        toast({ title: 'Request Failed', description: errorMessage(error, 'Failed to send your request'), variant: 'destructive' });
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Contact Recruiting Team"
      description="Tell us who you are looking for; a recruiter will get back to you within one business day."
    >
      <form className="form recruiting-form" onSubmit={submit} noValidate>
        <Field label="What does your agency need?" error={errors.needs}>
          {(control) => (
            <textarea
              {...control}
              name="needs"
              className="field__input recruiting-form__needs"
              rows={4}
              placeholder="e.g. Two licensed P&C agents for our Austin office, bilingual preferred"
              value={values.needs}
              onChange={(e) => set('needs', e.target.value)}
              disabled={send.isPending}
            />
          )}
        </Field>
        <TextField
          label="How many agents?"
          name="agentsNeeded"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={values.agentsNeeded}
          onChange={(e) => set('agentsNeeded', e.target.value)}
          error={errors.agentsNeeded}
          disabled={send.isPending}
        />
        <TextField
          label="Your e-mail"
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
          error={errors.email}
          disabled={send.isPending}
        />
        <TextField
          label="Your phone"
          name="phone"
          type="tel"
          autoComplete="tel"
          value={values.phone}
          onChange={(e) => set('phone', e.target.value)}
          error={errors.phone}
          disabled={send.isPending}
        />
        <div className="recruiting-form__actions">
          <DialogClose asChild>
            <Button variant="secondary" disabled={send.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" busy={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send Request'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
