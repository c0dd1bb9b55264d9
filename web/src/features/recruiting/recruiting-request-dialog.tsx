import type { PublicUser } from '@warmline/contracts/accounts';
import { recruitingRequestBody, type RecruitingRequest } from '@warmline/contracts/transfers';
import { Button } from '../../components/button';
import { Dialog, DialogClose } from '../../components/dialog';
import { Field, TextField } from '../../components/field';
import { toast } from '../../components/toast-store';
import { errorMessage } from '../../lib/api';
import { useForm } from '../../lib/form';
import { useSendRecruitingRequest } from './api';

interface RequestValues {
  needs: string;
  agentsNeeded: string;
  email: string;
  phone: string;
}

/** The short request form behind 'Contact Recruiting Team': what the agency needs, how many agents, the contact. */
export function RecruitingRequestDialog({ user, open, onOpenChange }: { user: PublicUser; open: boolean; onOpenChange(open: boolean): void }) {
  const form = useForm<RequestValues>({ needs: '', agentsNeeded: '', email: user.email, phone: user.phone });
  const send = useSendRecruitingRequest();

  const sendRequest = (request: RecruitingRequest) => {
    if (send.isPending) return; // Enter pressed again while it is on its way
    send.mutate(request, {
      onSuccess: () => {
        toast({ title: 'Request Sent', description: 'Our recruiting team will contact you within one business day.', variant: 'success' });
        form.setValues((v) => ({ ...v, needs: '', agentsNeeded: '' }));
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
      <form className="form recruiting-form" onSubmit={form.handleSubmit(recruitingRequestBody, sendRequest)} noValidate>
        <Field label="What does your agency need?" error={form.errors.needs}>
          {(control) => (
            <textarea
              {...control}
              name="needs"
              className="field__input recruiting-form__needs"
              rows={4}
              placeholder="e.g. Two licensed P&C agents for our Austin office, bilingual preferred"
              value={form.values.needs}
              onChange={(e) => form.setValue('needs', e.target.value)}
              disabled={send.isPending}
            />
          )}
        </Field>
        <TextField
          label="How many agents?"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          {...form.field('agentsNeeded')}
          disabled={send.isPending}
        />
        <TextField label="Your e-mail" type="email" autoComplete="email" {...form.field('email')} disabled={send.isPending} />
        <TextField label="Your phone" type="tel" autoComplete="tel" {...form.field('phone')} disabled={send.isPending} />
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
