import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { OrderStatusResponse } from '@warmline/contracts/orders';
import { RINGCLOUD_SUPPORT_EMAIL_DEFAULT } from '@warmline/contracts/brands';
import { OnboardingSuccessPage } from '../src/features/onboarding/onboarding-success-page';
import { ThankYouPage } from '../src/features/thank-you/thank-you-page';
import { saveOrderClaim } from '../src/features/checkout/order-claim';
import { createQueryClient } from '../src/lib/query-client';
import { SiteConfigProvider, type SiteConfig } from '../src/lib/site-config';
import { stubApi, type ApiCall } from './stub-api';

/**
 * /onboarding-success and /thank-you (issue 17): what was paid for, read from GET
 * /api/orders/{id}/status (a stand-in fetch here); without a paid order they say so and never
 * 'Your payment was received'. A RingCloud order keeps its brand; a transfer order leads to the dashboard.
 */

// No canvas in jsdom; the celebration is not what these tests look at.
vi.mock('../src/lib/confetti', () => ({ burstConfetti: async () => undefined, confettiFor: () => () => undefined }));

const ORDER_ID = '5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f';
const SITE: SiteConfig = {
  supportPhone: '(555) 010-0199',
  supportEmail: 'support@warmline.local',
  ringcloudSupportEmail: 'help@ringcloud.example',
  testimonial: { name: 'Sarah Mitchell', title: 'Agency Owner', quote: 'Great transfers.' },
  bookingUrl: null,
};

const PAID_PACKAGE: OrderStatusResponse = {
  orderId: ORDER_ID,
  brand: 'WarmLine',
  kind: 'package',
  status: 'paid',
  tier: 'premium',
  count: 60,
  unitPriceCents: 3700,
  amountCents: 222000,
  currency: 'usd',
  description: 'Premium Volume Package: 60 transfers × $37.00',
  createdAt: '2026-11-20T18:00:00Z',
  paidAt: '2026-11-20T18:01:00Z',
  failureMessage: null,
  transfer: null,
  leadPackage: null,
};
const PAID_RINGCLOUD: OrderStatusResponse = {
  ...PAID_PACKAGE,
  brand: 'RingCloud',
  tier: 'ringcloud',
  count: 20,
  unitPriceCents: 1500,
  amountCents: 30000,
  description: 'RingCloud Call-Backs: 20 callbacks × $15.00',
};
const PAID_TRANSFER: OrderStatusResponse = {
  ...PAID_PACKAGE,
  kind: 'transfer',
  tier: 'live-transfers',
  count: 20,
  unitPriceCents: 3150,
  amountCents: 63000,
  description: 'Live Transfers: 20 transfers × $31.50',
  transfer: { totalTransfers: 20, transfersPerDay: 5, states: ['TX', 'OK'], transferHours: '9am-5pm CST', transferPhone: '(405) 555-0199' },
};

