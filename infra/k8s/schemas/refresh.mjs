// Rebuilds the JSON Schemas in this folder, which services/platform/test/ops-kubernetes.test.ts
// validates the rendered manifests against offline (README.md here says where each comes from):
//   node infra/k8s/schemas/refresh.mjs <standalone-strict dir> <crd.yaml>...
// Core kinds: the standalone-strict schemas (yannh/kubernetes-json-schema's layout) are copied
// with their descriptions dropped. CRDs: each version's openAPIV3Schema becomes a standalone
// schema made strict the way kubeconform's openapi2jsonschema does it (an object that lists its
// properties and keeps no unknown fields refuses others), with apiVersion and kind pinned and
// metadata checked as core's ObjectMeta.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORE = [
  'configmap-v1',
  'deployment-apps-v1',
  'horizontalpodautoscaler-autoscaling-v2',
  'ingress-networking-v1',
  'job-batch-v1',
  'namespace-v1',
  'networkpolicy-networking-v1',
  'poddisruptionbudget-policy-v1',
  'secret-v1',
  'service-v1',
  'serviceaccount-v1',
  'statefulset-apps-v1',
];

/** Drops prose (a `description` whose value is text, never a property named description). */
function withoutDescriptions(node) {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') continue;
    out[key] = withoutDescriptions(value);
  }
  return out;
}

function strict(node) {
  if (Array.isArray(node)) return node.map(strict);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strict(v)])) : strict(value);
  }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (out.properties && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) {
    out.additionalProperties = false;
  }
  return out;
}

/**
 * Moves every large subschema that occurs more than once (a container, a probe, a volume: the
 * standalone schemas inline each use) into $defs, referred to by $ref: the same validation, a
 * fraction of the size, and ajv compiles each one once instead of per use.
 */
function deduplicated(root) {
  const counts = new Map();
  const subschemas = (node) => [
    ...Object.values(node.properties ?? {}),
    ...(node.items && !Array.isArray(node.items) ? [node.items] : []),
    ...(node.additionalProperties && typeof node.additionalProperties === 'object' ? [node.additionalProperties] : []),
    ...['anyOf', 'allOf', 'oneOf'].flatMap((k) => node[k] ?? []),
  ];
  const count = (node) => {
    const text = JSON.stringify(node);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    subschemas(node).forEach(count);
  };
  subschemas(root).forEach(count);
  const defs = {};
  const names = new Map();
  const rewrite = (node) => {
    const text = JSON.stringify(node);
    const out = { ...node };
    if (node.properties) out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, rewrite(v)]));
    if (node.items && !Array.isArray(node.items)) out.items = rewrite(node.items);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') out.additionalProperties = rewrite(node.additionalProperties);
    for (const k of ['anyOf', 'allOf', 'oneOf']) if (node[k]) out[k] = node[k].map(rewrite);
    if (text.length < 1000 || counts.get(text) < 2) return out;
    if (!names.has(text)) {
      names.set(text, `s${names.size}`);
      defs[names.get(text)] = out;
    }
    return { $ref: `#/$defs/${names.get(text)}` };
  };
  const out = rewrite(root);
  return Object.keys(defs).length ? { ...out, $defs: defs } : out;
}

const write = (name, schema) => writeFileSync(path.join(HERE, `${name}.json`), `${JSON.stringify(deduplicated(schema), null, 1)}\n`);

const [coreDir, ...crdFiles] = process.argv.slice(2);
if (!coreDir) {
  console.error('usage: node infra/k8s/schemas/refresh.mjs <standalone-strict dir> <crd.yaml>...');
  process.exit(64);
}
for (const name of CORE) write(name, withoutDescriptions(JSON.parse(readFileSync(path.join(coreDir, `${name}.json`), 'utf8'))));

const objectMeta = withoutDescriptions(JSON.parse(readFileSync(path.join(coreDir, 'secret-v1.json'), 'utf8')).properties.metadata);
for (const file of crdFiles) {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const crd = doc.toJSON();
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    const { group, names } = crd.spec;
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      const schema = strict(withoutDescriptions(version.schema.openAPIV3Schema));
      schema.properties.apiVersion = { type: 'string', enum: [`${group}/${version.name}`] };
      schema.properties.kind = { type: 'string', enum: [names.kind] };
      schema.properties.metadata = objectMeta;
      schema.required = [...new Set(['apiVersion', 'kind', ...(schema.required ?? [])])];
      write(`${names.kind.toLowerCase()}-${group.split('.')[0]}-${version.name}`, schema);
    }
  }
}
