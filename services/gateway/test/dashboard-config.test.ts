import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '@warmline/platform';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { gatewayEnv } from '../src/config';
import { SESSION_SECRET, startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** GET /api/dashboard-config: the training videos the customer dashboard embeds. */

let gw: GatewayFixture | undefined;

afterEach(async () => {
  await gw?.cleanup();
  gw = undefined;
});

const env = (extra: Record<string, string>) => ({ ...TEST_KEYS, SESSION_SECRET, ...extra });

describe('dashboard configuration', () => {
  it('when TRAINING_VIDEOS is not set, then a logged-in agent gets no videos (the page says they are on their way, no broken players)', async () => {
    gw = await startGatewayFixture();
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);

    const answer = await browser.get('/api/dashboard-config');

    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ trainingVideos: [] });
  });

  it('when TRAINING_VIDEOS names videos, then a logged-in agent gets those', async () => {
    gw = await startGatewayFixture({ env: { TRAINING_VIDEOS: 'Intro | https://www.youtube-nocookie.com/embed/abc; Deep dive | https://player.vimeo.com/video/42' } });
    const { user, password } = await gw.createAgent();
    const browser = gw.browser();
    await browser.login(user.username, password);

    const answer = await browser.get('/api/dashboard-config');

    expect(answer.json).toEqual({
      trainingVideos: [
        { title: 'Intro', embedUrl: 'https://www.youtube-nocookie.com/embed/abc' },
        { title: 'Deep dive', embedUrl: 'https://player.vimeo.com/video/42' },
      ],
    });
  });

  it('when nobody is logged in, then it answers 401', async () => {
    gw = await startGatewayFixture();

    expect((await gw.browser().get('/api/dashboard-config')).status).toBe(401);
  });

  it('reads TRAINING_VIDEOS as Title | https address entries, and refuses anything else in one line', () => {
    const config = parseConfig(gatewayEnv, env({ TRAINING_VIDEOS: 'Intro | https://www.youtube-nocookie.com/embed/abc;\nDeep dive|https://player.vimeo.com/video/42' }));
    expect(config.TRAINING_VIDEOS).toEqual([
      { title: 'Intro', embedUrl: 'https://www.youtube-nocookie.com/embed/abc' },
      { title: 'Deep dive', embedUrl: 'https://player.vimeo.com/video/42' },
    ]);
    expect(() => parseConfig(gatewayEnv, env({ TRAINING_VIDEOS: 'No address here' }))).toThrow(
      "Invalid configuration: TRAINING_VIDEOS: 'No address here' must be 'Title | https://embed-address'",
    );
    expect(() => parseConfig(gatewayEnv, env({ TRAINING_VIDEOS: 'Plain | http://insecure.example/v' }))).toThrow(/TRAINING_VIDEOS/);
  });
});
