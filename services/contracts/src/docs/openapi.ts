import { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX_LENGTH, VENDOR_KEY_HEADER, WEBHOOK_ANSWER_EXAMPLES, WEBHOOK_CALLS_PER_MINUTE } from '../callbacks';
import { routeDocs, type RouteDoc, type RouteKey } from './route-docs';
import { DEFAULT_BODY_LIMIT_BYTES, publicRoutes, type PublicRoute, type RouteAccess, type RouteOwner } from '../routes';

/**
 * The OpenAPI 3.1 description of WarmLine's public API (issue 16), generated from the route
 * manifest (routes.ts) and the contracts' zod schemas, so it cannot drift from what the
 * gateway and the services check: request bodies and query strings are the schemas the
 * routes parse with, read as JSON Schema on their input side; answers, examples and
 * non-JSON bodies come from route-docs.ts. The gateway serves it at OPENAPI_PATH and an
 * interactive reference at API_DOCS_PATH.
 */

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PATH = '/api/docs';
/** The version of the API description; the routes themselves are not versioned. */
const API_VERSION = '1.0.0';

/** The session cookie's names (the gateway's edge/sessions.ts): plain locally, `__Host-` in production. */
const SESSION_COOKIE_NAME = 'warmline.sid';
const SECURE_SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE_NAME}`;
/** The header a write that is not JSON must carry (the gateway's edge/csrf.ts). */
const CSRF_HEADER = 'X-Requested-With';

type Json = Record<string, unknown>;

export interface OpenApiDocument extends Json {
  openapi: string;
  info: Json;
  paths: Record<string, Record<string, Json>>;
  components: Json;
  tags: Array<{ name: string; description: string }>;
}

const OWNER_TAGS: Record<RouteOwner, string> = {
  gateway: 'Accounts, sessions, second factor, surveys, campaigns, user administration and the site: answered by the gateway itself',
  catalog: 'The aged-lead market, My Leads, lead imports, the suppression list and call-back opportunities',
  orders: 'Checkouts, payments, live call transfer orders, All Orders, revenue and refunds',
  partners: 'The partner network: applications and their documents',
  ingestion: "The voice-AI vendor's call-back webhook and its API keys",
  transfers: "Live transfers: the vendor's routing and outcome calls, the agents' My Transfers, balances, disputes and the admin's Transfers tab",
};

const DESCRIPTION = `The public HTTP API of WarmLine, generated from the route manifest and the schemas the server validates with.

**Sessions.** \`POST /api/login\` starts a session: the answer sets the session cookie (\`${SESSION_COOKIE_NAME}\`; \`${SECURE_SESSION_COOKIE_NAME}\` over https in production), which the browser sends with every later call. Routes for a logged-in user answer 401 without it, admin routes 403 to anyone else.

**Writes and cross-site requests.** A POST, PUT, PATCH or DELETE must be JSON (\`Content-Type: application/json\`) or carry the \`${CSRF_HEADER}\` header (any value); a present \`Origin\` must be this site's. Otherwise the answer is 403.

**Vendors** post call outcomes to \`/api/callbacks/brightcall\` with their key in \`${VENDOR_KEY_HEADER}\` or as \`Authorization: Bearer <key>\`, and their own id of the call in \`Idempotency-Key\`; ${WEBHOOK_CALLS_PER_MINUTE} calls a minute per key, every answer carrying \`RateLimit\` headers. **Stripe** proves its webhook with the \`Stripe-Signature\` header over the raw body.

**Errors** are JSON \`{ "error": "<a message fit to show a person>" }\`; a refused body or query adds \`issues\`, one \`{ path, message }\` per problem. 429 and 503 carry \`Retry-After\` (seconds). The vendor webhook answers in its own shape, \`{ success, message }\`.

**Pages** of a list are 50 long; where a route says so, the total is in the \`X-Total-Count\` header.`;

