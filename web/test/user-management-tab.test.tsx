import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { AdminUserListEntry } from '@warmline/contracts/admin-accounts';
import { UserManagementTab } from '../src/features/admin/users/user-management-tab';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * User Management's Reset Two-Factor (issue 25's note): offered only for a user who has a second
 * factor to reset, on or being enrolled; never for the admin's own account.
 */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ADMIN_ID = '1a3c2f9e-1f4a-4a55-9c1e-2b8f6c0d9a11';

function user(firstName: string, id: string, twoFactor: AdminUserListEntry['twoFactor']): AdminUserListEntry {
  return {
    id,
    username: firstName.toLowerCase(),
    email: `${firstName.toLowerCase()}@example.com`,
    firstName,
    lastName: 'Cole',
    phone: '(512) 555-0142',
    agencyName: '',
    role: 'agent',
    isAdmin: false,
    liveTransferPrice: '35.00',
    createdAt: '2026-11-01T12:00:00.000Z',
    twoFactor,
  };
}

describe('Reset Two-Factor in the users list', () => {
  it("when users have a second factor on, pending or none, then the button is offered for the first two only, and never for the admin's own account", async () => {
    const users = [
      user('Dana', '7d3c2f9e-1f4a-4a55-9c1e-2b8f6c0d9a11', 'on'),
      user('Eli', '8d3c2f9e-1f4a-4a55-9c1e-2b8f6c0d9a11', 'pending'),
      user('Fay', '9d3c2f9e-1f4a-4a55-9c1e-2b8f6c0d9a11', 'off'),
      { ...user('Ada', ADMIN_ID, 'on'), isAdmin: true },
    ];
    stubApi({ 'GET /api/users?page=1': { status: 200, body: users, total: users.length } });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UserManagementTab filter="" onFilterChange={() => undefined} currentUserId={ADMIN_ID} />
      </QueryClientProvider>,
    );

    const reset = async (name: string) => (await screen.findByRole('button', { name: `Reset Two-Factor of ${name} Cole` })) as HTMLButtonElement;
    expect((await reset('Dana')).disabled).toBe(false);
    expect((await reset('Eli')).disabled).toBe(false);
    expect((await reset('Eli')).title).toBe('Cancels the enrolment they have started');
    expect((await reset('Fay')).disabled).toBe(true);
    expect((await reset('Fay')).title).toBe('This user has no two-factor authentication to reset');
    expect((await reset('Ada')).disabled).toBe(true);
  });
});
