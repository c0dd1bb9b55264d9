import { useState, type FormEvent } from 'react';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ADMIN_PAGE_SIZE } from '@warmline/contracts/admin-accounts';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { errorMessage } from '../../lib/api';
import { useUsersPage } from './api';
import { ChangePasswordDialog, DeleteUserDialog, fullName, SetPriceDialog } from './user-dialogs';

type Action = { kind: 'price' | 'password' | 'delete'; user: PublicUser };

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

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    onFilterChange(draft.trim());
  };

  return (
    <div className="user-management">
      <form className="admin-filter" role="search" aria-label="Filter users" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="user-filter">
          Filter users by name, e-mail, username or phone
        </label>
        <input
          id="user-filter"
          className="field__input"
          type="search"
          placeholder="Filter by name, e-mail, username or phone"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </form>
      {users.isPending ? (
        <Spinner label="Loading users…" showLabel />
      ) : users.isError ? (
        <div className="card" role="alert">
          <p>Failed to fetch users: {errorMessage(users.error, 'the server did not answer')}.</p>
          <Button variant="secondary" onClick={() => void users.refetch()}>
            Retry
          </Button>
        </div>
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
                    onClick={() => window.open(`/dashboard`, '_blank', 'noopener')}
                    title="Opens the dashboard in a new tab"
                    aria-label={`Go to Dashboard (${fullName(user)})`}
                  >
                    Go to Dashboard
                  </Button>
                  <Button variant="secondary" className="btn--small" onClick={() => setAction({ kind: 'password', user })} aria-label={`Change Password of ${fullName(user)}`}>
                    Change Password
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
          {pages > 1 ? (
            <nav className="admin-pager" aria-label="User pages">
              <Button variant="secondary" className="btn--small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </Button>
              <span>
                Page {page} of {pages}
              </span>
              <Button variant="secondary" className="btn--small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
      {action?.kind === 'price' ? <SetPriceDialog user={action.user} onClose={() => setAction(null)} /> : null}
      {action?.kind === 'password' ? <ChangePasswordDialog user={action.user} onClose={() => setAction(null)} /> : null}
      {action?.kind === 'delete' ? <DeleteUserDialog user={action.user} onClose={() => setAction(null)} /> : null}
    </div>
  );
}
