import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys } from '@warmline/platform/testing/system';
import { requireService, TEST_REDIS_URL, uniqueName } from '@warmline/platform/testing/index';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/**
 * The gateway's Redis user of infra/redis/users.acl (docs/adr/0043), loaded into the local Redis
 * under a unique name and removed after: the gateway works with it (sessions, throttles), and it
 * can touch no key outside the gateway's prefix nor run an operator's command.
 */

const ACL_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../infra/redis/users.acl');
const user = uniqueName('acl_gateway');
const password = randomBytes(24).toString('hex');
// Under the prefix the file allows (warmline:gateway:*), apart from any other run's keys.
const prefix = `warmline:gateway:${uniqueName('acl')}:`;
const admin = createClient({ url: TEST_REDIS_URL });
let gw: GatewayFixture;

function userUrl(): string {
  const url = new URL(TEST_REDIS_URL);
  url.username = user;
  url.password = password;
  return url.toString();
}

beforeAll(async () => {
  await requireService('Redis', TEST_REDIS_URL);
  const line = (await readFile(ACL_FILE, 'utf8')).split('\n').find((l) => l.startsWith('user warmline-gateway '));
  if (!line) throw new Error(`${ACL_FILE} has no 'user warmline-gateway' line`);
  const rules = line
    .replace(/^user warmline-gateway /, '')
    .replace('>@REDIS_GATEWAY_PASSWORD@', `>${password}`)
    .trim()
    .split(/\s+/);
  await admin.connect();
  await admin.sendCommand(['ACL', 'SETUSER', user, ...rules]);
  gw = await startGatewayFixture({ env: { REDIS_URL: userUrl(), REDIS_PREFIX: prefix } });
}, 60_000);

afterAll(async () => {
  await gw?.cleanup();
  await deleteRedisKeys(prefix);
  if (admin.isOpen) {
    await admin.sendCommand(['ACL', 'DELUSER', user]);
    await admin.close();
  }
});

describe('the gateway’s Redis user', () => {
  it('when the gateway runs on it, then logins (sessions), failed logins (throttles) and logouts work, all under its prefix', async () => {
    const { user: agent, password: agentPassword } = await gw.createAgent();
    const wrong = await gw.browser().post('/api/login', { username: agent.username, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    const browser = gw.browser();
    await browser.login(agent.username, agentPassword);
    expect((await browser.get('/api/current-user')).status).toBe(200);
    const keys: string[] = [];
    for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(0);
    expect((await browser.get('/api/logout')).status).toBe(302);
  });

  it('when the same user touches a key outside the prefix or runs FLUSHALL, CONFIG, KEYS or a script on another key, then Redis refuses (NOPERM)', async () => {
    const client = createClient({ url: userUrl() });
    await client.connect();
    try {
      const refused = async (args: string[]) => {
        try {
          await client.sendCommand(args);
          return 'allowed';
        } catch (err) {
          return err instanceof Error ? err.message : String(err);
        }
      };
      for (const args of [
        ['GET', 'warmline:orders:anything'],
        ['SET', 'somebody-else', 'x'],
        ['FLUSHALL'],
        ['FLUSHDB'],
        ['CONFIG', 'GET', '*'],
        ['KEYS', '*'],
        ['ACL', 'LIST'],
        ['PUBLISH', 'channel', 'x'],
        ['EVAL', "return redis.call('GET', KEYS[1])", '1', 'not-the-gateways'],
      ]) {
        expect(await refused(args), args.join(' ')).toMatch(/NOPERM/);
      }
      expect(await client.set(`${prefix}own`, '1')).toBe('OK');
      expect(await client.get(`${prefix}own`)).toBe('1');
    } finally {
      await client.close();
    }
  });
});
