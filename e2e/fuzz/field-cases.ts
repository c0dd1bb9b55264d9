import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import { publicRoutes, type PublicRoute } from '@warmline/contracts';
import { routeDocs, type RouteKey } from '@warmline/contracts/docs/route-docs';
import { EXAMPLES, SESSION_CHANGING, fromJsonSchema, label, methodHasBody, utf8, type FuzzCase, type Json, type Role } from './requests';

/**
 * The route fuzzer's exhaustive part (issue 26): for every route with a body or a query, its
 * valid examples (the API reference's, e2e/fuzz/requests.ts's, or one sampled from the schema)
 * with each field left out in turn, each field `null` and each field of the wrong type — top
 * level, and one level down in nested objects and in the first item of a list. Random cases may
 * never drop the one field whose absence is a 500; these drop every one.
 */

/** A case sent with a working vendor key or a valid Stripe signature: past the door, so it may change the database. */
export const PAST_THE_DOOR = 'vendor key or Stripe signature';

export interface FieldCaseOptions {
  /** A salesperson whose referral survey is open (for `{salesperson}` and `{slug}`). */
  slug: string;
  /** A vendor API key, so vendor routes reach their body's checks. */
  vendorKey: string;
  /** The Stripe webhook secret, so the webhook reaches its event's checks. */
  stripeSecret: string;
}

