import type { PublicUser } from '@warmline/contracts/accounts';
import { changeOwnPasswordForm, changePasswordForm, DEFAULT_LIVE_TRANSFER_PRICE, liveTransferPriceBody } from '@warmline/contracts/accounts';
import { Button } from '../../../components/button';
import { Dialog, DialogClose } from '../../../components/dialog';
import { PasswordField, TextField } from '../../../components/field';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { useForm } from '../../../lib/form';
import { useChangeUserPassword, useDeleteUser, useResetTwoFactor, useSetLiveTransferPrice } from './users-api';

/** The User Management dialogs (spec §2): set price, change password, delete — each with spec §8's failure toast. */

export function fullName(user: PublicUser): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.username;
}

export function SetPriceDialog({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const form = useForm({ price: user.liveTransferPrice || DEFAULT_LIVE_TRANSFER_PRICE });
  const setPrice = useSetLiveTransferPrice({
    onSuccess: () => {
      toast({ title: 'Price updated', description: `${fullName(user)} now pays $${Number(form.values.price).toFixed(2)} per transfer.`, variant: 'success' });
      onClose();
    },
    onError: (error) => toast({ title: 'Failed to update price', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Set Live Transfer Price" description={`Per-transfer price for ${fullName(user)}.`}>
      <form
        className="form"
        noValidate
        onSubmit={form.handleSubmit(liveTransferPriceBody, ({ price }) => setPrice.mutate({ userId: user.id, price }))}
      >
        <TextField
          label="Price per transfer ($)"
          inputMode="decimal"
          type="number"
          min={0}
          step={0.01}
          hint={`Default ${DEFAULT_LIVE_TRANSFER_PRICE} per transfer.`}
          {...form.field('price')}
        />
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" busy={setPrice.isPending}>
            Save Price
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** `ownAccount`: the admin's own row, where the server asks for the current password too (issue 25). */
export function ChangePasswordDialog({ user, ownAccount = false, onClose }: { user: PublicUser; ownAccount?: boolean; onClose: () => void }) {
  const form = useForm({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const change = useChangeUserPassword({
    onSuccess: () => {
      toast({ title: 'Password changed', description: `${fullName(user)} is signed out everywhere.`, variant: 'success' });
      onClose();
    },
    onError: (error) => toast({ title: 'Failed to change password', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Change Password" description={`A new password for ${fullName(user)}; their sessions end.`}>
      <form
        className="form"
        noValidate
        onSubmit={
          ownAccount
            ? form.handleSubmit(changeOwnPasswordForm, ({ currentPassword, newPassword }) => change.mutate({ userId: user.id, currentPassword, newPassword }))
            : form.handleSubmit(changePasswordForm, ({ newPassword }) => change.mutate({ userId: user.id, newPassword }))
        }
      >
        {ownAccount ? <PasswordField label="Current Password" autoComplete="current-password" {...form.field('currentPassword')} /> : null}
        <PasswordField label="New Password" autoComplete="new-password" {...form.field('newPassword')} />
        <PasswordField label="Confirm Password" autoComplete="new-password" {...form.field('confirmPassword')} />
        <div className="dialog__actions">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" busy={change.isPending}>
            Change Password
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** For a user who lost their authenticator app (issue 25): their next sign-in asks for the password alone. */
export function ResetTwoFactorDialog({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const reset = useResetTwoFactor({
    onSuccess: () => {
      toast({ title: 'Two-factor authentication reset', description: `${fullName(user)} is e-mailed that it was.`, variant: 'success' });
      onClose();
    },
    onError: (error) => toast({ title: 'Failed to reset two-factor', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Reset Two-Factor"
      description={`Turn off two-factor authentication for ${fullName(user)} (${user.email})? Their next sign-in asks for the password alone (admins set it up again); they are e-mailed.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button variant="danger" busy={reset.isPending} onClick={() => reset.mutate({ userId: user.id })}>
          Reset Two-Factor
        </Button>
      </div>
    </Dialog>
  );
}

export function DeleteUserDialog({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const remove = useDeleteUser({
    onSuccess: () => {
      toast({ title: 'User deleted', description: `${fullName(user)} can no longer log in.`, variant: 'success' });
      onClose();
    },
    onError: (error) => toast({ title: 'Failed to delete user', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Delete User"
      description={`Delete ${fullName(user)} (${user.email})? They can no longer log in; their orders and purchased leads stay on record.`}
    >
      <div className="dialog__actions">
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate({ userId: user.id })}>
          Delete
        </Button>
      </div>
    </Dialog>
  );
}