/** The OpenAPI 3.1 document of every route of the manifest. */
export function renderOpenApi(routes: readonly PublicRoute[] = publicRoutes, docs: Partial<Record<RouteKey, RouteDoc>> = routeDocs): OpenApiDocument {
  const hoisted: Record<string, Json> = {};
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    const key = routeKey(route);
    const operation = operationOf(route, docs[key] ?? {}, hoisted);
    let operationId = operationIdOf(route);
    while (operationIds.has(operationId)) operationId += '_';
    operationIds.add(operationId);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = { operationId, ...operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'WarmLine API',
      version: API_VERSION,
      summary: 'Warm leads, live transfers and call-backs for insurance agents',
      description: DESCRIPTION,
    },
    servers: [{ url: '/', description: 'This site' }],
    tags: (Object.keys(OWNER_TAGS) as RouteOwner[])
      .filter((owner) => routes.some((r) => r.owner === owner))
      .map((owner) => ({ name: owner, description: OWNER_TAGS[owner] })),
    paths,
    components: {
      schemas: { ...ERROR_SCHEMAS, ...hoisted },
      responses: ERROR_RESPONSES,
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** 'POST /api/login': how route-docs.ts names a route. */
export function routeKey(route: Pick<PublicRoute, 'method' | 'path'>): RouteKey {
  return `${route.method} ${route.path}`;
}

function operationOf(route: PublicRoute, doc: RouteDoc, hoisted: Record<string, Json>): Json {
  const name = operationIdOf(route);
  const operation: Json = {
    tags: [route.owner],
    summary: route.summary,
    description: descriptionOf(route),
  };
  const parameters = [...pathParameters(route), ...headerParameters(doc), ...queryParameters(route, doc, `${name}Query`, hoisted)];
  if (parameters.length > 0) operation.parameters = parameters;
  const requestBody = requestBodyOf(route, doc, `${name}Body`, hoisted);
  if (requestBody) operation.requestBody = requestBody;
  operation.responses = responsesOf(route, doc, `${name}Answer`, hoisted);
  operation.security = securityOf(route, doc);
  return operation;
}

const ACCESS_TEXT: Record<RouteAccess, string> = {
  anonymous: 'Open to anyone; a session, if there is one, is used.',
  customer: 'For a logged-in user (agent or admin).',
  admin: 'For logged-in admins.',
  'vendor-key': `For a voice-AI vendor with its API key (\`${VENDOR_KEY_HEADER}\` or \`Authorization: Bearer\`).`,
  'stripe-signature': 'For Stripe: the `Stripe-Signature` header over the raw body.',
};

function descriptionOf(route: PublicRoute): string {
  const lines = [ACCESS_TEXT[route.access], `Answered by the ${route.owner === 'gateway' ? 'gateway itself' : `${route.owner} service`}.`];
  if (hasBody(route)) lines.push(`Bodies up to ${formatBytes(route.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES)}.`);
  return lines.join(' ');
}

function hasBody(route: PublicRoute): boolean {
  return route.body !== undefined || route.bodyLimit !== undefined;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** 'POST /api/admin/campaigns/{id}' → 'postAdminCampaignsById'. */
function operationIdOf(route: Pick<PublicRoute, 'method' | 'path'>): string {
  const words = route.path
    .replace(/^\/api\//, '')
    .replace(/\{([A-Za-z]+)\}/g, ' by $1 ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return route.method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/* ----------------------------------------------------------------- parameters ---------- */

const DEFAULT_PARAM_PATTERN = '^[A-Za-z0-9_.-]+$';

function pathParameters(route: PublicRoute): Json[] {
  return [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map(([, name]) => {
    const pattern = route.params?.[name!];
    return {
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: pattern ? `^${pattern.source}$` : DEFAULT_PARAM_PATTERN },
    };
  });
}

/** The optional Idempotency-Key header, where the route takes one. */
function headerParameters(doc: RouteDoc): Json[] {
  if (doc.idempotencyKey === undefined) return [];
  return [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: doc.idempotencyKey,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x21-\\x7e]+$' },
      example: 'call-8841',
    },
  ];
}

/** One query parameter per property of the query schema's input side. */
function queryParameters(route: PublicRoute, doc: RouteDoc, name: string, hoisted: Record<string, Json>): Json[] {
  if (!route.query) return [];
  const schema = jsonSchemaOf(route.query, 'input', name, hoisted);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([param, property]) => {
    const { description, ...rest } = property;
    const parameter: Json = { name: param, in: 'query', required: required.has(param), schema: rest };
    if (typeof description === 'string') parameter.description = description;
    const example = doc.queryExample?.[param];
    if (example !== undefined) parameter.example = example;
    return parameter;
  });
}

/* ----------------------------------------------------------------- bodies -------------- */

const NON_JSON_BODY_SCHEMAS: Record<string, Json> = {
  'text/csv': { type: 'string', description: 'The CSV file itself, its first row the header' },
  'multipart/form-data': { type: 'object', description: 'Form fields, and the file(s) as parts' },
  'application/json': { type: 'object', description: 'Passed on byte for byte (a signature covers the raw body)' },
};

function requestBodyOf(route: PublicRoute, doc: RouteDoc, name: string, hoisted: Record<string, Json>): Json | undefined {
  const content: Json = {};
  if (route.body) {
    const media: Json = { schema: jsonSchemaOf(route.body, 'input', name, hoisted) };
    const examples = Object.entries(doc.examples ?? {});
    if (examples.length > 0) media.examples = Object.fromEntries(examples.map(([summary, value], i) => [`example${i + 1}`, { summary, value }]));
    content['application/json'] = media;
  }
  for (const type of doc.requestTypes ?? []) {
    if (content[type] === undefined) content[type] = { schema: NON_JSON_BODY_SCHEMAS[type] ?? { type: 'string', format: 'binary' } };
  }
  if (Object.keys(content).length === 0) return undefined;
  return { required: true, description: `At most ${formatBytes(route.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES)}.`, content };
}

/* ----------------------------------------------------------------- answers ------------- */

const SUCCESS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'Done; no content', 302: 'Redirect' };

function responsesOf(route: PublicRoute, doc: RouteDoc, name: string, hoisted: Record<string, Json>): Json {
  const status = doc.status ?? 200;
  const success: Json = { description: doc.responseDescription ?? SUCCESS_TEXT[status] ?? 'OK' };
  const contentType = doc.responseType ?? (/\.csv$/.test(route.path) ? 'text/csv' : 'application/json');
  if (status === 302) {
    success.headers = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };
  } else if (status !== 204) {
    const schema: Json =
      doc.response !== undefined
        ? jsonSchemaOf(doc.response, 'output', name, hoisted)
        : contentType === 'application/json'
          ? { $ref: `#/components/schemas/${pagedList(route) ? 'JsonList' : 'JsonObject'}` }
          : contentType === 'text/csv'
            ? { type: 'string', description: 'CSV, its first row the header' }
            : contentType.startsWith('text/')
              ? { type: 'string' }
              : { type: 'string', format: 'binary' };
    const media: Json = { schema };
    if (doc.responseExample !== undefined) media.example = doc.responseExample;
    success.content = { [contentType]: media };
    if (pagedList(route)) success.headers = { 'X-Total-Count': { $ref: '#/components/headers/TotalCount' } };
  }
  const responses: Json = { [String(status)]: success };

  if (route.access === 'vendor-key') {
    // The vendor webhook's own answers (contracts/callbacks.ts), not the platform's.
    success.headers = { ...((success.headers as Json | undefined) ?? {}), ...RATE_LIMIT_HEADERS };
    responses['400'] = { $ref: '#/components/responses/WebhookBadRequest' };
    responses['401'] = { $ref: '#/components/responses/WebhookUnauthorized' };
    responses['409'] = { $ref: '#/components/responses/WebhookKeyConflict' };
    responses['429'] = { $ref: '#/components/responses/WebhookTooManyRequests' };
    responses['500'] = { $ref: '#/components/responses/WebhookFailed' };
    responses['503'] = { $ref: '#/components/responses/ServiceUnavailable' };
    return responses;
  }

  const errors = new Set<number>(doc.errors ?? []);
  if (route.body || route.query || route.access === 'stripe-signature') errors.add(400);
  if (route.access === 'customer' || route.access === 'admin') errors.add(401);
  if (route.access === 'admin' || (isWrite(route) && route.access !== 'stripe-signature')) errors.add(403);
  if (route.path.includes('{')) errors.add(404);
  if (hasBody(route)) errors.add(413);
  if (doc.throttled) errors.add(429);
  errors.add(503);
  for (const code of [...errors].sort((a, b) => a - b)) {
    const ref = ERROR_RESPONSE_OF[code];
    if (ref) responses[String(code)] = { $ref: `#/components/responses/${ref}` };
  }
  return responses;
}

/** A page of a list: an array, the total in X-Total-Count (the manifest's summary says so). */
function pagedList(route: PublicRoute): boolean {
  return route.summary.includes('X-Total-Count');
}

function isWrite(route: PublicRoute): boolean {
  return route.method !== 'GET';
}

/* ----------------------------------------------------------------- security ------------ */

/**
 * Who may call: the session cookie for logged-in routes, the CSRF header for a write that is
 * not JSON (a JSON body passes the gateway's check by itself), the vendor's key, Stripe's
 * signature. An empty list: no credentials needed.
 */
function securityOf(route: PublicRoute, doc: RouteDoc): Array<Record<string, string[]>> {
  if (route.access === 'vendor-key') return [{ vendorKey: [] }, { vendorBearer: [] }];
  if (route.access === 'stripe-signature') return [{ stripeSignature: [] }];
  const needsCsrfHeader = isWrite(route) && (route.body === undefined || (doc.requestTypes ?? []).some((t) => t !== 'application/json'));
  const requirement: Record<string, string[]> = {};
  if (route.access === 'customer' || route.access === 'admin') requirement.sessionCookie = [];
  if (needsCsrfHeader) requirement.csrfHeader = [];
  return Object.keys(requirement).length === 0 ? [] : [requirement];
}

const SECURITY_SCHEMES: Json = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE_NAME,
    description: `The session cookie that \`POST /api/login\` sets (\`${SECURE_SESSION_COOKIE_NAME}\` in production, over https). A browser sends it by itself: log in first, then call.`,
  },
  csrfHeader: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description: `Cross-site request forgery defence: a write (POST, PUT, PATCH, DELETE) must be JSON or carry \`${CSRF_HEADER}\` (any value, e.g. \`XMLHttpRequest\`); a present Origin must be this site's.`,
  },
  vendorKey: {
    type: 'apiKey',
    in: 'header',
    name: VENDOR_KEY_HEADER,
    description: 'A voice-AI vendor\'s API key (starts with `wlv_`), created by an admin under Vendor keys.',
  },
  vendorBearer: { type: 'http', scheme: 'bearer', description: 'The same vendor key as `Authorization: Bearer <key>`.' },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature of the raw body with the webhook's signing secret.",
  },
};

