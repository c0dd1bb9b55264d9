import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { z } from 'zod';

/**
 * infra/k8s (issue 25, docs/adr/0045): the production overlay, rendered by kubectl's built-in
 * kustomize (no cluster needed), is checked offline against the Kubernetes schemas and the
 * operators' CRDs (infra/k8s/schemas), and against what the code needs: every process of
 * infra/services.json has a Deployment whose environment gives every variable its config.ts
 * requires, probes on its internal listener, two replicas or more, a grace period above the
 * drain bound, and NetworkPolicies that let it reach exactly the services its *_URL variables
 * name. Only the gateway is reachable from outside. Each process holds only its own credentials
 * (docs/adr/0042, 0043): the gateway alone the identity private key and Redis, each service its
 * own service key, its schema's app role, its object-store user; the broker users publish only
 * what definitions.json's topic permissions allow (docs/adr/0039).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const K8S = path.join(ROOT, 'infra/k8s');
const SCHEMAS = path.join(K8S, 'schemas');

interface ListedProcess {
  name: string;
  port: number;
  portEnv: string;
  internalPort?: number;
  internalPortEnv?: string;
  schemaOf?: string;
  kind: 'service' | 'worker';
}
const listed = (JSON.parse(readFileSync(path.join(ROOT, 'infra/services.json'), 'utf8')) as { services: ListedProcess[] }).services;
const probePortOf = (p: ListedProcess) => p.internalPort ?? p.port;

type Labels = Record<string, string>;
interface KeyRef {
  name: string;
  key: string;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata: { labels: Labels };
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number };
}
interface NetworkPeer {
  podSelector?: { matchLabels?: Labels };
  namespaceSelector?: { matchLabels?: Labels };
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyRule {
  from?: NetworkPeer[];
  to?: NetworkPeer[];
  ports?: Array<{ port?: number | string; protocol?: string }>;
}
/** A rendered object; the fields read below are the ones the schemas checked first. */
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Labels; annotations?: Record<string, string> };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    instances?: number;
    template?: PodTemplate;
    selector?: { matchLabels?: Labels };
    minAvailable?: number | string;
    minReplicas?: number;
    scaleTargetRef?: { kind: string; name: string };
    podSelector?: { matchLabels?: Labels };
    policyTypes?: string[];
    ingress?: PolicyRule[];
    egress?: PolicyRule[];
    tls?: Array<{ hosts?: string[]; secretName?: string }>;
    rules?: Array<{ host?: string; http?: { paths: Array<{ backend: { service?: { name: string; port: { number?: number } } } }> } }>;
    type?: string;
    ports?: Array<{ port: number }>;
    user?: string;
    vhost?: string;
    permissions?: Record<string, string>;
    importCredentialsSecret?: { name: string };
    backup?: { barmanObjectStore?: { destinationPath?: string } };
    postgresql?: { parameters?: Record<string, string> };
    resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
    storage?: { size?: string };
    cluster?: { name: string };
    schedule?: string;
    enableSuperuserAccess?: boolean;
    superuserSecret?: { name: string };
    managed?: { roles?: Array<{ name: string; login?: boolean; passwordSecret?: { name: string } }> };
  };
}

/** Bytes of a Kubernetes quantity (2Gi, 512Mi) or a PostgreSQL size (2GB, 512MB, 8kB); NaN when neither. */
function bytesOf(size: string | undefined): number {
  const parts = /^(\d+)\s*(k|K|M|G|T)?(i|B)?$/.exec(size ?? '');
  if (!parts) return Number.NaN;
  const power = { '': 0, k: 1, K: 1, M: 2, G: 3, T: 4 }[parts[2] ?? '']!;
  return Number(parts[1]) * 1024 ** power;
}

function kubectl(args: string[]) {
  const result = spawnSync('kubectl', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error('kubectl is not installed: the Kubernetes manifests are rendered with its built-in kustomize (kubectl kustomize); install kubectl (v1.27 or later)');
  }
  return result;
}

/** Renders a kustomization directory of a copy of infra/k8s whose Secret templates are filled with their placeholders. */
function render(workdir: string, kustomization: string): Manifest[] {
  const result = kubectl(['kustomize', path.join(workdir, kustomization)]);
  expect(result.stderr, `kubectl kustomize ${kustomization}`).toBe('');
  expect(result.status).toBe(0);
  return parseAllDocuments(result.stdout).map((doc) => doc.toJSON() as Manifest);
}

