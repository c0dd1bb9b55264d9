/**
 * The broker users' topic permissions, generated from the broker manifest (docs/adr/0039):
 * each service's user may publish on warmline.events and warmline.commands only the routing
 * keys the manifest lists it as publisher of.
 *   --write   rewrite infra/rabbitmq/definitions.json's topic_permissions (docker-compose)
 *   --check   exit 1 when definitions.json differs from the manifest (the default)
 *   --apply   set them with rabbitmqctl on the local broker, for each service user it has
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { topicPermissions } from '@warmline/contracts';

const DEFINITIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../rabbitmq/definitions.json');
const mode = process.argv[2] ?? '--check';
const wanted = topicPermissions();

if (mode === '--write') {
  const definitions = JSON.parse(readFileSync(DEFINITIONS, 'utf8')) as Record<string, unknown>;
  definitions.topic_permissions = wanted;
  writeFileSync(DEFINITIONS, `${JSON.stringify(definitions, null, 2)}\n`);
  process.stdout.write(`wrote ${wanted.length} topic permissions to ${DEFINITIONS}\n`);
} else if (mode === '--check') {
  const definitions = JSON.parse(readFileSync(DEFINITIONS, 'utf8')) as { topic_permissions?: unknown };
  if (JSON.stringify(definitions.topic_permissions) !== JSON.stringify(wanted)) {
    process.stderr.write(`${DEFINITIONS}: topic_permissions differ from the broker manifest; run npx tsx infra/scripts/broker-permissions.ts --write\n`);
    process.exit(1);
  }
} else if (mode === '--apply') {
  const users = new Set(execFileSync('rabbitmqctl', ['-q', 'list_users'], { encoding: 'utf8' }).split('\n').map((line) => line.split('\t')[0]));
  for (const p of wanted.filter((each) => users.has(each.user))) {
    execFileSync('rabbitmqctl', ['-q', 'set_topic_permissions', '-p', p.vhost, p.user, p.exchange, p.write, p.read], { stdio: 'inherit' });
    process.stdout.write(`${p.user} may publish on ${p.exchange}: ${p.write}\n`);
  }
} else {
  process.stderr.write('usage: broker-permissions.ts [--check | --write | --apply]\n');
  process.exit(64);
}