type JsonObject = { [key: string]: Json };
interface Variant {
  value: Json;
  note: string;
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** No such record: a made-up id (a write with it must be refused). */
const MADE_UP_ID = '0193a5c2-0000-7000-8000-00000000fa11';

/** Values of another type than `value`'s: strings ↔ numbers, objects ↔ lists, and a shape nothing takes. */
function wrongTypes(value: Json): Json[] {
  if (typeof value === 'string') return [42, {}, []];
  if (typeof value === 'number') return [String(value), 'abc', {}];
  if (typeof value === 'boolean') return [String(value), 1, {}];
  if (Array.isArray(value)) return [{}, 'text', 1];
  if (value === null) return ['text', 1, {}];
  return [[], 'text', 1];
}

/** Each field left out, null, of the wrong type; `nested` also one level down. */
function fieldVariants(value: JsonObject, nested: boolean, prefix = ''): Variant[] {
  const variants: Variant[] = [];
  for (const [key, field] of Object.entries(value)) {
    const name = `${prefix}${key}`;
    const { [key]: _dropped, ...rest } = value;
    variants.push({ value: rest, note: `${name} missing` }, { value: { ...value, [key]: null }, note: `${name} = null` });
    for (const wrong of wrongTypes(field)) variants.push({ value: { ...value, [key]: wrong }, note: `${name} = ${JSON.stringify(wrong)}` });
    if (!nested) continue;
    if (isObject(field)) {
      for (const inner of fieldVariants(field, false, `${name}.`)) variants.push({ value: { ...value, [key]: inner.value }, note: inner.note });
    } else if (Array.isArray(field) && field.length > 0) {
      const [first, ...others] = field as [Json, ...Json[]];
      const firsts: Variant[] = isObject(first)
        ? fieldVariants(first, false, `${name}[0].`)
        : [null, ...wrongTypes(first)].map((v) => ({ value: v, note: `${name}[0] = ${JSON.stringify(v)}` }));
      for (const inner of firsts) variants.push({ value: { ...value, [key]: [inner.value, ...others] }, note: inner.note });
    }
  }
  return variants;
}

/** A first value of `schema` that it accepts, sampled from it (seeded, so every run sends the same). */
function sampledValid(schema: z.ZodType, seed: number): Json | undefined {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return fc.sample(fromJsonSchema(js), { seed, numRuns: 200 }).find((v) => schema.safeParse(v).success);
}

/** The route's valid bodies: the API reference's examples, the random fuzzer's, else one sampled from its schema. */
function bodyExamples(route: PublicRoute): JsonObject[] {
  const key = label(route);
  const documented = Object.values(routeDocs[key as RouteKey]?.examples ?? {}) as Json[];
  const generated = EXAMPLES[key] ? fc.sample(EXAMPLES[key], { seed: 26, numRuns: 1 }) : [];
  const all = [...documented, ...generated];
  if (all.length === 0 && route.body) {
    const sampled = sampledValid(route.body, 26);
    if (sampled !== undefined) all.push(sampled);
  }
  return all.filter(isObject);
}

/** Queries the API reference gives no example of and sampling cannot guess (a list of UUIDs in one text). */
const QUERY_EXAMPLES: Record<string, Record<string, string>> = {
  'GET /api/aged-leads/available': { ids: `${MADE_UP_ID},0193a5c2-0000-7000-8000-00000000fa12` },
};

function queryExample(route: PublicRoute): Record<string, string> {
  const documented = routeDocs[label(route) as RouteKey]?.queryExample ?? QUERY_EXAMPLES[label(route)];
  if (documented) return documented;
  const sampled = route.query ? sampledValid(route.query, 26) : undefined;
  if (!isObject(sampled)) return {};
  return Object.fromEntries(Object.entries(sampled).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

/** Query texts: each parameter left out, empty, repeated (a list), bracketed (an object), of the other type. */
function queryVariants(example: Record<string, string>): Array<{ query: string; note: string }> {
  const text = (params: Array<[string, string]>) => (params.length ? `?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '');
  const entries = Object.entries(example);
  const variants = [{ query: text(entries), note: 'query as documented' }];
  for (const [key, value] of entries) {
    const others = entries.filter(([k]) => k !== key);
    const other = /^-?\d+(\.\d+)?$/.test(value) ? 'abc' : '42';
    variants.push(
      { query: text(others), note: `query ${key} missing` },
      { query: text([...others, [key, '']]), note: `query ${key} empty` },
      { query: text([...others, [key, value], [key, value]]), note: `query ${key} twice (a list)` },
      { query: text([...others, [`${key}[a]`, value]]), note: `query ${key}[a] (an object)` },
      { query: text([...others, [key, other]]), note: `query ${key} = ${other}` },
    );
  }
  return variants;
}

/**
 * Fresh identities per case (phones, e-mails, usernames, slugs, call ids), so a case is refused
 * for the field it bends and not as a duplicate of the case before it (a second opportunity
 * for a phone is a 409 before the opportunity is written).
 */
function freshener(): (value: Json) => Json {
  let n = 0;
  const fresh = (key: string, value: string): string => {
    n += 1;
    if (/phone/i.test(key)) return `(512) ${String(2_000_000 + n).replace(/^(\d{3})(\d{4})$/, '$1-$2')}`;
    if (/email/i.test(key)) return `fuzz-field-${n}@example.com`;
    if (key === 'username') return `fuzz_field_${n}`;
    if (key === 'slug') return `fuzz-field-${n}`;
    if (key === 'call_id') return `call-fuzz-${n}`;
    return value;
  };
  const walk = (value: Json, key = ''): Json => {
    if (typeof value === 'string') return fresh(key, value);
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return (value) => walk(value);
}

function pathOf(route: PublicRoute, slug: string): { path: string; madeUpId: boolean } {
  let madeUpId = false;
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    if (name === 'salesperson' || name === 'slug') return slug;
    if (name === 'phone') return '5125550100';
    madeUpId = true;
    return MADE_UP_ID;
  });
  return { path, madeUpId };
}

function rolesOf(route: PublicRoute): Role[] {
  if (SESSION_CHANGING.has(label(route)) || route.access === 'vendor-key' || route.access === 'stripe-signature') return ['anonymous'];
  if (route.access === 'admin') return ['admin'];
  if (route.access === 'customer') return ['customer'];
  return ['anonymous', 'customer'];
}

/** Stripe's signature header over the raw body (t=…,v1=HMAC-SHA256 of `t.body`). */
function stripeSignature(secret: string, body: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Every field of every route's examples bent in turn; in manifest order, the same every run. */
export function fieldCases(options: FieldCaseOptions): FuzzCase[] {
  const fresh = freshener();
  const cases: FuzzCase[] = [];
  for (const route of publicRoutes) {
    const takesBody = methodHasBody(route.method) && (route.body !== undefined || EXAMPLES[label(route)] !== undefined);
    if (!takesBody && !route.query) continue;
    const { path, madeUpId } = pathOf(route, options.slug);
    const examples = takesBody ? bodyExamples(route) : [];
    const bodies: Variant[] = examples.flatMap((example) => [{ value: example, note: 'as documented' }, ...fieldVariants(example, true)]);
    const query = route.query ? queryVariants(queryExample(route)) : [{ query: '', note: '' }];
    // Bodies with the example query, then queries with the first body: each field bent once, not every pair.
    const pairs: Array<{ body: Variant | undefined; query: { query: string; note: string } }> = [
      ...bodies.map((body) => ({ body, query: query[0] ?? { query: '', note: '' } })),
      ...query.slice(bodies.length > 0 ? 1 : 0).map((q) => ({ body: bodies[0], query: q })),
    ];
    for (const role of rolesOf(route)) {
      for (const { body, query: q } of pairs) {
        const text = body === undefined ? undefined : JSON.stringify(fresh(body.value));
        const headers: Record<string, string> = text === undefined ? {} : { 'content-type': 'application/json' };
        if (route.access === 'vendor-key') headers['x-api-key'] = options.vendorKey;
        if (route.access === 'stripe-signature' && text !== undefined) headers['stripe-signature'] = stripeSignature(options.stripeSecret, text);
        const pastTheDoor = route.access === 'vendor-key' || route.access === 'stripe-signature';
        cases.push({
          role,
          method: route.method,
          path: `${path}${q.query}`,
          route,
          headers,
          body: text === undefined ? undefined : utf8(text),
          notes: [body?.note, q.note, madeUpId ? 'made-up id' : undefined, pastTheDoor ? PAST_THE_DOOR : undefined].filter((n): n is string => !!n),
        });
      }
    }
  }
  return cases;
}
