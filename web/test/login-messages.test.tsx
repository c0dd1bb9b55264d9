import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Toaster } from '../src/components/toaster';
import { dismissToast, toast } from '../src/components/toast-store';
import { LoginPage } from '../src/features/auth/login-page';
import { PaymentForm } from '../src/features/payments/payment-form';
import { createQueryClient } from '../src/lib/query-client';
import { TEST_AGENT } from './accounts-fixture';
import { stubApi } from './stub-api';

/**
 * Issue 17 item 4 in the SPA: a failed login keeps its message on the form after the toast is
 * gone, the first sign-in is a welcome and later ones 'Welcome back!', and a failed payment is
 * said once, beside the pay button, with no toast. The network is a stand-in `fetch` answering
 * as the gateway and the sandbox provider would.
 */

const AGENT = TEST_AGENT;

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer[]> = {};
let requests: Array<{ url: string; body: unknown }> = [];

beforeEach(() => {
  answers = {};
  // Each address answers its list in turn, whatever the method; then 404.
  requests = stubApi({}, { fallback: (call) => answers[call.url]?.shift() ?? { status: 404, body: { error: 'Not found' } } }).calls;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Toasts live outside React: one left over from a test must not show in the next. */
function clearToasts() {
  act(() => {
    const id = toast({ title: 'x' });
    dismissToast(id);
  });
}

function renderLogin() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<h1>Dashboard</h1>} />
        </Routes>
        <Toaster />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signIn(login: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Username'), { target: { value: login } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

/** The toast on screen (radix renders it as a list item in the notifications region). */
const toastRegion = () => screen.getByRole('region', { name: /Notification/ });

describe('the login form', () => {
  beforeEach(clearToasts);

  it('when the password is wrong, then Login Failed with the server message is on the form beside Sign In, and stays when the toast is gone', async () => {
    answers['/api/login'] = [{ status: 401, body: { error: 'Invalid credentials' } }];
    renderLogin();
    await signIn('jane', 'wrong password');

    const alert = await screen.findByText('Login Failed', { selector: 'form [role="alert"] *' });
    const formAlert = alert.closest('[role="alert"]')!;
    expect(within(formAlert as HTMLElement).getByText('Invalid credentials')).toBeTruthy();
    // Right before the button it is about.
    expect(formAlert.nextElementSibling).toBe(screen.getByRole('button', { name: 'Sign In' }));
    // The toast says it too, for its 5 s.
    expect(within(toastRegion()).getByText('Login Failed')).toBeTruthy();

    fireEvent.click(within(toastRegion()).getByRole('button', { name: 'Close' }));
    await vi.waitFor(() => expect(within(toastRegion()).queryByText('Login Failed')).toBeNull());
    expect(formAlert.isConnected).toBe(true);
    expect(formAlert.textContent).toBe('Login FailedInvalid credentials');
  });

  it('when the next attempt succeeds, then the message leaves with the form', async () => {
    answers['/api/login'] = [
      { status: 401, body: { error: 'Invalid credentials' } },
      { status: 200, body: { ...AGENT, firstLogin: false } },
    ];
    renderLogin();
    await signIn('jane', 'wrong password');
    await screen.findByText('Invalid credentials', { selector: 'form [role="alert"] *' });
    await signIn('jane@agency.example', 'right password');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(requests.map((r) => r.body)).toEqual([
      { username: 'jane', password: 'wrong password' },
      { username: 'jane@agency.example', password: 'right password' },
    ]);
  });

  it("when it is the user's first sign-in, then the toast says 'Welcome, Jane!'", async () => {
    answers['/api/login'] = [{ status: 200, body: { ...AGENT, firstLogin: true } }];
    renderLogin();
    await signIn('jane', 'right password');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(within(toastRegion()).getByText('Login Successful')).toBeTruthy();
    expect(within(toastRegion()).getByText('Welcome, Jane!')).toBeTruthy();
    expect(within(toastRegion()).queryByText('Welcome back!')).toBeNull();
  });

  it("when the user signed in before, then the toast says the spec's 'Welcome back!', and firstLogin is not kept with the stored user", async () => {
    answers['/api/login'] = [{ status: 200, body: { ...AGENT, firstLogin: false } }];
    renderLogin();
    await signIn('jane', 'right password');
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(within(toastRegion()).getByText('Welcome back!')).toBeTruthy();
    const stored = JSON.parse(localStorage.getItem('user') ?? 'null') as Record<string, unknown> | null;
    expect(stored?.username).toBe('jane');
    expect(stored).not.toHaveProperty('firstLogin');
  });
});

describe('the payment form', () => {
  beforeEach(clearToasts);

  function renderPayment() {
    answers['/api/config'] = [{ status: 200, body: { paymentProvider: 'sandbox' } }];
    const onSuccess = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <PaymentForm clientSecret="pi_123_secret_456" amountCents={97500} billingFields={{ name: 'optional', email: 'hidden' }} onSuccess={onSuccess} />
        <Toaster />
      </QueryClientProvider>,
    );
    return onSuccess;
  }

  async function pay(cardNumber: string) {
    fireEvent.change(await screen.findByLabelText('Card number'), { target: { value: cardNumber } });
    fireEvent.change(screen.getByLabelText('Expiry (MM / YY)'), { target: { value: '1230' } });
    fireEvent.change(screen.getByLabelText('CVC'), { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Complete Payment - $975.00' }));
  }

  it("when the card is declined, then 'Payment Failed' and the provider's message show once, right above the pay button, and no toast", async () => {
    const onSuccess = renderPayment();
    answers['/api/payments/sandbox/confirm'] = [{ status: 402, body: { error: 'Your card was declined.', code: 'card_declined' } }];
    await pay('4000000000000002');

    const message = await screen.findByText('Your card was declined.');
    const alert = message.closest('[role="alert"]')!;
    expect(within(alert as HTMLElement).getByText('Payment Failed')).toBeTruthy();
    expect(alert.nextElementSibling).toBe(screen.getByRole('button', { name: 'Complete Payment - $975.00' }));
    expect(screen.getAllByText('Your card was declined.')).toHaveLength(1);
    expect(toastRegion().querySelectorAll('.toast')).toHaveLength(0);
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("when something else goes wrong, then 'Payment Error' says to try again, beside the button, and no toast", async () => {
    renderPayment();
    answers['/api/payments/sandbox/confirm'] = [{ status: 502, body: { error: 'Bad gateway' } }];
    await pay('4242424242424242');

    const message = await screen.findByText('Something went wrong. Please try again.');
    const alert = message.closest('[role="alert"]')!;
    expect(within(alert as HTMLElement).getByText('Payment Error')).toBeTruthy();
    expect(toastRegion().querySelectorAll('.toast')).toHaveLength(0);
  });
});