/** What the stand-in server answers for ORDER_ID; undefined: 404 as for a made-up id. */
let stored: OrderStatusResponse | undefined;
let calls: ApiCall[] = [];
/** The addresses the pages asked, in order. */
const asked = () => calls.map((c) => c.url);
/** Who /api/current-user says is logged in (null: 401). */
let loggedIn: Record<string, unknown> | null = null;
/** What the claims posted. */
const claimBodies = () => calls.filter((c) => c.method === 'POST' && c.url === `/api/orders/${ORDER_ID}/claim`).map((c) => c.body);
beforeEach(() => {
  stored = undefined;
  loggedIn = null;
  localStorage.clear();
  sessionStorage.clear();
  calls = stubApi(
    { [`POST /api/orders/${ORDER_ID}/claim`]: { status: 200, body: { orderId: ORDER_ID, claimed: true } } },
    {
      fallback: ({ url }) => {
        if (url === `/api/orders/${ORDER_ID}/status` && stored) return { status: 200, body: stored };
        if (url === '/api/current-user') return loggedIn ? { status: 200, body: loggedIn } : { status: 401, body: { error: 'Not authenticated' } };
        return { status: 404, body: { error: 'Order not found' } };
      },
    },
  ).calls;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string, page: 'onboarding' | 'thank-you') {
  const queryClient = createQueryClient();
  // The site's settings as the gateway writes them into the page, so nothing is fetched for them.
  return render(
    <SiteConfigProvider value={SITE}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{page === 'onboarding' ? <OnboardingSuccessPage /> : <ThankYouPage />}</MemoryRouter>
      </QueryClientProvider>
    </SiteConfigProvider>,
  );
}

/** The value beside `term` in the on-screen receipt. */
const receiptRow = (term: string) => within(document.querySelector<HTMLElement>('dl[aria-label="Your order"]')!).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('/onboarding-success', () => {
  it('when the order is paid, then it shows the order number, what was bought, the total and the welcome', async () => {
    stored = PAID_PACKAGE;
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to WarmLine!' })).toBeTruthy();
    expect(screen.getByText(/Your payment was successful/)).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(ORDER_ID);
    expect(receiptRow('What you bought')).toBe('Premium Volume Package: 60 transfers × $37.00');
    expect(receiptRow('Total paid')).toBe('$2,220.00');
    expect(document.title).toBe('Welcome aboard · WarmLine');
  });

  it('when the order id was made up, then the page says no paid order was found and nothing about a payment received', async () => {
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect(await screen.findByRole('heading', { level: 1, name: 'No paid order found' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/payment was (successful|received)/i);
    expect(screen.queryByTestId('order-number')).toBeNull();
  });

  it('when there is no order id at all, then nothing is asked and it says no paid order was found', async () => {
    renderAt('/onboarding-success', 'onboarding');

    expect(await screen.findByRole('heading', { level: 1, name: 'No paid order found' })).toBeTruthy();
    // No order asked for; only who is signed in, for the ways on (issue 22).
    expect(asked().filter((url) => url !== '/api/current-user')).toEqual([]);
  });

  it('when the card was declined, then it says the payment did not go through, with the reason', async () => {
    stored = { ...PAID_PACKAGE, status: 'failed', paidAt: null, failureMessage: 'Your card was declined.' };
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect(await screen.findByRole('heading', { level: 1, name: 'Payment not completed' })).toBeTruthy();
    expect(screen.getByText(/did not go through: Your card was declined\./)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/payment was (successful|received)/i);
  });
});

describe('/onboarding-success for a signed-in buyer (issue 22)', () => {
  it('when the buyer is logged in, then the page offers their dashboard and My Orders, never a login or the survey', async () => {
    stored = PAID_PACKAGE;
    loggedIn = { id: 'u1', username: 'pat_p', firstName: 'Pat', lastName: 'P', email: 'pat@example.com', isAdmin: false };
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect((await screen.findByRole('link', { name: 'Go to Dashboard' })).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByRole('link', { name: 'See your orders in My Orders' }).getAttribute('href')).toBe('/dashboard?view=my-orders');
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(screen.queryByText('No account yet? Complete our survey')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Return to Home' })).toBeNull();
  });

  it('when nobody is logged in, then it offers Login, home and the survey', async () => {
    stored = PAID_PACKAGE;
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect((await screen.findByRole('link', { name: 'No account yet? Complete our survey' })).getAttribute('href')).toBe('/survey');
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).toBeNull();
  });
});

describe('keeping a package bought without a session', () => {
  it('the claim token is kept for this tab only (session storage), never in local storage where it would outlive the visit', () => {
    saveOrderClaim(ORDER_ID, 'oc1.token');

    expect(JSON.parse(sessionStorage.getItem('orderClaims')!)).toEqual({ [ORDER_ID]: 'oc1.token' });
    expect(localStorage.getItem('orderClaims')).toBeNull();
  });

  it('when this browser holds the order’s claim token and nobody is logged in, then it offers to create an account and log in to add it', async () => {
    stored = PAID_PACKAGE;
    sessionStorage.setItem('orderClaims', JSON.stringify({ [ORDER_ID]: 'oc1.token' }));
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    expect(await screen.findByRole('heading', { name: 'Keep this order in an account' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create an account (opens in a new tab)' }).getAttribute('href')).toBe('/survey');
    expect(screen.getByRole('button', { name: 'Log in and add this order' })).toBeTruthy();
  });

  it('when the buyer is logged in, then one click adds the order with the token and points to My Orders', async () => {
    stored = PAID_PACKAGE;
    loggedIn = { id: 'u1', username: 'pat_p', firstName: 'Pat', lastName: 'P', email: 'pat@example.com', isAdmin: false };
    sessionStorage.setItem('orderClaims', JSON.stringify({ [ORDER_ID]: 'oc1.token' }));
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    fireEvent.click(await screen.findByRole('button', { name: 'Add this order to my account' }));

    expect(await screen.findByRole('heading', { name: 'Added to your account' })).toBeTruthy();
    expect(claimBodies()).toEqual([{ claimToken: 'oc1.token' }]);
    expect(sessionStorage.getItem('orderClaims')).toBeNull();
    expect(screen.getByRole('link', { name: 'My Orders' }).getAttribute('href')).toBe('/dashboard?view=my-orders');
  });

  it('when this browser holds no token for the order, then nothing is offered (an order is never attached by e-mail)', async () => {
    stored = PAID_PACKAGE;
    renderAt(`/onboarding-success?order=${ORDER_ID}`, 'onboarding');

    await screen.findByRole('heading', { level: 1, name: 'Welcome to WarmLine!' });
    expect(screen.queryByRole('heading', { name: /Keep this order/ })).toBeNull();
  });
});

describe('keeping a RingCloud order bought without an account (/thank-you)', () => {
  it('when this browser holds the Call-Backs order’s claim token and nobody is logged in, then the RingCloud page offers an account, its call-backs and a login to add it', async () => {
    stored = PAID_RINGCLOUD;
    sessionStorage.setItem('orderClaims', JSON.stringify({ [ORDER_ID]: 'oc1.token' }));
    const { container } = renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    const offer = (await screen.findByRole('heading', { name: 'Keep this order in an account' })).closest('section')!;
    expect(container.querySelector('.brand-ringcloud')?.contains(offer)).toBe(true);
    expect(offer.textContent).toContain('receive its call-backs');
    // The main survey makes the account: RingCloud's survey would lead to a second checkout.
    expect(within(offer).getByRole('link', { name: 'Create an account (opens in a new tab)' }).getAttribute('href')).toBe('/survey');
    expect(within(offer).getByRole('button', { name: 'Log in and add this order' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('WarmLine');
  });

  it('when the buyer is logged in, then one click adds the RingCloud order and points to My Orders and My Call-backs', async () => {
    stored = PAID_RINGCLOUD;
    loggedIn = { id: 'u1', username: 'robin_r', firstName: 'Robin', lastName: 'R', email: 'robin@example.com', isAdmin: false };
    sessionStorage.setItem('orderClaims', JSON.stringify({ [ORDER_ID]: 'oc1.token', 'another-order': 'oc1.other' }));
    renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    expect(await screen.findByText(/Add this RingCloud order to your account/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add this order to my account' }));

    expect(await screen.findByRole('heading', { name: 'Added to your account' })).toBeTruthy();
    expect(claimBodies()).toEqual([{ claimToken: 'oc1.token' }]);
    expect(JSON.parse(sessionStorage.getItem('orderClaims')!)).toEqual({ 'another-order': 'oc1.other' });
    expect(screen.getByRole('link', { name: 'My Orders' }).getAttribute('href')).toBe('/dashboard?view=my-orders');
    expect(screen.getByRole('link', { name: 'My Call-backs' }).getAttribute('href')).toBe('/dashboard?view=my-callbacks');
  });

  it('when the RingCloud order is not Call-Backs, then the offer says nothing of call-backs', async () => {
    stored = { ...PAID_RINGCLOUD, description: 'RingCloud Live Transfers: 10 transfers × $37.00' };
    sessionStorage.setItem('orderClaims', JSON.stringify({ [ORDER_ID]: 'oc1.token' }));
    renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    const offer = (await screen.findByRole('heading', { name: 'Keep this order in an account' })).closest('section')!;
    expect(offer.textContent).toContain('find this order and its receipt in My Orders');
    expect(offer.textContent).not.toMatch(/call-backs/i);
  });

  it('when this browser holds no token for the order (it was linked by the survey, or paid elsewhere), then nothing is offered', async () => {
    stored = PAID_RINGCLOUD;
    sessionStorage.setItem('orderClaims', JSON.stringify({ 'another-order': 'oc1.other' }));
    renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    await screen.findByRole('heading', { level: 1, name: 'Thank You!' });
    expect(screen.queryByRole('heading', { name: /Keep this order/ })).toBeNull();
    expect(claimBodies()).toEqual([]);
  });
});

describe('/thank-you for a RingCloud Aged Leads pack (issue 22)', () => {
  it('when 12 of the 100 leads were in stock in FL and GA, then it says so, what is refunded, and links to My Leads', async () => {
    stored = {
      ...PAID_RINGCLOUD,
      count: 100,
      unitPriceCents: 400,
      amountCents: 40_000,
      description: 'RingCloud Aged Leads (60-90 days): 100 leads × $4.00',
      leadPackage: { ordered: 100, delivered: 12, states: ['FL', 'GA'] },
    };
    renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    expect(await screen.findByText('12 of your 100 leads are in My Leads, with full contact details. The rest were not in stock in your states and are refunded to your card.')).toBeTruthy();
    expect(receiptRow('Leads delivered')).toBe('12 of 100');
    expect(receiptRow('From the states')).toBe('Florida, Georgia');
    expect(receiptRow('Refunded')).toBe('$352.00 for the 88 not in stock');
    expect(screen.getByRole('link', { name: 'See them in My Leads' }).getAttribute('href')).toBe('/dashboard?view=my-leads');
    expect(document.body.textContent).not.toContain('An account manager will contact you');
  });

  it('when the pack is still being filled, then it says the leads are being picked', async () => {
    stored = { ...PAID_RINGCLOUD, count: 100, unitPriceCents: 400, amountCents: 40_000, leadPackage: { ordered: 100, delivered: null, states: ['FL'] } };
    renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    expect(await screen.findByText('We are picking your leads from stock now; this page updates in a moment.')).toBeTruthy();
    expect(receiptRow('Leads delivered')).toBe('Picking your leads…');
  });
});

describe('/thank-you', () => {
  it('when the order is still pending, then it says the payment is being confirmed, not received', async () => {
    stored = { ...PAID_PACKAGE, status: 'pending', paidAt: null };
    renderAt(`/thank-you?order=${ORDER_ID}`, 'thank-you');

    expect(await screen.findByRole('heading', { level: 1, name: 'Confirming your payment' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/payment was received/i);
  });

  it('when a transfer order is paid, then it shows its summary and leads back to the dashboard, not the home page', async () => {
    stored = PAID_TRANSFER;
    renderAt(`/thank-you?order=${ORDER_ID}`, 'thank-you');

    expect(await screen.findByRole('heading', { level: 1, name: 'Thank You!' })).toBeTruthy();
    expect(screen.getByText('Your payment was received and your order is confirmed.')).toBeTruthy();
    expect(screen.getByTestId('order-number').textContent).toBe(ORDER_ID);
    expect(receiptRow('Total transfers')).toBe('20');
    expect(receiptRow('Transfers per day')).toBe('5');
    expect(receiptRow('States')).toBe('Texas, Oklahoma');
    expect(receiptRow('Transfer hours')).toBe('9am-5pm CST');
    expect(receiptRow('Transfer phone')).toBe('(405) 555-0199');
    expect(receiptRow('Total paid')).toBe('$630.00');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard?view=buy-call-transfers');
    expect(screen.queryByRole('link', { name: 'Return to Home' })).toBeNull();
  });

  it('when a RingCloud order is paid, then the page, its title, support address and way home are RingCloud', async () => {
    stored = PAID_RINGCLOUD;
    const { container } = renderAt(`/thank-you?order=${ORDER_ID}&brand=ringcloud`, 'thank-you');

    expect(await screen.findByRole('heading', { level: 1, name: 'Thank You!' })).toBeTruthy();
    expect(container.querySelector('.brand-ringcloud')).not.toBeNull();
    expect(document.title).toBe('Thank You · RingCloud');
    // The configured RingCloud address (RINGCLOUD_SUPPORT_EMAIL, the one its e-mails name), not the default.
    expect(screen.getByRole('link', { name: 'help@ringcloud.example' }).getAttribute('href')).toBe('mailto:help@ringcloud.example');
    expect(screen.queryByText(RINGCLOUD_SUPPORT_EMAIL_DEFAULT)).toBeNull();
    expect(screen.queryByText(SITE.supportEmail)).toBeNull();
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/ringcloud');
    expect(document.body.textContent).not.toContain('WarmLine');
  });

  it('when a WarmLine page is visited with a made-up id, then no payment is claimed and home is the WarmLine home', async () => {
    renderAt(`/thank-you?order=${ORDER_ID}`, 'thank-you');

    expect(await screen.findByRole('heading', { level: 1, name: 'No paid order found' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/payment was received/i);
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });
});
