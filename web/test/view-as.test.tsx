import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { apiRequest } from '../src/lib/api';
import { captureViewAsToken, forgetViewAs, viewAsState, viewAsToken } from '../src/lib/view-as-token';
import { ViewAsGate } from '../src/features/view-as/view-as-gate';
import { timeLeftText } from '../src/features/view-as/view-as-banner';
import { authKeys } from '../src/features/auth/api';

/**
 * The view-as tab in the SPA (docs/adr/0014-view-as.md): the grant leaves the address bar for
 * this tab's storage, rides on every request as X-View-As, and the tab shows the banner — or,
 * once the server says the grant has ended, only that it has ended.
 */

const TOKEN = 'A'.repeat(43);
let server: http.Server;
let base: string;
const seenHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    if (req.url === '/ended') {
      res.writeHead(401, { 'content-type': 'application/json', 'x-view-as-ended': '1', 'access-control-expose-headers': 'x-view-as-ended' });
      res.end(JSON.stringify({ error: 'Viewing as this user has ended' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  cleanup();
  forgetViewAs();
  window.history.replaceState(null, '', '/');
});

describe('the grant of this tab', () => {
  it('when the tab opens /dashboard?viewAs=…, then the token leaves the address (the rest stays) and is kept for this tab', () => {
    window.history.replaceState(null, '', `/dashboard?view=my-leads&viewAs=${TOKEN}#top`);
    captureViewAsToken();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/dashboard?view=my-leads#top');
    expect(viewAsToken()).toBe(TOKEN);
    expect(sessionStorage.getItem('warmline.viewAs')).toBe(TOKEN);
    expect(viewAsState()).toBe('viewing');
  });

  it('when the address has no token, then the tab is not viewing and requests carry no X-View-As', async () => {
    window.history.replaceState(null, '', '/dashboard');
    captureViewAsToken();
    expect(viewAsState()).toBe('none');
    await apiRequest(`${base}/ok`);
    expect(seenHeaders.at(-1)!['x-view-as']).toBeUndefined();
  });

  it('when viewing, then every request carries X-View-As; when the server says it ended, then the tab knows', async () => {
    window.history.replaceState(null, '', `/dashboard?viewAs=${TOKEN}`);
    captureViewAsToken();
    await apiRequest(`${base}/ok`, { method: 'POST', body: {} });
    expect(seenHeaders.at(-1)!['x-view-as']).toBe(TOKEN);
    await expect(apiRequest(`${base}/ended`)).rejects.toThrow(/401/);
    expect(viewAsState()).toBe('ended');
  });
});

describe('the banner', () => {
  it('says the minutes left, and under a minute says so', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(timeLeftText('2026-01-01T12:30:00Z', now)).toBe('30 min left');
    expect(timeLeftText('2026-01-01T12:01:59Z', now)).toBe('1 min left');
    expect(timeLeftText('2026-01-01T12:00:40Z', now)).toBe('less than a minute left');
  });

  function renderGate(user: unknown) {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(authKeys.currentUser(), user);
    return render(
      <QueryClientProvider client={client}>
        <ViewAsGate>
          <p>the dashboard</p>
        </ViewAsGate>
      </QueryClientProvider>,
    );
  }

  it("when viewing, then the banner names the agent as a status with the time left and End viewing, above the page", async () => {
    window.history.replaceState(null, '', `/dashboard?viewAs=${TOKEN}`);
    captureViewAsToken();
    const expiresAt = new Date(Date.now() + 29.5 * 60_000).toISOString();
    renderGate({ firstName: 'Dana', lastName: 'Cole', username: 'dana', viewingAs: { adminUsername: 'ada', expiresAt } });
    // The banner is a lazy chunk (off the public pages' JavaScript).
    expect((await screen.findByRole('status')).textContent).toBe('Viewing as Dana Cole — read only');
    expect(screen.getByTestId('view-as-time-left').textContent).toBe('29 min left');
    expect(screen.getByRole('button', { name: 'End viewing' })).toBeTruthy();
    expect(screen.getByText('the dashboard')).toBeTruthy();
  });

  it('when not viewing, then there is no banner', () => {
    renderGate({ firstName: 'Ada', lastName: 'Admin', username: 'ada' });
    expect(screen.queryByRole('button', { name: 'End viewing' })).toBeNull();
    expect(screen.getByText('the dashboard')).toBeTruthy();
  });

  it('when the grant ends while the page is open, then only "Viewing has ended" shows', async () => {
    window.history.replaceState(null, '', `/dashboard?viewAs=${TOKEN}`);
    captureViewAsToken();
    renderGate({ firstName: 'Dana', lastName: 'Cole', username: 'dana' });
    await act(async () => {
      await apiRequest(`${base}/ended`).catch(() => undefined);
    });
    expect(screen.getByRole('heading', { name: 'Viewing has ended' })).toBeTruthy();
    expect(screen.queryByText('the dashboard')).toBeNull();
  });
});
