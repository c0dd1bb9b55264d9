import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { PublicUser } from '@warmline/contracts/accounts';
import { ChangePasswordDialog, DeleteUserDialog, ResetTwoFactorDialog, SetPriceDialog } from '../src/features/admin/users/user-dialogs';
import { useToasts } from '../src/components/toast-store';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi } from './stub-api';

/**
 * The User Management dialogs (issue 12): they say what is wrong in the contracts' words and send
 * nothing until it is right; a refused request shows spec §8's toast and the dialog stays open.
 * The network is a stand-in `fetch` that records what the browser would send.
 */

interface Sent {
  url: string;
  method: string;
  body: unknown;
}
let sent: Sent[] = [];
let answerStatus = 200;

beforeEach(() => {
  sent = [];
  answerStatus = 200;
  // Every request gets the same answer: OK, or `answerStatus` with the server's refusal.
  sent = stubApi({}, { fallback: () => (answerStatus === 200 ? { status: 200, body: { ok: true } } : { status: answerStatus, body: { error: 'The server said no' } }) }).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const DANA: PublicUser = {
  id: '7d3c2f9e-1f4a-4a55-9c1e-2b8f6c0d9a11',
  username: 'dana',
  email: 'dana@example.com',
  firstName: 'Dana',
  lastName: 'Cole',
  phone: '(512) 555-0142',
  isAdmin: false,
  liveTransferPrice: '35.00',
} as PublicUser;

/** The latest toast's title, as the toaster would show it. */
function LatestToast() {
  const [latest] = useToasts();
  return <output data-testid="toast">{latest?.open ? latest.title : ''}</output>;
}

function renderWith(dialog: ReactNode) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      {dialog}
      <LatestToast />
    </QueryClientProvider>,
  );
  return onClose;
}

const priceInput = () => screen.getByLabelText('Price per transfer ($)') as HTMLInputElement;
function submitPrice(value: string) {
  fireEvent.change(priceInput(), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: 'Save Price' }));
}

describe('the Set Price dialog', () => {
  it('when it opens for an agent on the default price, then it shows 35.00', () => {
    renderWith(<SetPriceDialog user={DANA} onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Set Live Transfer Price' })).toBeTruthy();
    expect(priceInput().value).toBe('35.00');
  });

  it.each([
    ['', 'Price is required'],
    ['-1', 'Price must be at least 0'],
    ['12.345', 'Price must be a number with at most two decimals'],
  ])('when the price is %j, then it says %j, marks the field and sends nothing', (value, message) => {
    renderWith(<SetPriceDialog user={DANA} onClose={() => undefined} />);
    submitPrice(value);
    expect(screen.getByText(message)).toBeTruthy();
    expect(priceInput().getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('when the price is 31.50, then it sends 31.50 for that agent and closes', async () => {
    const onClose = vi.fn();
    renderWith(<SetPriceDialog user={DANA} onClose={onClose} />);
    submitPrice('31.5');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]).toEqual({ url: `/api/users/${DANA.id}/live-transfer-price`, method: 'PATCH', body: { price: '31.50' } });
    expect(screen.getByTestId('toast').textContent).toBe('Price updated');
  });

  it("when the server refuses, then the toast says 'Failed to update price' and the dialog stays open", async () => {
    answerStatus = 500;
    const onClose = vi.fn();
    renderWith(<SetPriceDialog user={DANA} onClose={onClose} />);
    submitPrice('40');
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to update price'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

function fillPasswords(password: string, confirmation: string) {
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm Password'), { target: { value: confirmation } });
  fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('the Change Password dialog', () => {
  it('when the new password is shorter than 8 characters, then it says so and sends nothing', () => {
    renderWith(<ChangePasswordDialog user={DANA} onClose={() => undefined} />);
    fillPasswords('short', 'short');
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("when the confirmation differs, then it says \"Passwords don't match\" and sends nothing", () => {
    renderWith(<ChangePasswordDialog user={DANA} onClose={() => undefined} />);
    fillPasswords('quiet-meadow-88', 'quiet-meadow-89');
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
    expect(screen.queryByText('Password must be at least 8 characters')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('when Show is pressed, then the new password is shown as text, and Hide hides it again', () => {
    renderWith(<ChangePasswordDialog user={DANA} onClose={() => undefined} />);
    const input = screen.getByLabelText('New Password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(input.getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide new password' }));
    expect(input.getAttribute('type')).toBe('password');
  });

  it('when both match and are long enough, then it sends only the new password for that agent', async () => {
    const onClose = vi.fn();
    renderWith(<ChangePasswordDialog user={DANA} onClose={onClose} />);
    fillPasswords('quiet-meadow-88', 'quiet-meadow-88');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ url: `/api/users/${DANA.id}/change-password`, method: 'POST', body: { newPassword: 'quiet-meadow-88' } }]);
  });

  it("when admins change their own password, then it asks for their current one and sends it; another user's asks for none", async () => {
    const onClose = vi.fn();
    renderWith(<ChangePasswordDialog user={DANA} ownAccount onClose={onClose} />);
    fillPasswords('quiet-meadow-88', 'quiet-meadow-88');
    expect(screen.getByText('Current password is required')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: 'old-meadow-11' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ url: `/api/users/${DANA.id}/change-password`, method: 'POST', body: { currentPassword: 'old-meadow-11', newPassword: 'quiet-meadow-88' } }]);
    cleanup();

    renderWith(<ChangePasswordDialog user={DANA} onClose={() => undefined} />);
    expect(screen.queryByLabelText('Current Password')).toBeNull();
  });

  it("when the server refuses, then the toast says 'Failed to change password'", async () => {
    answerStatus = 500;
    renderWith(<ChangePasswordDialog user={DANA} onClose={() => undefined} />);
    fillPasswords('quiet-meadow-88', 'quiet-meadow-88');
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to change password'));
  });
});

describe('the Delete dialog', () => {
  it('when it opens, then it names who is deleted and sends nothing until Delete is pressed', async () => {
    const onClose = vi.fn();
    renderWith(<DeleteUserDialog user={DANA} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Delete User' }).textContent).toContain('dana@example.com');
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ url: `/api/users/${DANA.id}`, method: 'DELETE', body: undefined }]);
  });

  it("when the server refuses, then the toast says 'Failed to delete user' and the dialog stays open", async () => {
    answerStatus = 403;
    const onClose = vi.fn();
    renderWith(<DeleteUserDialog user={DANA} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to delete user'));
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the Reset Two-Factor dialog (issue 25)', () => {
  it('when it opens, then it says what happens and sends nothing until Reset is pressed; then it resets that user', async () => {
    const onClose = vi.fn();
    renderWith(<ResetTwoFactorDialog user={DANA} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'Reset Two-Factor' }).textContent).toContain('password alone');
    expect(sent).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Two-Factor' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([{ url: `/api/users/${DANA.id}/reset-two-factor`, method: 'POST', body: {} }]);
    expect(screen.getByTestId('toast').textContent).toBe('Two-factor authentication reset');
  });

  it("when the server refuses (no second factor to reset), then the toast says 'Failed to reset two-factor' and the dialog stays open", async () => {
    answerStatus = 409;
    const onClose = vi.fn();
    renderWith(<ResetTwoFactorDialog user={DANA} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset Two-Factor' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Failed to reset two-factor'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