/* ----------------------------------------------------------------- errors -------------- */

const ERROR_SCHEMAS: Record<string, Json> = {
  Error: {
    type: 'object',
    description: 'Every error of the platform: a message fit to show a person.',
    properties: { error: { type: 'string' } },
    required: ['error'],
    examples: [{ error: 'Not authenticated' }],
  },
  ValidationError: {
    type: 'object',
    description: 'A refused body or query: the first problem as `error`, every problem in `issues`.',
    properties: {
      error: { type: 'string' },
      issues: {
        type: 'array',
        items: {
          type: 'object',
          properties: { path: { type: 'string', description: "The field, dotted ('billing.email'); empty for the whole body" }, message: { type: 'string' } },
          required: ['path', 'message'],
        },
      },
    },
    required: ['error'],
    examples: [{ error: 'Please enter a valid email address', issues: [{ path: 'email', message: 'Please enter a valid email address' }] }],
  },
  WebhookAnswer: {
    type: 'object',
    description: "The vendor webhook's answers (spec §3): `success`, a `message`, and on a refused body every field named.",
    properties: {
      success: { type: 'boolean' },
      message: { type: 'string' },
      callback_id: { type: 'string', format: 'uuid' },
      idempotency_key: { type: 'string', description: 'On a 409: the Idempotency-Key that was first sent with another call (callback_id)' },
      fields: { type: 'array', items: { type: 'string' } },
      errors: {
        type: 'array',
        items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
      },
    },
    required: ['success', 'message'],
  },
  JsonObject: {
    type: 'object',
    description: 'A JSON object (its fields are not described here yet; see the summary).',
  },
  JsonList: {
    type: 'array',
    items: { type: 'object' },
    description: 'One page of a list of JSON objects (their fields are not described here yet; see the summary).',
  },
};