/** Schema file of a kind: <kind>-<first word of the group>-<version>.json, as infra/k8s/schemas/refresh.mjs names them. */
function schemaFileOf(m: Pick<Manifest, 'apiVersion' | 'kind'>): string {
  const [group, version] = m.apiVersion.includes('/') ? m.apiVersion.split('/') : ['', m.apiVersion];
  return `${m.kind.toLowerCase()}-${group ? `${group!.split('.')[0]}-` : ''}${version}.json`;
}

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  // The schemas are large (a Deployment's holds the whole pod spec): shared subschemas stay
  // functions of their own, and ajv skips optimising code that runs over a few objects.
  inlineRefs: false,
  code: { optimize: false },
  // OpenAPI's number formats: the type already says integer or string.
  formats: { int32: true, int64: true, byte: true, 'date-time': true, double: true, float: true },
});
const validators = new Map<string, ValidateFunction>();
function validatorFor(m: Manifest): ValidateFunction {
  const file = schemaFileOf(m);
  let validate = validators.get(file);
  if (!validate) {
    const full = path.join(SCHEMAS, file);
    if (!existsSync(full)) throw new Error(`no schema for ${m.apiVersion} ${m.kind} (infra/k8s/schemas/${file}); add it with infra/k8s/schemas/refresh.mjs`);
    const { $schema: _draft, ...schema } = JSON.parse(readFileSync(full, 'utf8')) as Record<string, unknown>;
    validate = ajv.compile(schema);
    validators.set(file, validate);
  }
  return validate;
}
const schemaErrors = (m: Manifest) => {
  const validate = validatorFor(m);
  // A copy: validate() is a type guard, which would narrow `m` itself in the failing branch.
  return validate({ ...m }) ? [] : (validate.errors ?? []).map((e) => `${m.kind}/${m.metadata.name} ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
};

type EnvShape = Record<string, z.ZodType>;
/** The env shape a process parses at start: <name>Env of its service's config.ts (e.g. importerEnv in the catalog's). */
async function envShapeOf(p: ListedProcess): Promise<EnvShape> {
  const file = path.join(ROOT, 'services', p.schemaOf ?? p.name, 'src/config.ts');
  const exportName = `${p.name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())}Env`;
  const module = (await import(pathToFileURL(file).href)) as Record<string, EnvShape | undefined>;
  const shape = module[exportName];
  if (!shape) throw new Error(`${path.relative(ROOT, file)} exports no ${exportName}`);
  return shape;
}
/** A variable the process refuses to start without: no default, not optional. */
const isRequired = (field: z.ZodType) => !field.safeParse(undefined).success;
const defaultOf = (field: z.ZodType): unknown => {
  const parsed = field.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
};
/** A default that only works on a developer's machine (a loopback URL): a cluster must set it. */
const loopbackDefault = (field: z.ZodType) => {
  const value = defaultOf(field);
  return typeof value === 'string' && /^[a-z]+:\/\/(?:[^@/]*@)?(127\.0\.0\.1|localhost)(:\d+)?/.test(value) ? value : undefined;
};

/** Secrets the operators write (not rendered): CloudNativePG's application user, RabbitMQ's default user. */
const OPERATOR_SECRETS: Record<string, string[]> = {
  'warmline-postgres-app': ['uri', 'username', 'password', 'host', 'port', 'dbname'],
  'warmline-rabbitmq-default-user': ['username', 'password', 'host', 'port'],
};

let workdir = '';
let manifests: Manifest[] = [];
const shapes = new Map<string, EnvShape>();

beforeAll(async () => {
  workdir = mkdtempSync(path.join(os.tmpdir(), 'warmline-k8s-'));
  cpSync(K8S, path.join(workdir, 'k8s'), { recursive: true });
  const secrets = path.join(workdir, 'k8s/overlays/production/secrets');
  for (const file of readdirSync(secrets).filter((f) => f.endsWith('.env.example'))) {
    cpSync(path.join(secrets, file), path.join(secrets, file.replace(/\.example$/, '')));
  }
  manifests = render(workdir, 'k8s/overlays/production');
  for (const p of listed) shapes.set(p.name, await envShapeOf(p));
}, 120_000);
afterAll(() => {
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

const all = (kind: string) => manifests.filter((m) => m.kind === kind);
const one = (kind: string, name: string) => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the production overlay`);
  return found;
};
const selects = (selector: Labels | undefined, labels: Labels) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const containerOf = (m: Manifest) => m.spec!.template!.spec.containers[0]!;

