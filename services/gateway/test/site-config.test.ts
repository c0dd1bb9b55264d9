import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { gatewayEnv } from '../src/config';
import { SESSION_SECRET, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** GET /api/site-config: the contact details, testimonial and booking widget the public pages show. */

let gw: GatewayFixture | undefined;

afterEach(async () => {
  await gw?.cleanup();
  gw = undefined;
});

describe('site configuration', () => {
  it('when nothing is configured, then an anonymous visitor gets the default contact details and testimonial and no booking widget', async () => {
    gw = await startGatewayFixture();

    const answer = await gw.browser().get('/api/site-config');

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      supportPhone: '(555) 010-0199',
      supportEmail: 'support@warmline.local',
      ringcloudSupportEmail: 'support@ringcloud.local',
      testimonial: {
        name: 'Sarah Mitchell',
        title: 'Agency Owner, Mitchell Insurance Group',
        quote: expect.stringMatching(/^WarmLine transformed our agency\./),
      },
      bookingUrl: null,
      businessTimeZone: 'America/Chicago',
    });
  });

  it('when the contact details, testimonial and booking URL are configured, then the site shows those', async () => {
    gw = await startGatewayFixture({
      env: {
        SUPPORT_PHONE: '(888) 555-0142',
        SUPPORT_EMAIL: 'help@agency.example',
        RINGCLOUD_SUPPORT_EMAIL: 'help@ringcloud.example',
        TESTIMONIAL_NAME: 'Dana Reyes',
        TESTIMONIAL_TITLE: 'Insurance Agent, Austin TX',
        TESTIMONIAL_QUOTE: 'Forty transfers a week, every one a real conversation.',
        BOOKING_URL: 'https://booking.example.com/warmline/intro-call',
        BUSINESS_TIMEZONE: 'America/New_York',
      },
    });

    const answer = await gw.browser().get('/api/site-config');

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      supportPhone: '(888) 555-0142',
      supportEmail: 'help@agency.example',
      ringcloudSupportEmail: 'help@ringcloud.example',
      testimonial: {
        name: 'Dana Reyes',
        title: 'Insurance Agent, Austin TX',
        quote: 'Forty transfers a week, every one a real conversation.',
      },
      bookingUrl: 'https://booking.example.com/warmline/intro-call',
      // Issue 22: the admin screens show times on the business's clock.
      businessTimeZone: 'America/New_York',
    });
  });

  it('when a variable is set but empty, then its default applies (docker-compose passes empty values)', () => {
    const config = parseConfig(gatewayEnv, {
      ...TEST_KEYS,
      SESSION_SECRET,
      SUPPORT_EMAIL: '',
      BOOKING_URL: '',
    });
    expect(config.SUPPORT_EMAIL).toBe('support@warmline.local');
    expect(config.BOOKING_URL).toBeUndefined();
  });

  it('when BOOKING_URL is not an http(s) address or SUPPORT_EMAIL not an e-mail, then the configuration is refused naming the variable', () => {
    const base = { ...TEST_KEYS, SESSION_SECRET };
    expect(() => parseConfig(gatewayEnv, { ...base, BOOKING_URL: 'javascript:alert(1)' })).toThrow(/BOOKING_URL: must be an http\(s\) URL/);
    expect(() => parseConfig(gatewayEnv, { ...base, SUPPORT_EMAIL: 'support' })).toThrow(/SUPPORT_EMAIL: must be an e-mail address/);
  });
});