const errorResponse = (description: string, example: string, extra: Json = {}): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: example } } },
  ...extra,
});

/** On every answer of the vendor webhook (the gateway's edge/vendor-webhook.ts). */
const RATE_LIMIT_HEADERS: Json = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

const retryAfter = { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } };

const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: {
    description: 'The body, query or a header was refused',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ValidationError' },
        example: { error: 'Please enter a valid email address', issues: [{ path: 'email', message: 'Please enter a valid email address' }] },
      },
    },
  },
  Unauthorized: errorResponse('No session, or it has ended: log in (at login: the credentials or code are wrong)', 'Not authenticated'),
  Forbidden: errorResponse('Not allowed: an admin route for someone else, or a cross-site write', 'Admin access required'),
  NotFound: errorResponse('No such thing (or not yours)', 'Not found'),
  Conflict: errorResponse('The state does not allow it (taken, already done, changed meanwhile)', 'That slug is taken'),
  PayloadTooLarge: errorResponse('The body is larger than the route takes', 'Request body is too large'),
  UnsupportedMediaType: errorResponse('The body is of a type the route does not take', 'Send the CSV file as text/csv or as multipart/form-data'),
  TooManyRequests: errorResponse('Too many attempts: wait Retry-After seconds', 'Too many purchase attempts; try again in a minute', retryAfter),
  ServiceUnavailable: errorResponse('A service or store is away for a moment: retry after Retry-After seconds', 'Service temporarily unavailable: the database is not reachable. Please try again in a few seconds.', retryAfter),
  WebhookBadRequest: {
    description:
      "The body is not one JSON object ('Invalid JSON body'); or a required field is missing or wrong, every one named ('Missing required fields'); or a new call's callback_time has passed (refused, not stored)",
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/WebhookAnswer' },
        examples: {
          'Fields missing': { value: WEBHOOK_ANSWER_EXAMPLES[400] },
          'Not one JSON object': { value: WEBHOOK_ANSWER_EXAMPLES.invalidJson },
          'callback_time has passed': { value: WEBHOOK_ANSWER_EXAMPLES.pastCallbackTime },
        },
      },
    },
  },
  WebhookUnauthorized: webhookResponse('No key, or not a valid one', WEBHOOK_ANSWER_EXAMPLES[401]),
  WebhookKeyConflict: webhookResponse('The Idempotency-Key was first sent with a different call (named by callback_id): nothing stored; send this call with a key of its own', WEBHOOK_ANSWER_EXAMPLES[409]),
  WebhookTooManyRequests: {
    ...webhookResponse(`Too many calls (${WEBHOOK_CALLS_PER_MINUTE} a minute per key): wait Retry-After seconds`, WEBHOOK_ANSWER_EXAMPLES[429]),
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_LIMIT_HEADERS },
  },
  WebhookFailed: webhookResponse('The call could not be stored: send it again (a repeat within the window is not counted twice)', WEBHOOK_ANSWER_EXAMPLES[500]),
};