/** Every variable a container gets, with its literal value where it has one ('' for a Secret's). */
function environmentOf(c: Container): Map<string, string> {
  const env = new Map<string, string>();
  for (const from of c.envFrom ?? []) {
    const source = from.configMapRef ? one('ConfigMap', from.configMapRef.name) : one('Secret', from.secretRef!.name);
    for (const key of Object.keys(source.data ?? {})) env.set(key, from.configMapRef ? source.data![key]! : '');
  }
  for (const v of c.env ?? []) {
    if (v.value !== undefined) env.set(v.name, v.value.replace(/\$\((\w+)\)/g, (_m, name: string) => env.get(name) || 'placeholder'));
    else if (v.valueFrom?.configMapKeyRef) env.set(v.name, one('ConfigMap', v.valueFrom.configMapKeyRef.name).data?.[v.valueFrom.configMapKeyRef.key] ?? '');
    else env.set(v.name, '');
  }
  return env;
}

/** A rendered Secret's value (the overlay's placeholders, from the *.env.example files). */
const secretValue = (name: string, key: string) => {
  const data = one('Secret', name).data?.[key];
  if (data === undefined) throw new Error(`Secret ${name} has no ${key}`);
  return Buffer.from(data, 'base64').toString('utf8');
};
/** The Secrets a container reads, by name (envFrom or a key of env). */
const secretsReadBy = (c: Container) =>
  new Set([...(c.envFrom ?? []).flatMap((f) => (f.secretRef ? [f.secretRef.name] : [])), ...(c.env ?? []).flatMap((v) => (v.valueFrom?.secretKeyRef ? [v.valueFrom.secretKeyRef.name] : []))]);
const envVarOf = (c: Container, name: string) => (c.env ?? []).find((v) => v.name === name);
/** A URL written with $(VAR) references, its references replaced so it parses. */
const urlOf = (c: Container, name: string) => new URL((envVarOf(c, name)?.value ?? '').replace(/\$\((\w+)\)/g, 'x'));
const schemaOf = (p: ListedProcess) => p.schemaOf ?? p.name;

/** The process whose listener a loopback default URL names (by port), and whether it is its internal one. */
function calledProcess(url: string): ListedProcess | undefined {
  const port = Number(new URL(url).port);
  return listed.find((p) => p.port === port || p.internalPort === port);
}

const allows = (rules: PolicyRule[] | undefined, direction: 'from' | 'to', labels: Labels, port: number) =>
  (rules ?? []).some(
    (rule) =>
      (rule[direction] ?? []).some((peer) => !peer.namespaceSelector && !peer.ipBlock && selects(peer.podSelector?.matchLabels, labels)) &&
      (rule.ports ?? []).some((p) => p.port === port),
  );

