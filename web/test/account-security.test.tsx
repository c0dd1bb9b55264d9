import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@warmline/contracts/accounts';
import { AccountSecurity } from '../src/features/account/account-security';
import { createQueryClient } from '../src/lib/query-client';

/**
 * The account page's second factor (issue 25): setting it up and turning it off ask for the
 * current password, which the page sends with each change. The network is a stand-in `fetch`.
 */

interface Sent {
  url: string;
  body: unknown;
}
let sent: Sent[] = [];
let status: TwoFactorStatus = { enabled: false, required: false, recoveryCodesLeft: 0 };
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  sent = [];
  status = { enabled: false, required: false, recoveryCodesLeft: 0 };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    if (init.method === 'POST') sent.push({ url, body: JSON.parse(String(init.body)) });
    if (url === '/api/two-factor/enrol') {
      return json({ otpauthUrl: 'otpauth://totp/WarmLine:pat?secret=ABCD', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+', secret: 'ABCDEFGH', recoveryCodes: ['aaaa-bbbb'] });
    }
    if (url === '/api/two-factor/confirm') return json({ enabled: true, required: false, recoveryCodesLeft: 10 });
    if (url === '/api/two-factor/disable') return json({ enabled: false, required: false, recoveryCodesLeft: 0 });
    return json(status);
  });
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
    expect(sent).toEqual([]);

    fireEvent.change(twoFactorPassword(), { target: { value: 'my password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    fireEvent.change(await screen.findByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor authentication' }));

    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
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
    expect(sent).toEqual([]);

    fireEvent.change(twoFactorPassword(), { target: { value: 'my password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(sent).toEqual([{ url: '/api/two-factor/disable', body: { code: '123456', currentPassword: 'my password' } }]));
  });
});