function webhookResponse(description: string, example: unknown): Json {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookAnswer' }, example } } };
}

const ERROR_RESPONSE_OF: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

const HEADERS: Json = {
  RetryAfter: { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
  RateLimit: { description: "Where the caller stands: 'limit=600, remaining=599, reset=42' (reset in seconds)", schema: { type: 'string' } },
  RateLimitPolicy: { description: "The limit and its window in seconds: '600;w=60'", schema: { type: 'string' } },
  RateLimitLimit: { description: 'Calls allowed in the window', schema: { type: 'integer', minimum: 1 } },
  RateLimitRemaining: { description: 'Calls left in the window', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the window ends', schema: { type: 'integer', minimum: 0 } },
  TotalCount: { description: 'How many there are in all (the answer holds one page)', schema: { type: 'integer', minimum: 0 } },
};

/* ----------------------------------------------------------------- JSON Schema --------- */

/**
 * A zod schema as an OpenAPI 3.1 Schema Object: JSON Schema 2020-12 without its `$schema`,
 * with any `$defs` moved to components.schemas (under `prefix`) so that their references
 * resolve inside the whole document.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', prefix: string, hoisted: Record<string, Json>): Json {
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  const defs = ($defs ?? {}) as Record<string, Json>;
  const rename = (ref: string) => ref.replace(/^#\/\$defs\/(.+)$/, (_, name: string) => `#/components/schemas/${prefix}_${name}`);
  let recursive = false;
  const renameAll = (ref: string) => {
    if (ref !== '#') return rename(ref);
    recursive = true;
    return `#/components/schemas/${prefix}`;
  };
  for (const [name, def] of Object.entries(defs)) hoisted[`${prefix}_${name}`] = rewriteRefs(def, renameAll) as Json;
  const root = rewriteRefs(rest, renameAll) as Json;
  if (!recursive) return root;
  // A schema that refers to itself lives in components, where '#' now points.
  hoisted[prefix] = root;
  return { $ref: `#/components/schemas/${prefix}` };
}

function rewriteRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? rename(v) : rewriteRefs(v, rename)]),
  );
}
