import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * MinIO's users per service (infra/minio/, docs/adr/0043): each policy lets its service reach
 * only its own prefixes of the bucket, with only the actions its code needs; minio-init (init.sh)
 * creates each user with its policy. docker-compose's side (no root credentials in any service)
 * is checked in ops-compose.test.ts.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BUCKET = 'warmline-files';

const statementSchema = z.object({
  Sid: z.string().optional(),
  Effect: z.enum(['Allow', 'Deny']),
  Action: z.array(z.string()).min(1),
  Resource: z.array(z.string()).min(1),
  Condition: z.record(z.string(), z.unknown()).optional(),
});
const policySchema = z.object({ Version: z.literal('2012-10-17'), Statement: z.array(statementSchema).min(1) });
type Policy = z.infer<typeof policySchema>;

function readPolicy(service: string): Policy {
  return policySchema.parse(JSON.parse(readFileSync(path.join(ROOT, `infra/minio/${service}-policy.json`), 'utf8')));
}

/** IAM's wildcard: `*` any run of characters, `?` one. */
function matches(pattern: string, value: string): boolean {
  const regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`);
  return regex.test(value);
}

/** Whether `policy` allows `action` on `resource` (no Deny statements are used, so Allow decides). */
function allows(policy: Policy, action: string, resource: string): boolean {
  return policy.Statement.some((s) => s.Effect === 'Allow' && s.Action.some((a) => matches(a, action)) && s.Resource.some((r) => matches(r, resource)));
}

const object = (key: string) => `arn:aws:s3:::${BUCKET}/${key}`;

/** The prefixes each service's code writes its keys under (read from the code, so a new prefix shows here). */
function prefixesInCode(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/`([a-z-]+)\/\$\{/g)].map((m) => `${m[1]}/`);
}

const SERVICES = {
  catalog: { prefixes: ['lead-imports/', 'dnc-registry/'], writes: true },
  // The importer reads the files the catalog stored and removes them once loaded; it never stores.
  importer: { prefixes: ['lead-imports/', 'dnc-registry/'], writes: false },
  partners: { prefixes: ['partner-documents/'], writes: true },
} as const;
const ALL_PREFIXES = [...new Set(Object.values(SERVICES).flatMap((s) => s.prefixes))];

describe('infra/minio policies', () => {
  it('when the catalog’s and the partners’ code name their keys, then the policies cover exactly those prefixes', () => {
    expect([
      ...prefixesInCode('services/catalog/src/imports/domain/lead-imports.ts'),
      ...prefixesInCode('services/catalog/src/suppressions/domain/dnc-registry-uploads.ts'),
    ].sort()).toEqual([...SERVICES.catalog.prefixes].sort());
    expect(prefixesInCode('services/partners/src/domain/documents.ts')).toEqual([...SERVICES.partners.prefixes]);
  });

  it.each(Object.entries(SERVICES))('when %s’s policy is read, then it reaches its own prefixes only, with no wildcard action or bucket', (service, { prefixes, writes }) => {
    const policy = readPolicy(service);
    for (const s of policy.Statement) {
      for (const action of s.Action) expect(action, service).toMatch(/^s3:[A-Za-z]+$/);
      for (const resource of s.Resource) expect(resource.startsWith(`arn:aws:s3:::${BUCKET}`), resource).toBe(true);
    }
    for (const prefix of prefixes) {
      expect(allows(policy, 's3:GetObject', object(`${prefix}some-id.csv`)), `${service} reads ${prefix}`).toBe(true);
      expect(allows(policy, 's3:DeleteObject', object(`${prefix}some-id.csv`)), `${service} removes ${prefix}`).toBe(true);
      expect(allows(policy, 's3:PutObject', object(`${prefix}some-id.csv`)), `${service} stores ${prefix}`).toBe(writes);
    }
    for (const other of ALL_PREFIXES.filter((p) => !prefixes.some((own) => own === p))) {
      for (const action of ['s3:GetObject', 's3:PutObject', 's3:DeleteObject']) {
        expect(allows(policy, action, object(`${other}some-id.pdf`)), `${service} ${action} ${other}`).toBe(false);
      }
    }
    // Nothing at the bucket's top level or in another bucket, and no administration.
    expect(allows(policy, 's3:GetObject', object('elsewhere.txt'))).toBe(false);
    expect(allows(policy, 's3:GetObject', 'arn:aws:s3:::another-bucket/lead-imports/x.csv')).toBe(false);
    for (const action of ['s3:DeleteBucket', 's3:PutBucketPolicy', 's3:CreateBucket', 'admin:CreateUser']) {
      expect(allows(policy, action, `arn:aws:s3:::${BUCKET}`), `${service} ${action}`).toBe(false);
    }
  });

  it('when minio-init runs, then it creates a user with its policy for every service that stores files', () => {
    const init = readFileSync(path.join(ROOT, 'infra/minio/init.sh'), 'utf8');
    expect(init).toMatch(new RegExp(`for service in ${Object.keys(SERVICES).join(' ')}; do`));
    expect(init).toContain('mc admin policy create warmline "warmline-$service" "$here/$service-policy.json"');
    expect(init).toContain('mc admin policy attach warmline "warmline-$service" --user "warmline-$service"');
  });
});
