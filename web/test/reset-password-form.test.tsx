import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ResetPasswordForm } from '../src/features/auth/reset-password-form';

/** The reset form says what is wrong in the spec's words and sends nothing until it is right. */
afterEach(cleanup);

function fill(password: string, confirmation: string) {
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: confirmation } });
  fireEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('the reset password form', () => {
  it('when the new password is shorter than 8 characters, then it says so and submits nothing', () => {
    const onSubmit = vi.fn();
    render(<ResetPasswordForm onSubmit={onSubmit} />);
    fill('short', 'short');
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByLabelText('New Password').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("when the confirmation differs, then it says \"Passwords don't match\" and submits nothing", () => {
    const onSubmit = vi.fn();
    render(<ResetPasswordForm onSubmit={onSubmit} />);
    fill('long enough 1', 'long enough 2');
    expect(screen.getByText("Passwords don't match")).toBeTruthy();
    expect(screen.queryByText('Password must be at least 8 characters')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('when both match and are long enough, then it submits the new password', () => {
    const onSubmit = vi.fn();
    render(<ResetPasswordForm onSubmit={onSubmit} />);
    fill('a new password', 'a new password');
    expect(onSubmit).toHaveBeenCalledWith('a new password');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when the show toggle is pressed, then the password is shown as text', () => {
    render(<ResetPasswordForm onSubmit={() => undefined} />);
    const input = screen.getByLabelText('New Password');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(input.getAttribute('type')).toBe('text');
  });
});
