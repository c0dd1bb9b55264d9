import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LandingPage } from '../src/features/landing/landing-page';
import { SiteConfigProvider, type SiteConfig } from '../src/lib/site-config';

/** The landing page's Schedule a Call section: a booking widget when one is configured, never an empty frame. */

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const SITE: SiteConfig = {
  supportPhone: '(555) 010-0199',
  supportEmail: 'support@warmline.local',
  ringcloudSupportEmail: 'support@ringcloud.local',
  testimonial: { name: 'Sarah Mitchell', title: 'Agency Owner', quote: 'Great transfers.' },
  bookingUrl: null,
};

function renderLanding(site: SiteConfig) {
  // As the prerender gives them (the gateway's settings), so nothing is fetched.
  return render(
    <SiteConfigProvider value={site}>
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>
    </SiteConfigProvider>,
  );
}

const bookLinks = () => screen.getAllByRole('link', { name: 'Book a Call Now' });

describe('the Schedule a Call section', () => {
  it('when no booking widget is configured, then there is no frame and Book a Call Now asks support for a call by e-mail', () => {
    renderLanding(SITE);
    expect(document.querySelector('iframe')).toBeNull();
    expect(bookLinks().length).toBeGreaterThanOrEqual(2);
    for (const link of bookLinks()) expect(link.getAttribute('href')).toMatch(/^mailto:support@warmline\.local\?subject=/);
    expect(screen.getByText('Sarah Mitchell')).toBeTruthy();
    expect(screen.getByText('(555) 010-0199', { selector: 'span' })).toBeTruthy();
  });

  it('when a booking widget is configured, then it is embedded at least 800 px high with a plain link beside it', () => {
    renderLanding({ ...SITE, bookingUrl: 'https://booking.example.com/warmline' });
    const frame = screen.getByTitle('Book a call with WarmLine');
    expect(frame.getAttribute('src')).toBe('https://booking.example.com/warmline');
    expect(frame.className).toContain('landing-booking__frame');
    expect(bookLinks().some((l) => l.getAttribute('href') === 'https://booking.example.com/warmline')).toBe(true);
  });

  it('when the widget never loads, then the frame gives way to the plain Book a Call Now link', () => {
    vi.useFakeTimers();
    renderLanding({ ...SITE, bookingUrl: 'https://booking.example.com/warmline' });
    act(() => {
      vi.advanceTimersByTime(15_000);
    });
    expect(document.querySelector('iframe')).toBeNull();
    expect(screen.getByText(/The booking calendar could not be shown here\./)).toBeTruthy();
    const link = bookLinks().find((l) => l.getAttribute('href') === 'https://booking.example.com/warmline');
    expect(link?.getAttribute('target')).toBe('_blank');
  });

  it('when the widget loads, then it stays', () => {
    vi.useFakeTimers();
    renderLanding({ ...SITE, bookingUrl: 'https://booking.example.com/warmline' });
    fireEvent.load(screen.getByTitle('Book a call with WarmLine'));
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByTitle('Book a call with WarmLine')).toBeTruthy();
  });
});
