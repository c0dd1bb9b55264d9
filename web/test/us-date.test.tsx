import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { SiteConfigProvider, useBusinessTimeZone } from '../src/lib/site-config';
import { usDate, usDateTime, usTime } from '../src/lib/us-date';
import { TEST_SITE } from './site-config-fixture';

/**
 * Issue 22 item 10: one US format everywhere, every time naming its zone; the back office shows
 * times on the business's clock (BUSINESS_TIMEZONE from the site's settings), not the browser's.
 */
afterEach(cleanup);

const SITE = TEST_SITE;

function AdminTime({ at }: { at: string }) {
  const zone = useBusinessTimeZone();
  return <p>{usDateTime(at, zone)}</p>;
}

describe('US dates and times', () => {
  it('when a zone is given, then the date and time are on its clock and the zone is named', () => {
    // 02:00 UTC on the 11th is 9 PM on the 10th in Chicago (daylight time from March 8, 2026).
    expect(usDateTime('2026-03-11T02:00:00Z', 'America/Chicago')).toBe('03/10/2026, 9:00 PM CDT');
    expect(usDateTime('2026-11-25T15:32:00Z', 'America/New_York')).toBe('11/25/2026, 10:32 AM EST');
    expect(usDate('2026-03-11T02:00:00Z', 'America/Chicago')).toBe('03/10/2026');
    expect(usDate('2026-03-11T02:00:00Z', 'UTC')).toBe('03/11/2026');
    // A reservation's end: a time of day, its zone named too.
    expect(usTime('2026-11-25T15:32:00Z', 'America/Chicago')).toBe('9:32 AM CST');
  });

  it('when a back-office screen shows a time, then it is in BUSINESS_TIMEZONE as the site settings name it, else UTC', () => {
    render(
      <SiteConfigProvider value={SITE}>
        <AdminTime at="2026-11-25T15:32:00Z" />
      </SiteConfigProvider>,
    );
    expect(screen.getByText('11/25/2026, 9:32 AM CST')).toBeTruthy();
    cleanup();
    render(
      <SiteConfigProvider value={{ ...SITE, businessTimeZone: undefined }}>
        <AdminTime at="2026-11-25T15:32:00Z" />
      </SiteConfigProvider>,
    );
    expect(screen.getByText('11/25/2026, 3:32 PM UTC')).toBeTruthy();
  });
});
