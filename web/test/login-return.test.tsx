import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { PublicUser } from '@warmline/contracts/accounts';
import { RequireSession } from '../src/features/auth/guards';
import { LoginPage } from '../src/features/auth/login-page';
import { loginPathFor, safeReturnPath } from '../src/features/auth/return-path';
import { createQueryClient } from '../src/lib/query-client';
import { TEST_AGENT } from './accounts-fixture';
import { stubApi } from './stub-api';

/**
 * Sign-in returns to the page asked for (the call-back e-mail's /dashboard?view=my-callbacks), and
 * only ever to a path of this site: a `next` naming another origin is ignored. The network is a
 * stand-in `fetch` answering as the gateway would.
 */

const AGENT: PublicUser = { ...TEST_AGENT, role: 'Owner' };

beforeEach(() => {
  let signedIn = false;
  stubApi({
    'GET /api/current-user': () => (signedIn ? { status: 200, body: AGENT } : { status: 401, body: { error: 'Not authenticated' } }),
    'POST /api/login': () => {
      signedIn = true;
      return { status: 200, body: { ...AGENT, firstLogin: false } };
    },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

/** Where the router is: the path, query and hash a page was opened at. */
function Here() {
  const location = useLocation();
  return <output data-testid="here">{`${location.pathname}${location.search}${location.hash}`}</output>;
}

function renderApp(url: string) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<RequireSession>{() => <h1>Dashboard</h1>}</RequireSession>} />
          <Route path="/admin" element={<h1>Admin</h1>} />
          <Route path="*" element={<h1>Elsewhere</h1>} />
        </Routes>
        <Here />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Generous: the machine is shared, and a first render can take more than the default second. */
const SLOW = { timeout: 10_000 };

async function signIn() {
  fireEvent.change(await screen.findByLabelText('Username', {}, SLOW), { target: { value: 'jane' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'a good password' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
  await screen.findByRole('heading', { name: 'Dashboard' }, SLOW);
}

describe('signing in from a link to a page', () => {
  it("when a signed-out agent opens the e-mail's /dashboard?view=my-callbacks, then /login carries it and sign-in lands on it", async () => {
    renderApp('/dashboard?view=my-callbacks');
    await screen.findByRole('button', { name: 'Sign In' }, SLOW);
    expect(screen.getByTestId('here').textContent).toBe('/login?next=%2Fdashboard%3Fview%3Dmy-callbacks');
    await signIn();
    expect(screen.getByTestId('here').textContent).toBe('/dashboard?view=my-callbacks');
  });

  it.each(['//evil.com', 'https://evil.com', '/\\evil.com', 'javascript:alert(1)'])('when next is %s, then sign-in ignores it and lands on the dashboard', async (next) => {
    renderApp(`/login?next=${encodeURIComponent(next)}`);
    await signIn();
    expect(screen.getByTestId('here').textContent).toBe('/dashboard');
  });

  it('when /login is opened with no next, then an agent lands on the dashboard', async () => {
    renderApp('/login');
    await signIn();
    expect(screen.getByTestId('here').textContent).toBe('/dashboard');
  });
});

describe('the return path', () => {
  it('when it is a path of this site, then it is kept with its query and hash', () => {
    expect(safeReturnPath('/dashboard?view=my-callbacks')).toBe('/dashboard?view=my-callbacks');
    expect(safeReturnPath('/admin?tab=callback-opportunities#list')).toBe('/admin?tab=callback-opportunities#list');
    expect(safeReturnPath('/')).toBe('/');
  });

  it('when it could leave the site, then it is refused', () => {
    for (const raw of [
      '//evil.com',
      '//evil.com/dashboard',
      'https://evil.com',
      'https://evil.com/dashboard',
      'http:evil.com',
      '/\\evil.com',
      '\\\\evil.com',
      '/\t/evil.com',
      '/\n/evil.com',
      'javascript:alert(1)',
      'dashboard',
      ' /dashboard',
      '',
      null,
      undefined,
    ]) {
      expect(safeReturnPath(raw), String(raw)).toBeNull();
    }
  });

  it('when it is the sign-in pages themselves, then it is refused (no loop)', () => {
    expect(safeReturnPath('/login?next=%2Fdashboard')).toBeNull();
    expect(safeReturnPath('/reset-password?token=abc')).toBeNull();
  });

  it('when the guard builds the way to /login, then it carries the page, encoded', () => {
    expect(loginPathFor({ pathname: '/dashboard', search: '?view=my-callbacks', hash: '' })).toBe('/login?next=%2Fdashboard%3Fview%3Dmy-callbacks');
    expect(loginPathFor({ pathname: '/login', search: '', hash: '' })).toBe('/login');
  });
});
