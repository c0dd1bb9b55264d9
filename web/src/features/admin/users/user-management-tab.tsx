import { useEffect, useState, type FormEvent } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import type { AdminUserListEntry } from '@warmline/contracts/admin-accounts';
import { ADMIN_PAGE_SIZE } from '@warmline/contracts/admin-accounts';
import { Button } from '../../../components/button';
import { AdminSearchForm } from '../shared/search-form';
import { Spinner } from '../../../components/spinner';
import { LoadError } from '../../../components/load-error';
import { Pager } from '../../../components/pager';
import { toast } from '../../../components/toast-store';
import { errorMessage } from '../../../lib/api';
import { goToDashboard } from '../shared/admin-shell-slots';
import { useUsersPage } from './users-api';
import { ChangePasswordDialog, DeleteUserDialog, fullName, ResetTwoFactorDialog, SetPriceDialog } from './user-dialogs';

type Action = { kind: 'price' | 'password' | 'two-factor' | 'delete'; user: PublicUser };

/**
 * User Management (spec §2, issue 12): one page of 50 users at a time, filtered on the server,
 * each with name, e-mail, username and live transfer price, and the four actions.
 */
export function UserManagementTab({
  filter,
  onFilterChange,
  currentUserId,
}: {
  filter: string;
  onFilterChange: (q: string) => void;
  currentUserId: string;
}) {
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState(filter);
  const [action, setAction] = useState<Action | null>(null);
  const users = useUsersPage(filter, page);
  const pages = Math.max(1, Math.ceil((users.data?.total ?? 0) / ADMIN_PAGE_SIZE));

  // Spec §8's toast, once per failure; the list says so too, with a Retry.
  const { isError, error, errorUpdatedAt } = users;
  useEffect(() => {
    if (isError) toast({ title: 'Failed to fetch users', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
  }, [isError, error, errorUpdatedAt]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    onFilterChange(draft.trim());
  };

  return (
    <div className="user-management">
      <AdminSearchForm
        id="user-filter"
        formLabel="Filter users"
        label="Filter users by name, e-mail, username or phone"
        placeholder="Filter by name, e-mail, username or phone"
        button="Filter"
        value={draft}
        onChange={setDraft}
        onSubmit={submit}
      />
      {users.isPending ? (
        <Spinner label="Loading users…" showLabel />
      ) : users.isError ? (
        <LoadError what="users" error={users.error} onRetry={() => void users.refetch()} />
      ) : users.data.users.length === 0 ? (
        <p className="admin-empty">{filter ? `No users match “${filter}”.` : 'No users yet.'}</p>
      ) : (
        <>
          <p className="admin-count" aria-live="polite">
            {users.data.total.toLocaleString('en-US')} {users.data.total === 1 ? 'user' : 'users'}
            {filter ? ` matching “${filter}”` : ''}
          </p>
          <ul className="user-list">
            {users.data.users.map((user) => (
              <li key={user.id} className="user-row card" data-testid="user-row">
                <div className="user-row__who">
                  <strong className="user-row__name">{fullName(user)}</strong>
                  <span>{user.email}</span>
                  <span className="user-row__meta">
                    @{user.username}
                    {user.isAdmin ? ' · Admin' : ''}
                  </span>
                </div>
                <div className="user-row__price">
                  <span className="user-row__label">Live transfer price</span>
                  <span className="user-row__value" data-testid="user-price">
                    ${user.liveTransferPrice}
                  </span>
                </div>
                <div className="user-row__actions">
                  <Button
                    variant="secondary"
                    className="btn--small"
                    // Only an agent's dashboard can be viewed (the server refuses an admin's).
                    disabled={user.isAdmin}
                    onClick={() => goToDashboard(user)}
                    title={user.isAdmin ? "Only an agent's dashboard can be viewed" : 'Opens their dashboard, read only, in a new tab'}
                    aria-label={`Go to Dashboard of ${fullName(user)}`}
                  >
                    Go to Dashboard
                  </Button>
                  <Button variant="secondary" className="btn--small" onClick={() => setAction({ kind: 'password', user })} aria-label={`Change Password of ${fullName(user)}`}>
                    Change Password
                  </Button>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    // Their own is changed from the account page, with their password and a code;
                    // a user without a second factor has nothing to reset.
                    disabled={user.id === currentUserId || user.twoFactor === 'off'}
                    title={twoFactorTitle(user, currentUserId)}
                    onClick={() => setAction({ kind: 'two-factor', user })}
                    aria-label={`Reset Two-Factor of ${fullName(user)}`}
                  >
                    Reset Two-Factor
                  </Button>
                  <Button
                    variant="danger"
                    className="btn--small"
                    disabled={user.id === currentUserId}
                    onClick={() => setAction({ kind: 'delete', user })}
                    aria-label={`Delete ${fullName(user)}`}
                  >
                    Delete
                  </Button>
                  <Button className="btn--small" onClick={() => setAction({ kind: 'price', user })} aria-label={`Set Price of ${fullName(user)}`}>
                    Set Price
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          <Pager page={page} totalPages={pages} onPage={setPage} label="User pages" />
        </>
      )}
      {action?.kind === 'price' ? <SetPriceDialog user={action.user} onClose={() => setAction(null)} /> : null}
      {action?.kind === 'password' ? <ChangePasswordDialog user={action.user} ownAccount={action.user.id === currentUserId} onClose={() => setAction(null)} /> : null}
      {action?.kind === 'two-factor' ? <ResetTwoFactorDialog user={action.user} onClose={() => setAction(null)} /> : null}
      {action?.kind === 'delete' ? <DeleteUserDialog user={action.user} onClose={() => setAction(null)} /> : null}
    </div>
  );
}

/** Why Reset Two-Factor is off, or what it would reset. */
function twoFactorTitle(user: AdminUserListEntry, currentUserId: string): string {
  if (user.id === currentUserId) return 'Change your own two-factor authentication from your account page';
  if (user.twoFactor === 'off') return 'This user has no two-factor authentication to reset';
  return user.twoFactor === 'pending' ? 'Cancels the enrolment they have started' : 'Turns off their two-factor authentication; they are e-mailed';
}
