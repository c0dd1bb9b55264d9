import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderOpenApi, routeKey, type OpenApiDocument } from '../src/docs/openapi';
import { routeDocs, type RouteKey } from '../src/docs/route-docs';
import { publicRoutes, routePattern, type PublicRoute } from '../src/routes';

/**
 * The API reference (issue 16) is generated from the route manifest: it is valid OpenAPI 3.1
 * (checked by a validator library), it lists every route of the manifest with its method,
 * every route says what it does, and every documented example is one the route's real
 * validation accepts — and the published JSON Schema too.
 */

const doc = renderOpenApi();
type Operation = Record<string, any>;

function operationOf(document: OpenApiDocument, route: Pick<PublicRoute, 'method' | 'path'>): Operation | undefined {
  return document.paths[route.path]?.[route.method.toLowerCase()] as Operation | undefined;
}

const label = (route: PublicRoute) => `${route.method} ${route.path}`;

/** The JSON Schema of the published document, its $refs resolved against the document. */
function ajvFor(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: document.components }, 'openapi.json');
  return (schema: object) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));
}

describe('the OpenAPI document (issue 16)', () => {
  it('when it is checked by an OpenAPI validator, then it is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('when the validator is given a broken document, then it refuses it (the check above is not vacuous)', async () => {
    const { info: _info, ...noInfo } = structuredClone(doc);
    const broken = structuredClone(doc);
    (broken.paths['/api/login']!.post as Operation).responses = { OK: { description: 'not a status code' } };
    expect((await new Validator().validate(noInfo)).valid).toBe(false);
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('when every $ref is followed, then it names something the document has', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    const missing = refs.filter((ref) => {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      return !section || !(doc.components[section] as Record<string, unknown> | undefined)?.[name!];
    });
    expect([...new Set(missing)]).toEqual([]);
  });

  it('when the manifest is read, then every route (method and path) is in the document, and nothing else', () => {
    const missing = publicRoutes.filter((route) => !operationOf(doc, route)).map(label);
    expect(missing).toEqual([]);
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(publicRoutes.map(label).sort());
  });

  it('when the routes are read, then each has a summary and a description, a tag of its owner and a unique operationId', () => {
    const ids = new Set<string>();
    for (const route of publicRoutes) {
      const op = operationOf(doc, route)!;
      expect(route.summary.trim().length, label(route)).toBeGreaterThan(10);
      expect(op.summary, label(route)).toBe(route.summary);
      expect(String(op.description ?? '').length, label(route)).toBeGreaterThan(10);
      expect(op.tags, label(route)).toEqual([route.owner]);
      expect(ids.has(op.operationId), op.operationId).toBe(false);
      ids.add(op.operationId);
    }
    expect(doc.tags.map((t) => t.name).sort()).toEqual([...new Set(publicRoutes.map((r) => r.owner))].sort());
  });

  it('when a route without a summary is rendered, then the summary check would fail it', () => {
    const bare: PublicRoute = { method: 'GET', path: '/api/nothing', owner: 'gateway', access: 'anonymous', summary: '' };
    expect(operationOf(renderOpenApi([bare], {}), bare)?.summary).toBe('');
  });

  it('when route-docs.ts names a route, then the manifest has it', () => {
    const known = new Set(publicRoutes.map((r) => routeKey(r)));
    expect(Object.keys(routeDocs).filter((key) => !known.has(key as RouteKey))).toEqual([]);
  });

  it('when a route takes a JSON body, then the document has its schema and at least one example', () => {
    const withoutExample = publicRoutes.filter((r) => r.body && Object.keys(routeDocs[routeKey(r)]?.examples ?? {}).length === 0).map(label);
    expect(withoutExample).toEqual([]);
    for (const route of publicRoutes.filter((r) => r.body)) {
      const media = operationOf(doc, route)!.requestBody.content['application/json'];
      expect(media.schema.type, label(route)).toBe('object');
      expect(Object.keys(media.examples).length, label(route)).toBeGreaterThan(0);
    }
  });

  it('when a route has a query schema, then each of its fields is a query parameter', () => {
    for (const route of publicRoutes.filter((r) => r.query)) {
      const inputShape = (z.toJSONSchema(route.query!, { io: 'input', unrepresentable: 'any' }) as { properties?: object }).properties ?? {};
      const names = (operationOf(doc, route)!.parameters ?? []).filter((p: Operation) => p.in === 'query').map((p: Operation) => p.name);
      expect(names.sort(), label(route)).toEqual(Object.keys(inputShape).sort());
    }
  });

  it('when a path has {params}, then each is a required path parameter matching what the gateway matches', () => {
    for (const route of publicRoutes.filter((r) => r.path.includes('{'))) {
      const params = (operationOf(doc, route)!.parameters as Operation[]).filter((p) => p.in === 'path');
      expect(params.map((p) => p.name), label(route)).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
      for (const p of params) {
        expect(p.required).toBe(true);
        // A sample the gateway's own pattern accepts is accepted by the documented one.
        const sample = route.path.replace(/\{(\w+)\}/g, (_, n: string) => (n === p.name ? 'jane-doe' : 'x'));
        if (routePattern(route).test(sample)) expect(new RegExp(p.schema.pattern).test('jane-doe'), label(route)).toBe(true);
      }
    }
  });

  it('when the security is read, then logged-in routes need the session, non-JSON writes the CSRF header, the webhooks their keys', () => {
    const schemes = Object.keys(doc.components.securitySchemes as object);
    expect(schemes.sort()).toEqual(['csrfHeader', 'sessionCookie', 'stripeSignature', 'vendorBearer', 'vendorKey']);
    const security = (method: PublicRoute['method'], path: string) => operationOf(doc, { method, path })!.security;
    expect(security('GET', '/api/current-user')).toEqual([{ sessionCookie: [] }]);
    expect(security('POST', '/api/admin/lead-imports/{id}/cancel')).toEqual([{ sessionCookie: [], csrfHeader: [] }]);
    expect(security('POST', '/api/admin/lead-imports')).toEqual([{ sessionCookie: [], csrfHeader: [] }]);
    expect(security('POST', '/api/login')).toEqual([]);
    expect(security('POST', '/api/callbacks/brightcall')).toEqual([{ vendorKey: [] }, { vendorBearer: [] }]);
    expect(security('POST', '/api/webhooks/stripe')).toEqual([{ stripeSignature: [] }]);
    expect((doc.components.securitySchemes as Record<string, Operation>).vendorKey).toMatchObject({ in: 'header', name: 'X-API-Key' });
  });

  it('when the answers are read, then errors are the platform shapes and the webhook keeps its own', () => {
    const admin = operationOf(doc, { method: 'PATCH', path: '/api/admin/campaigns/{id}' })!.responses;
    expect(Object.keys(admin)).toEqual(['200', '400', '401', '403', '404', '413', '503']);
    expect(admin['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    const webhook = operationOf(doc, { method: 'POST', path: '/api/callbacks/brightcall' })!.responses;
    expect(webhook['401']).toEqual({ $ref: '#/components/responses/WebhookUnauthorized' });
    expect(webhook['200'].content['application/json'].schema.required).toEqual(['success', 'message', 'callback_id']);
    expect(operationOf(doc, { method: 'POST', path: '/api/admin/campaigns' })!.responses['201']).toBeDefined();
    expect(operationOf(doc, { method: 'DELETE', path: '/api/admin/suppressions/{phone}' })!.responses['204'].content).toBeUndefined();
  });

  it('when the vendor webhook is read (issue 22), then it lists the Idempotency-Key header, the 409 of a reused key, Invalid JSON body, and RateLimit headers with the limit', () => {
    const webhook = operationOf(doc, { method: 'POST', path: '/api/callbacks/brightcall' })!;
    const header = (webhook.parameters as Operation[]).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(header).toMatchObject({ required: false, schema: { maxLength: 200 } });
    expect(header!.description).toContain('different call is a 409');
    expect(webhook.responses['409']).toEqual({ $ref: '#/components/responses/WebhookKeyConflict' });
    const responses = doc.components.responses as Record<string, Operation>;
    expect(responses.WebhookKeyConflict!.content['application/json'].example).toMatchObject({ message: 'Idempotency-Key already used for a different call' });
    const badRequest = responses.WebhookBadRequest!.content['application/json'].examples;
    expect(badRequest['Not one JSON object'].value).toEqual({ success: false, message: 'Invalid JSON body' });
    expect(badRequest['callback_time has passed'].value.message).toBe('callback_time is in the past; the call was not stored');
    expect(Object.keys(webhook.responses['200'].headers)).toEqual(['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(Object.keys(responses.WebhookTooManyRequests!.headers)).toContain('RateLimit');
    expect(doc.info.description).toContain('600 calls a minute per key');
  });
});

describe('every documented example passes the real validation', () => {
  const compile = ajvFor(doc);
  const examples = publicRoutes.flatMap((route) =>
    Object.entries(routeDocs[routeKey(route)]?.examples ?? {}).map(([name, value]) => ({ route, name, value })),
  );

  it('when the examples are counted, then there are some for every route with a body', () => {
    expect(examples.length).toBeGreaterThanOrEqual(publicRoutes.filter((r) => r.body).length);
  });

  for (const { route, name, value } of examples) {
    it(`when the example '${name}' of ${label(route)} is parsed by the route's schema, then it passes`, () => {
      expect(route.body, 'an example of a route without a body').toBeDefined();
      const result = route.body!.safeParse(value);
      expect(result.success ? [] : result.error.issues).toEqual([]);
    });

    it(`when the example '${name}' of ${label(route)} is checked against the published JSON Schema, then it passes`, () => {
      const validate = compile(operationOf(doc, route)!.requestBody.content['application/json'].schema);
      expect(validate(value) ? [] : validate.errors).toEqual([]);
    });
  }

  for (const route of publicRoutes.filter((r) => routeDocs[routeKey(r)]?.queryExample)) {
    it(`when the query example of ${label(route)} is parsed by the route's query schema, then it passes`, () => {
      expect(route.query, 'a query example of a route without a query schema').toBeDefined();
      const result = route.query!.safeParse(routeDocs[routeKey(route)]!.queryExample);
      expect(result.success ? [] : result.error.issues).toEqual([]);
    });
  }

  for (const route of publicRoutes.filter((r) => routeDocs[routeKey(r)]?.response && routeDocs[routeKey(r)]?.responseExample)) {
    it(`when the answer example of ${label(route)} is parsed by its response schema, then it passes`, () => {
      const doc = routeDocs[routeKey(route)]!;
      expect(doc.response!.safeParse(doc.responseExample).success).toBe(true);
    });
  }

  it('when an example does not pass, then the check names it (the loop above is not vacuous)', () => {
    const login = publicRoutes.find((r) => r.path === '/api/login')!;
    expect(login.body!.safeParse({ username: 'annlee' }).success).toBe(false);
    expect(compile(operationOf(doc, login)!.requestBody.content['application/json'].schema)({ username: 'annlee' })).toBe(false);
  });
});
