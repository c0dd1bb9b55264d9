import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@warmline/platform/config';
import { TEST_KEYS } from '@warmline/platform/testing/index';
import { notificationsEnv, resolveMailTransport } from '../src/config';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const env = (extra: Record<string, string>) => parseConfig(notificationsEnv, { IDENTITY_PUBLIC_KEY: TEST_KEYS.IDENTITY_PUBLIC_KEY, ...extra });

/** Runs the worker's entry point as an operator would, with only the given environment. */
function runMain(extra: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['services/notifications/src/main.ts'], {
      cwd: REPO_ROOT,
      // Nothing reachable: the refusal must come before any connection is tried.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        IDENTITY_PUBLIC_KEY: TEST_KEYS.IDENTITY_PUBLIC_KEY,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        AMQP_URL: 'amqp://nobody:nothing@127.0.0.1:1',
        ...extra,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the worker did not exit; stderr so far: ${stderr}`));
    }, 20_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('e-mail in production', () => {
  it('when production has no SMTP_URL, then the file mailer is refused in one line unless ALLOW_FILE_MAILER=true', () => {
    for (const allow of [{}, { ALLOW_FILE_MAILER: '' }, { ALLOW_FILE_MAILER: 'false' }] as Array<Record<string, string>>) {
      const config = env({ NODE_ENV: 'production', ...allow });
      expect(() => resolveMailTransport(config)).toThrow(ConfigError);
      expect(() => resolveMailTransport(config)).toThrow(/^Invalid configuration: SMTP_URL: [^\n]*ALLOW_FILE_MAILER=true[^\n]*$/);
    }
    expect(resolveMailTransport(env({ NODE_ENV: 'production', ALLOW_FILE_MAILER: 'true' }))).toBe('file');
  });

  it('when production sends to Mailpit or a loopback server, then it is refused in one line unless ALLOW_TEST_SMTP=true', () => {
    for (const url of ['smtp://mailpit:1025', 'smtp://localhost:25', 'smtp://127.0.0.1:1025', 'smtp://[::1]:25', 'smtp://MailPit:1025']) {
      const config = env({ NODE_ENV: 'production', SMTP_URL: url });
      expect(() => resolveMailTransport(config), url).toThrow(ConfigError);
      expect(() => resolveMailTransport(config), url).toThrow(/^Invalid configuration: SMTP_URL: [^\n]*ALLOW_TEST_SMTP=true[^\n]*$/);
      expect(resolveMailTransport(env({ NODE_ENV: 'production', SMTP_URL: url, ALLOW_TEST_SMTP: 'true' })), url).toBe('smtp');
    }
  });

  it('when production names a real mail server, then it sends through it without any allowance', () => {
    for (const url of ['smtps://warmline:secret@smtp.example.com:465', 'smtp://mail.internal.example:587', 'smtp://mailpit.example.com:25']) {
      expect(resolveMailTransport(env({ NODE_ENV: 'production', SMTP_URL: url })), url).toBe('smtp');
    }
  });

  it('when outside production, then the file mailer and Mailpit need no allowance (make start, the tests)', () => {
    expect(resolveMailTransport(env({ NODE_ENV: 'development' }))).toBe('file');
    expect(resolveMailTransport(env({ NODE_ENV: 'test', SMTP_URL: 'smtp://mailpit:1025' }))).toBe('smtp');
    expect(() => env({ ALLOW_FILE_MAILER: 'yes' })).toThrow(/ALLOW_FILE_MAILER: must be 'true' or 'false'/);
    expect(() => env({ ALLOW_TEST_SMTP: 'on' })).toThrow(/ALLOW_TEST_SMTP: must be 'true' or 'false'/);
  });

  it('when the worker starts in production with Mailpit, then it exits 78 with one stderr line before connecting anywhere', async () => {
    const { code, stderr } = await runMain({ NODE_ENV: 'production', SMTP_URL: 'smtp://mailpit:1025' });
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^notifications: Invalid configuration: SMTP_URL: mailpit .*ALLOW_TEST_SMTP=true/)]);
    const fileMailer = await runMain({ NODE_ENV: 'production' });
    expect(fileMailer.code).toBe(78);
    expect(fileMailer.stderr.trim().split('\n')).toEqual([expect.stringMatching(/ALLOW_FILE_MAILER=true/)]);
  });
});
