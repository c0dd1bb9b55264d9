import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('infra/scripts/ensure-services.sh', () => {
  it('when PostgreSQL, Redis and RabbitMQ run on this machine, then it exits 0 and the warmline database exists', () => {
    const result = spawnSync('bash', ['infra/scripts/ensure-services.sh'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    for (const name of ['PostgreSQL', 'Redis', 'RabbitMQ']) expect(result.stdout).toMatch(new RegExp(`${name} (answers|started)`));

    const check = spawnSync(
      'psql',
      ['postgres://postgres@127.0.0.1:5432/postgres', '-tAc', "SELECT count(*) FROM pg_database WHERE datname = 'warmline'"],
      { encoding: 'utf8' },
    );
    expect(check.stdout.trim()).toBe('1');
  }, 130_000);
});
