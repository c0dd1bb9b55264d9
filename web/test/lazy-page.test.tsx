import { afterEach, describe, expect, it } from 'vitest';
import { Suspense } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { lazyPage } from '../src/lib/lazy-page';

/**
 * Issue 22: a signed-in page's code is preloaded beside its session and data; once in, the page
 * renders at once instead of suspending (each suspense is a reveal React throttles, ~300 ms).
 */
afterEach(cleanup);

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('lazyPage', () => {
  it('when the screen was preloaded, then it renders at once without showing the fallback', async () => {
    const Page = lazyPage(async () => ({ Hello }), 'Hello');
    await Page.preload();
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Page name="Ada" />
      </Suspense>,
    );
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('when it was not preloaded, then the fallback shows until its code is in', async () => {
    const Page = lazyPage(async () => ({ Hello }), 'Hello');
    render(
      <Suspense fallback={<p>Loading…</p>}>
        <Page name="Bo" />
      </Suspense>,
    );
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(await screen.findByText('Hello Bo')).toBeTruthy();
  });
});