describe('the Kubernetes manifests (infra/k8s)', () => {
  it('when rendered, then every object of the base and the production overlay is valid against the Kubernetes schemas and the operators’ CRDs', () => {
    const base = render(workdir, 'k8s/base');
    expect(base.length).toBeGreaterThan(0);
    expect([...base, ...manifests].flatMap(schemaErrors)).toEqual([]);
    for (const kind of ['RabbitmqCluster', 'User', 'Permission', 'TopicPermission', 'Cluster', 'ScheduledBackup', 'Deployment', 'NetworkPolicy']) {
      expect(all(kind).length, kind).toBeGreaterThan(0);
    }
    expect(manifests.filter((m) => m.kind !== 'Namespace').every((m) => m.metadata.namespace === 'warmline')).toBe(true);
  }, 180_000);

  it('when a manifest has a misspelt field or a wrong type, then the schemas refuse it (they are strict)', () => {
    const deployment = structuredClone(one('Deployment', 'gateway'));
    (deployment.spec as Record<string, unknown>).replica = 2;
    expect(schemaErrors(deployment).join()).toMatch(/additional/);
    const cluster = structuredClone(one('Cluster', 'warmline-postgres'));
    (cluster.spec as Record<string, unknown>).instances = 'two';
    expect(schemaErrors(cluster).join()).toMatch(/instances/);
    const permission = structuredClone(all('Permission')[0]!);
    permission.spec!.permissions = { ...permission.spec!.permissions, publish: '.*' };
    expect(schemaErrors(permission)).not.toEqual([]);
  });

  it('when a process of infra/services.json is deployed, then its Deployment gives every variable its config.ts requires, with values it accepts', () => {
    for (const p of listed) {
      const shape = shapes.get(p.name)!;
      const env = environmentOf(containerOf(one('Deployment', p.name)));
      const required = Object.keys(shape).filter((key) => isRequired(shape[key]!));
      expect(required.filter((key) => !env.has(key)), `${p.name}: required by its config.ts`).toEqual([]);
      const loopback = Object.keys(shape).filter((key) => loopbackDefault(shape[key]!) !== undefined && key !== 'REDIS_URL');
      expect(loopback.filter((key) => !env.has(key)), `${p.name}: defaults that only work on one machine`).toEqual([]);
      // Literal values (a ConfigMap's, the manifest's own) must pass the process's own validation.
      for (const [key, value] of env) {
        if (value !== '' && shape[key]) expect(shape[key]!.safeParse(value).success, `${p.name}: ${key}=${value}`).toBe(true);
      }
      expect(env.get(p.portEnv), p.name).toBe(String(p.port));
      if (p.internalPortEnv) expect(env.get(p.internalPortEnv), p.name).toBe(String(p.internalPort));
      expect(env.get('NODE_ENV'), p.name).toBe('production');
      expect(env.get('INTERNAL_HOST'), p.name).toBe('0.0.0.0');
      expect(env.get('AMQP_URL'), p.name).toMatch(/^amqp:\/\/placeholder:placeholder@warmline-rabbitmq:5672$/);
    }
  });

  it('when a process calls another (a *_URL of its config.ts), then its URL names that Service and the NetworkPolicies let exactly those calls through', () => {
    const deployments = new Map(listed.map((p) => [p.name, one('Deployment', p.name)]));
    const policyOf = (name: string) => one('NetworkPolicy', name);
    for (const p of listed) {
      const shape = shapes.get(p.name)!;
      const env = environmentOf(containerOf(deployments.get(p.name)!));
      const called = new Set<string>();
      for (const key of Object.keys(shape)) {
        const url = loopbackDefault(shape[key]!);
        const target = url && key !== 'PUBLIC_URL' ? calledProcess(url) : undefined;
        if (!url || !target) continue;
        const port = Number(new URL(url).port);
        expect(env.get(key), `${p.name}: ${key}`).toBe(`http://${target.name}:${port}`);
        expect(one('Service', target.name).spec!.ports!.map((sp) => sp.port), `${target.name}'s Service`).toContain(port);
        const targetLabels = deployments.get(target.name)!.spec!.template!.metadata.labels;
        expect(allows(policyOf(p.name).spec!.egress, 'to', targetLabels, port), `${p.name} → ${target.name}:${port} (egress)`).toBe(true);
        const callerLabels = deployments.get(p.name)!.spec!.template!.metadata.labels;
        expect(allows(policyOf(target.name).spec!.ingress, 'from', callerLabels, port), `${p.name} → ${target.name}:${port} (ingress)`).toBe(true);
        called.add(target.name);
      }
      // No other process is reachable from this one.
      for (const other of listed.filter((o) => !called.has(o.name) && o.name !== p.name)) {
        const labels = deployments.get(other.name)!.spec!.template!.metadata.labels;
        for (const port of [other.port, other.internalPort].filter((x): x is number => x !== undefined)) {
          expect(allows(policyOf(p.name).spec!.egress, 'to', labels, port), `${p.name} must not reach ${other.name}:${port}`).toBe(false);
        }
      }
    }
  });

  it('when the stores are reached, then PostgreSQL and RabbitMQ serve every process, Redis only the gateway, the object store only those that keep files', () => {
    const postgres = { 'cnpg.io/cluster': 'warmline-postgres' };
    const rabbitmq = { 'app.kubernetes.io/name': 'warmline-rabbitmq' };
    const redis = one('StatefulSet', 'warmline-redis').spec!.template!.metadata.labels;
    for (const p of listed) {
      const policy = one('NetworkPolicy', p.name);
      const env = environmentOf(containerOf(one('Deployment', p.name)));
      expect(allows(policy.spec!.egress, 'to', postgres, 5432), `${p.name} → PostgreSQL`).toBe(true);
      expect(allows(policy.spec!.egress, 'to', rabbitmq, 5672), `${p.name} → RabbitMQ`).toBe(true);
      expect(allows(policy.spec!.egress, 'to', redis, 6379), `${p.name} → Redis`).toBe(p.name === 'gateway');
      expect(env.has('REDIS_URL'), `${p.name}: REDIS_URL`).toBe(p.name === 'gateway');
      // The blob store's variables go to the processes whose config.ts reads them, and only there.
      const keepsFiles = 'S3_BUCKET' in shapes.get(p.name)!;
      expect(env.get('BLOB_STORE'), `${p.name}: BLOB_STORE`).toBe(keepsFiles ? 's3' : undefined);
      if (keepsFiles) expect(env.has('S3_ACCESS_KEY_ID') && env.has('S3_SECRET_ACCESS_KEY') && env.has('S3_BUCKET'), p.name).toBe(true);
    }
    const redisPolicy = one('NetworkPolicy', 'warmline-redis');
    const gatewayLabels = one('Deployment', 'gateway').spec!.template!.metadata.labels;
    expect(allows(redisPolicy.spec!.ingress, 'from', gatewayLabels, 6379)).toBe(true);
    expect(redisPolicy.spec!.ingress!.flatMap((r) => r.from ?? [])).toHaveLength(1);
  });

  it('when a replica is stopped, then two or more stay, probes ask the internal listener, and the grace period outlasts the drain', () => {
    for (const p of listed) {
      const deployment = one('Deployment', p.name);
      const c = containerOf(deployment);
      expect(deployment.spec!.replicas, p.name).toBeGreaterThanOrEqual(2);
      expect(c.readinessProbe?.httpGet, p.name).toEqual({ path: '/readyz', port: probePortOf(p) });
      expect(c.livenessProbe?.httpGet, p.name).toEqual({ path: '/healthz', port: probePortOf(p) });
      expect(c.resources?.requests?.cpu && c.resources.requests.memory && c.resources.limits?.memory, p.name).toBeTruthy();
      expect(c.image, p.name).toMatch(new RegExp(`/warmline/${p.name}:`));
      // The bound: SHUTDOWN_DELAY_MS + SHUTDOWN_DRAIN_MS as the workload sets them or config.ts defaults
      // them (5 s and 20 s, issue 25, where config.ts does not name them yet).
      const shape = shapes.get(p.name)!;
      const env = environmentOf(c);
      const ms = (key: string, fallback: number) =>
        Number(env.get(key) || (shape[key] ? defaultOf(shape[key]!) : undefined) || fallback);
      const boundSeconds = (ms('SHUTDOWN_DELAY_MS', 5_000) + ms('SHUTDOWN_DRAIN_MS', 20_000)) / 1000;
      expect(deployment.spec!.template!.spec.terminationGracePeriodSeconds, p.name).toBeGreaterThan(boundSeconds);
      const budget = all('PodDisruptionBudget').find((pdb) => selects(pdb.spec!.selector?.matchLabels, deployment.spec!.template!.metadata.labels));
      expect(budget?.spec?.minAvailable, `${p.name}: PodDisruptionBudget`).toBeGreaterThanOrEqual(1);
    }
    for (const name of ['gateway', 'catalog']) {
      const hpa = all('HorizontalPodAutoscaler').find((h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === name);
      expect(hpa?.spec?.minReplicas, `${name}: HorizontalPodAutoscaler`).toBeGreaterThanOrEqual(2);
    }
  });

  it('when traffic comes from outside, then only the gateway’s public port is reachable, over TLS, and every pod is under a deny-by-default policy', () => {
    const deny = all('NetworkPolicy').find((np) => Object.keys(np.spec!.podSelector?.matchLabels ?? {}).length === 0 && !np.spec!.ingress && !np.spec!.egress);
    expect(deny?.spec?.policyTypes?.sort()).toEqual(['Egress', 'Ingress']);
    const gateway = listed.find((p) => p.name === 'gateway')!;
    for (const m of manifests.filter((x) => ['Deployment', 'StatefulSet', 'Job'].includes(x.kind))) {
      const labels = m.spec!.template!.metadata.labels;
      const own = all('NetworkPolicy').filter((np) => selects(np.spec!.podSelector?.matchLabels, labels));
      expect(own.length, `${m.kind} ${m.metadata.name}: its own NetworkPolicy`).toBeGreaterThan(0);
      for (const np of own) {
        expect(np.spec!.policyTypes?.sort(), np.metadata.name).toEqual(['Egress', 'Ingress']);
        for (const rule of np.spec!.ingress ?? []) {
          // A rule without `from` admits everyone; one with a namespace or an address admits outsiders.
          const outsiders = !rule.from || rule.from.some((peer) => peer.namespaceSelector || peer.ipBlock);
          if (!outsiders) continue;
          const operators = rule.from?.every((peer) => /^(cnpg|rabbitmq)-system$/.test(peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] ?? ''));
          const controllerToGateway =
            m.kind === 'Deployment' && m.metadata.name === 'gateway' && rule.ports?.length === 1 && rule.ports[0]!.port === gateway.port;
          expect(operators || controllerToGateway, `${np.metadata.name} admits from outside the namespace`).toBe(true);
        }
      }
    }
    for (const ingress of all('Ingress')) {
      const backends = ingress.spec!.rules!.flatMap((r) => r.http?.paths ?? []).map((p) => p.backend.service);
      expect(backends).toEqual(backends.map(() => ({ name: 'gateway', port: { number: gateway.port } })));
      const tlsHosts = ingress.spec!.tls!.flatMap((t) => t.hosts ?? []);
      for (const rule of ingress.spec!.rules!) expect(tlsHosts, `${rule.host} over TLS`).toContain(rule.host);
    }
    expect(all('Service').filter((s) => (s.spec?.type ?? 'ClusterIP') !== 'ClusterIP')).toEqual([]);
  });

  it('when Secrets are referenced, then each is rendered with that key or written by an operator, and no real one is committed', () => {
    const keysOf = (name: string) => {
      const rendered = manifests.find((m) => m.kind === 'Secret' && m.metadata.name === name);
      return rendered ? Object.keys(rendered.data ?? {}) : OPERATOR_SECRETS[name];
    };
    const containers = manifests.filter((m) => m.spec?.template?.spec.containers).flatMap((m) => m.spec!.template!.spec.containers);
    for (const c of containers) {
      for (const v of c.env ?? []) {
        const ref = v.valueFrom?.secretKeyRef;
        if (ref) expect(keysOf(ref.name), `${c.name}: ${v.name} from ${ref.name}/${ref.key}`).toContain(ref.key);
      }
      for (const from of c.envFrom ?? []) if (from.secretRef) expect(keysOf(from.secretRef.name), `${c.name}: ${from.secretRef.name}`).toBeDefined();
    }
    for (const user of all('User')) expect(keysOf(user.spec!.importCredentialsSecret!.name)?.sort()).toEqual(['password', 'username']);
    const tracked = spawnSync('git', ['ls-files', 'infra/k8s'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n');
    expect(tracked.filter((f) => f.endsWith('.env'))).toEqual([]);
  });

  it('when credentials are handed out, then each process holds only its own: the gateway alone signs and uses Redis, each service its own key, schema role and object-store user', () => {
    const containers = new Map(listed.map((p) => [p.name, containerOf(one('Deployment', p.name))]));
    const readers = (secret: string) => listed.filter((p) => secretsReadBy(containers.get(p.name)!).has(secret)).map((p) => p.name);
    const roles = one('Cluster', 'warmline-postgres').spec!.managed?.roles ?? [];
    for (const p of listed) {
      const c = containers.get(p.name)!;
      const env = environmentOf(c);
      expect(env.get('NODE_ENV'), p.name).toBe('production');
      // Identity (docs/adr/0042): the private key is the gateway's, in a Secret only it reads.
      expect(env.has('IDENTITY_PRIVATE_KEY'), `${p.name}: IDENTITY_PRIVATE_KEY`).toBe(p.name === 'gateway');
      expect(env.has('IDENTITY_PUBLIC_KEY'), `${p.name}: IDENTITY_PUBLIC_KEY`).toBe(true);
      const ownKey = `${p.name.toUpperCase()}_SERVICE_KEY`;
      expect([...env.keys()].filter((k) => k.endsWith('_SERVICE_KEY') && k !== ownKey), `${p.name}: another service's key`).toEqual([]);
      for (const key of ['IDENTITY_PRIVATE_KEY', ownKey].filter((k) => env.has(k))) {
        const ref = envVarOf(c, key)?.valueFrom?.secretKeyRef;
        expect(ref, `${p.name}: ${key} from a Secret`).toBeDefined();
        expect(readers(ref!.name), `${key}: Secret ${ref!.name} read by`).toEqual([p.name]);
      }
      // PostgreSQL (docs/adr/0043): the schema's app role, managed by the operator with the password the URL carries.
      const role = `warmline_${schemaOf(p)}`;
      const database = urlOf(c, 'DATABASE_URL');
      expect(database.username, `${p.name}: DATABASE_URL's user`).toBe(role);
      expect(database.hostname, p.name).toBe('warmline-postgres-rw');
      const password = envVarOf(c, 'POSTGRES_PASSWORD')?.valueFrom?.secretKeyRef;
      expect(envVarOf(c, 'DATABASE_URL')?.value, p.name).toContain('$(POSTGRES_PASSWORD)@');
      expect(password, p.name).toEqual({ name: `warmline-postgres-${schemaOf(p)}`, key: 'password' });
      expect(secretValue(password!.name, 'username'), `${password!.name}: username`).toBe(role);
      const managed = roles.find((r) => r.name === role);
      expect(managed?.login, `${role}: a managed login role`).toBe(true);
      expect(managed?.passwordSecret?.name, role).toBe(password!.name);
      // Redis: the gateway only, as its ACL user.
      if (p.name === 'gateway') expect(urlOf(c, 'REDIS_URL').username).toBe('warmline-gateway');
      else expect([...readers('warmline-redis'), ...readers('warmline-redis-gateway')]).toEqual(['gateway']);
      // The object store: never the root user, each file-keeping process its own user in its own Secret.
      expect([...env.keys()].filter((k) => /^MINIO_ROOT_|^AWS_/.test(k)), `${p.name}: root credentials`).toEqual([]);
      if ('S3_BUCKET' in shapes.get(p.name)!) {
        const own = `warmline-blob-store-${p.name}`;
        expect(readers(own), own).toEqual([p.name]);
        expect(secretValue(own, 'S3_ACCESS_KEY_ID'), own).toBe(`warmline-${p.name}`);
        expect(existsSync(path.join(ROOT, `infra/minio/${p.name}-policy.json`)), `infra/minio/${p.name}-policy.json`).toBe(true);
      } else {
        expect([...secretsReadBy(c)].filter((name) => name.startsWith('warmline-blob-store')), p.name).toEqual([]);
      }
    }
    expect(roles.map((r) => r.name).sort()).toEqual([...new Set(listed.map((p) => `warmline_${schemaOf(p)}`))].sort());
    // Redis loads infra/redis/users.acl's users, with both passwords from Secrets.
    const userLines = (text: string) => text.split('\n').filter((line) => line.startsWith('user '));
    const acl = one('ConfigMap', 'warmline-redis-acl').data?.['users.acl'] ?? '';
    expect(userLines(acl)).toEqual(userLines(readFileSync(path.join(ROOT, 'infra/redis/users.acl'), 'utf8')));
    const redis = containerOf(one('StatefulSet', 'warmline-redis'));
    expect(redis.command?.join(' ')).toMatch(/--aclfile /);
    expect([...environmentOf(redis).keys()]).toEqual(expect.arrayContaining(['REDIS_PASSWORD', 'REDIS_GATEWAY_PASSWORD']));
  });

  it('when the engines are deployed, then they are the operators’: RabbitMQ on 3 nodes with the users of definitions.json, PostgreSQL with a replica and backups to S3, and a migration Job', () => {
    expect(one('RabbitmqCluster', 'warmline-rabbitmq').spec!.replicas).toBe(3);
    const definitions = JSON.parse(readFileSync(path.join(ROOT, 'infra/rabbitmq/definitions.json'), 'utf8')) as {
      users: Array<{ name: string }>;
      permissions: Array<{ user: string; vhost: string; configure: string; write: string; read: string }>;
      topic_permissions: Array<{ user: string; vhost: string; exchange: string; write: string; read: string }>;
    };
    for (const { user, vhost, configure, write, read } of definitions.permissions.filter((p) => p.user !== 'admin')) {
      const permission = all('Permission').find((p) => p.spec!.user === user);
      expect(permission?.spec?.vhost, user).toBe(vhost);
      expect(permission?.spec?.permissions, user).toEqual({ configure, write, read });
      expect(all('User').some((u) => u.metadata.name === user), user).toBe(true);
    }
    expect(all('Permission')).toHaveLength(definitions.permissions.filter((p) => p.user !== 'admin').length);
    // What each service may publish (docs/adr/0039): the topic permissions, one per user and exchange.
    for (const { user, vhost, exchange, write, read } of definitions.topic_permissions) {
      const topic = all('TopicPermission').filter((t) => t.spec!.user === user && t.spec!.permissions?.exchange === exchange);
      expect(topic, `${user} on ${exchange}`).toHaveLength(1);
      expect(topic[0]!.spec!.vhost, `${user} on ${exchange}`).toBe(vhost);
      expect(topic[0]!.spec!.permissions, `${user} on ${exchange}`).toEqual({ exchange, write, read });
    }
    expect(all('TopicPermission')).toHaveLength(definitions.topic_permissions.length);
    for (const p of listed) expect(definitions.topic_permissions.some((t) => t.user === p.name), `${p.name}: topic permissions`).toBe(true);

    const postgres = one('Cluster', 'warmline-postgres');
    expect(postgres.spec!.instances).toBeGreaterThanOrEqual(2);
    expect(postgres.spec!.backup?.barmanObjectStore?.destinationPath).toMatch(/^s3:\/\//);
    expect(all('ScheduledBackup').map((b) => b.spec!.cluster?.name)).toContain('warmline-postgres');
    // Sized for the aged-lead inventory (docs/adr/0052): shared_buffers a quarter of the memory
    // the pod may use (the rest is the OS cache effective_cache_size counts on, and the
    // backends'), and the WAL a large import writes between checkpoints well inside the volume.
    const parameters = postgres.spec!.postgresql?.parameters ?? {};
    const memory = bytesOf(postgres.spec!.resources?.limits?.memory);
    expect(bytesOf(parameters.shared_buffers)).toBeGreaterThanOrEqual(memory / 5);
    expect(bytesOf(parameters.shared_buffers)).toBeLessThanOrEqual(memory / 3);
    expect(bytesOf(parameters.effective_cache_size)).toBeLessThanOrEqual(memory);
    expect(bytesOf(parameters.max_wal_size)).toBeGreaterThanOrEqual(4 * 2 ** 30);
    expect(bytesOf(parameters.max_wal_size)).toBeLessThanOrEqual(bytesOf(postgres.spec!.storage?.size) / 4);
    expect(parameters.wal_compression).toMatch(/^(lz4|zstd|pglz|on)$/);

    // The migration step (docs/adr/0043, 0038): the superuser, every app role's password, the broker's admin.
    const migrate = containerOf(one('Job', 'migrate'));
    expect(migrate.command?.join(' ')).toMatch(/infra\/scripts\/migrate\.ts$/);
    const env = environmentOf(migrate);
    expect(env.get('NODE_ENV')).toBe('production');
    expect(urlOf(migrate, 'DATABASE_URL').username).toBe(secretValue('warmline-postgres-superuser', 'username'));
    expect(postgres.spec!.enableSuperuserAccess).toBe(true);
    expect(postgres.spec!.superuserSecret?.name).toBe('warmline-postgres-superuser');
    for (const schema of new Set(listed.map(schemaOf))) {
      expect(envVarOf(migrate, `POSTGRES_${schema.toUpperCase()}_PASSWORD`)?.valueFrom?.secretKeyRef, schema).toEqual({ name: `warmline-postgres-${schema}`, key: 'password' });
    }
    expect(envVarOf(migrate, 'RABBITMQ_USERNAME')?.valueFrom?.secretKeyRef?.name).toBe('warmline-rabbitmq-default-user');
    expect(env.get('AMQP_URL')).toMatch(/@warmline-rabbitmq:5672$/);
    expect(all('Deployment').filter((d) => secretsReadBy(containerOf(d)).has('warmline-postgres-superuser'))).toEqual([]);
  });
});
