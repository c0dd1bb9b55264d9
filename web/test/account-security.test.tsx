import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@warmline/contracts/accounts';
import { AccountSecurity } from '../src/features/account/account-security';
import { createQueryClient } from '../src/lib/query-client';
import { stubApi, type ApiAnswer, type ApiCall } from './stub-api';

/**
 * The account page's second factor (issue 25): setting it up and turning it off ask for the
 * current password, which the page sends with each change. The network is a stand-in `fetch`.
 */

interface Sent {
  url: string;
  body: unknown;
}
let calls: ApiCall[] = [];
/** What the page posted. */
const sent = (): Sent[] => calls.filter((c) => c.method === 'POST').map(({ url, body }) => ({ url, body }));
let status: TwoFactorStatus = { enabled: false, required: false, recoveryCodesLeft: 0 };

beforeEach(() => {
  status = { enabled: false, required: false, recoveryCodesLeft: 0 };
  const ok = (body: unknown) => ({ status: 200, body });
  const answers: Record<string, ApiAnswer> = {
    '/api/two-factor/enrol': ok({ otpauthUrl: 'otpauth://totp/WarmLine:pat?secret=ABCD', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+', secret: 'ABCDEFGH', recoveryCodes: ['aaaa-bbbb'] }),
    '/api/two-factor/confirm': ok({ enabled: true, required: false, recoveryCodesLeft: 10 }),
    '/api/two-factor/disable': ok({ enabled: false, required: false, recoveryCodesLeft: 0 }),
  };
  // The three changes answer whatever the method; anything else reads the current status.
  calls = stubApi({}, { fallback: (call) => answers[call.url] ?? ok(status) }).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccountSecurity />
    </QueryClientProvider>,
  );
}

/** The current-password field of the two-factor card (the password card has its own, 'Current Password'). */
const twoFactorPassword = () => screen.getByLabelText('Current password') as HTMLInputElement;

describe('the second factor on the account page asks for the current password', () => {
  it('when an agent sets it up, then nothing is sent without the current password, and the enrolment and the first code carry it', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(sent()).toEqual([]);

    fireEvent.change(twoFactorPassword(), { target: { value: 'my password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    fireEvent.change(await screen.findByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));

    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()).toEqual([
      { url: '/api/two-factor/enrol', body: { currentPassword: 'my password' } },
      { url: '/api/two-factor/confirm', body: { code: '123456', currentPassword: 'my password' } },
    ]);
  });

  it('when an agent turns it off, then the form asks for the current password with the code and sends both', async () => {
    status = { enabled: true, required: false, recoveryCodesLeft: 10 };
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off two-factor authentication' }));
    fireEvent.change(screen.getByLabelText('Code from the app or a recovery code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(sent()).toEqual([]);

    fireEvent.change(twoFactorPassword(), { target: { value: 'my password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(sent()).toEqual([{ url: '/api/two-factor/disable', body: { code: '123456', currentPassword: 'my password' } }]));
  });
});
