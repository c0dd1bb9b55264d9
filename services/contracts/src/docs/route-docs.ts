import { z } from 'zod';
import {
  createdVendorKeySchema,
  myCallbacksResponse,
  vendorKeySchema,
  webhookAcceptedResponse,
  WEBHOOK_ANSWER_EXAMPLES,
} from '../callbacks';
import { customerSearchAnswerSchema } from '../customer-search';
import { PACKAGE_CHECKOUTS, quotePackage } from '../pricing';
import type { HttpMethod } from '../routes';
import { callAttemptAnswer } from '../calling-hours';

/**
 * What the API reference (openapi.ts) says of a route beyond the route manifest: its answer
 * when it is not a plain 200 JSON object, a response schema where the contracts have one, a
 * body that is not JSON, and examples. Every example is parsed with the route's own schema by
 * services/contracts/test/openapi.test.ts, so an example that the server would refuse fails
 * the build; every key must name a route of the manifest.
 */
export interface RouteDoc {
  /** The status of success; 200 when not given. */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The success answer, where the contracts describe it with zod. */
  response?: z.ZodType;
  /** The media type of the success answer; JSON when not given ('.csv' paths are CSV). */
  responseType?: 'application/json' | 'text/csv' | 'text/html' | 'application/octet-stream' | 'application/zip';
  /** A description of the success answer, when more than 'OK' helps. */
  responseDescription?: string;
  /** An example of the success answer. */
  responseExample?: unknown;
  /** The media types of a body that is not JSON (uploads, Stripe's signed event). */
  requestTypes?: readonly string[];
  /** Examples of the JSON body, by name; each passes the route's body schema. */
  examples?: Record<string, unknown>;
  /** An example of the query string's parameters; it passes the route's query schema. */
  queryExample?: Record<string, string>;
  /** Errors of this route that the access, body and path do not already imply. */
  errors?: readonly number[];
  /** Whether a per-address or per-account throttle may answer 429. */
  throttled?: boolean;
  /** What an optional Idempotency-Key header means on this route, where it takes one. */
  idempotencyKey?: string;
}

export type RouteKey = `${HttpMethod} ${string}`;

const A_USER_ID = '0193a5c2-7e41-7b3a-9f6e-2d4c1b0a9e87';
const A_LEAD_ID = '0193a5c2-91d0-7c4e-8a11-5b7f3e2d1c09';

const specialCheckout = PACKAGE_CHECKOUTS.special;
const specialQuote = quotePackage({ tier: 'special', count: specialCheckout.defaultCount });

const surveyStep1 = {
  firstName: 'Ann',
  lastName: 'Lee',
  agencyName: 'Lee Insurance Agency',
  role: 'Agency Owner',
  phone: '(512) 555-0143',
  email: 'ann@example.com',
  username: 'annlee',
  password: 'sunny-harbor-42',
};

const agedLeadRow = {
  name: 'Maria Garcia',
  phone: '(512) 555-0188',
  email: 'maria.garcia@example.com',
  state: 'TX',
  zip: '78701',
  formFillTime: '2026-08-14T15:32:00-05:00',
  source: 'Facebook',
  consentCertificate: 'https://cert.trustedform.com/0a1b2c3d4e5f',
  consentTime: '2026-08-14T15:32:10-05:00',
  consentIp: '203.0.113.24',
  ageRange: '30-60',
  price: '4.50',
};

/** Every evidence pack route: a download, zip unless ?format= (or Accept: application/json) asks for one part. */
const EVIDENCE_DOC: RouteDoc = {
  responseType: 'application/zip',
  responseDescription: 'evidence-<kind>-<id>.zip holding evidence.pdf and evidence.json (stored); ?format=json answers the JSON, ?format=pdf the PDF',
  queryExample: { format: 'zip' },
};

export const routeDocs: Partial<Record<RouteKey, RouteDoc>> = {
  // gateway: accounts and sessions
  'POST /api/login': {
    examples: {
      'A username and password': { username: 'annlee', password: 'sunny-harbor-42' },
      'The e-mail address instead of the username': { username: 'ann@example.com', password: 'sunny-harbor-42' },
    },
    responseDescription:
      'Logged in (the session cookie is set): the user, with `firstLogin` true on their first sign-in; or `{ twoFactorRequired: true }` when a second step follows',
    errors: [401],
    throttled: true,
  },
  'GET /api/logout': { status: 302, responseDescription: 'The session is ended; redirects to /login' },
  'POST /api/forgot-password': { examples: { 'An e-mail address': { email: 'ann@example.com' } }, throttled: true },
  'POST /api/validate-reset-token': { examples: { 'The token of a reset link': { token: 'k3J9vQ2xW7nR4tY8pL1mZ6bC5dF0gH' } } },
  'POST /api/reset-password': {
    examples: { 'A new password': { token: 'k3J9vQ2xW7nR4tY8pL1mZ6bC5dF0gH', password: 'quiet-meadow-73' } },
    throttled: true,
  },
  'POST /api/login/verify-code': {
    examples: { 'A code from the authenticator app': { code: '492 031' }, 'A recovery code': { code: 'h7k2-9dmx-4qpe' } },
    errors: [401],
    throttled: true,
  },
  // Anonymous in the manifest (a login waiting for enrolment has no user yet); 401 to anyone else.
  'GET /api/two-factor': { errors: [401] },
  'POST /api/two-factor/enrol': { examples: { 'Logged in: the current password': { currentPassword: 'sunny-harbor-42' }, 'A login waiting for its first enrolment': {} }, errors: [401], throttled: true },
  'POST /api/two-factor/confirm': { examples: { 'The first code and the current password': { code: '492031', currentPassword: 'sunny-harbor-42' }, 'The first code of a login waiting for it': { code: '492031' } }, errors: [401], throttled: true },
  'POST /api/two-factor/disable': { examples: { 'A current code and the current password': { code: '492031', currentPassword: 'sunny-harbor-42' } }, throttled: true },
  'POST /api/change-password': {
    examples: { 'Current and new password': { currentPassword: 'sunny-harbor-42', newPassword: 'quiet-meadow-73' } },
    throttled: true,
  },
  // gateway: this API's description
  'GET /api/openapi.json': { responseDescription: 'The OpenAPI 3.1 document (revalidate with its ETag)' },
  'GET /api/docs': { responseType: 'text/html', responseDescription: 'The reference page; its script and style come from /api/docs/{file}, never from another site' },
  'GET /api/asyncapi.json': { responseDescription: 'The AsyncAPI 3.1 document (as docs/events/asyncapi.json; revalidate with its ETag)' },
  'GET /api/docs/{file}': { responseType: 'application/octet-stream', responseDescription: 'The file; cached for a year when asked for with its version (?v=)' },
  // gateway: surveys, campaigns, recruiting
  'POST /api/survey': {
    status: 201,
    examples: {
      'Live Transfers': { ...surveyStep1, leadType: 'Live Transfers', workingStates: 'TX, OK', totalTransfers: 20, transfersPerDay: 5, callsPerDay: 5 },
      'Aged Leads': { ...surveyStep1, leadType: 'Aged Leads', workingStates: 'FL', ageRange: '60-90' },
    },
    errors: [409],
    throttled: true,
  },
  'POST /api/ringcloud-survey': {
    status: 201,
    examples: { 'Call-Backs': { ...surveyStep1, leadType: 'Call-Backs', workingStates: 'TX', totalCallbacks: 25, callbackPreference: 'Mornings', timezone: 'CST' } },
    errors: [409],
    throttled: true,
  },
  'POST /api/{salesperson}-survey': {
    status: 201,
    examples: { 'Live Transfers': { ...surveyStep1, leadType: 'Live Transfers', workingStates: 'TX', totalTransfers: 10, transfersPerDay: 2, callsPerDay: 2 } },
    errors: [409],
    throttled: true,
  },
  'GET /api/{salesperson}-responses': {},
  'POST /api/admin/campaigns': {
    status: 201,
    examples: { 'A campaign': { name: 'Spring webinar', slug: 'spring-webinar' } },
    errors: [409],
  },
  'PATCH /api/admin/campaigns/{id}': { examples: { 'Switch off': { active: false } } },
  'GET /api/admin/campaigns/{id}/responses.csv': { responseType: 'text/csv' },
  'POST /api/recruiting-requests': {
    status: 201,
    examples: { 'A request': { needs: 'Two licensed agents for Medicare in Texas', agentsNeeded: 2, email: 'ann@example.com', phone: '(512) 555-0143' } },
  },
  // gateway: user administration
  'GET /api/users': { queryExample: { q: 'ann', page: '1' } },
  'GET /api/search-customers': { response: customerSearchAnswerSchema, queryExample: { q: 'ann@example.com' } },
  'GET /api/admin/audit-log': { queryExample: { page: '1' } },
  'POST /api/users/{id}/change-password': { examples: { 'A new password': { newPassword: 'quiet-meadow-73' }, 'My own: with the current one': { currentPassword: 'sunny-harbor-42', newPassword: 'quiet-meadow-73' } } },
  'POST /api/users/{id}/reset-two-factor': { errors: [404, 409] },
  'PATCH /api/users/{id}/live-transfer-price': { examples: { 'Dollars per transfer': { price: '31.50' } } },
  'POST /api/admin/view-as': { status: 201, examples: { 'A user': { userId: A_USER_ID } } },
  // catalog
  'GET /api/aged-leads': { queryExample: { page: '1', filter: 'TX' } },
  'POST /api/bulk-purchase-leads': { status: 201, examples: { 'Two leads': { leadIds: [A_LEAD_ID, A_USER_ID] } }, throttled: true, errors: [409] },
  'POST /api/bulk-purchase-leads/{orderId}/resume': { errors: [404, 409] },
  'POST /api/bulk-purchase-leads/{orderId}/cancel': { errors: [404, 409] },
  'GET /api/my-leads': { queryExample: { page: '1' } },
  'GET /api/my-leads/export.csv': { responseType: 'text/csv' },
  'GET /api/callback-opportunities/export.csv': { responseType: 'text/csv', queryExample: { status: 'available' } },
  'POST /api/admin/lead-imports': {
    status: 202,
    requestTypes: ['text/csv', 'multipart/form-data'],
    responseDescription: 'Accepted: the import runs in the background; `{ id }` to follow it',
    queryExample: { fileName: 'leads-august.csv' },
    errors: [415],
  },
  'GET /api/admin/lead-imports': { queryExample: { page: '1' } },
  'GET /api/admin/lead-imports/{id}/errors.csv': { responseType: 'text/csv' },
  'GET /api/admin/lead-imports/template.csv': { responseType: 'text/csv' },
  'POST /api/admin/aged-leads': { status: 201, examples: { 'One lead': agedLeadRow } },
  'POST /api/admin/bulk-aged-leads': { status: 201, examples: { 'Two leads': { leads: [agedLeadRow, { ...agedLeadRow, name: 'James Smith', phone: '(214) 555-0102', email: 'james.smith@example.com', zip: '75201' }] } } },
  'GET /api/admin/suppressions': { queryExample: { q: '512555', page: '1' } },
  'POST /api/admin/suppressions': { status: 201, examples: { 'An opt-out': { phone: '(512) 555-0188', reason: 'Asked not to be called again' } } },
  'POST /api/admin/suppressions/import': {
    examples: { 'A vendor\'s opt-out list': { fileName: 'acme-opt-outs.csv', lines: ['Phone', '(512) 555-0188', '2145550123'], reason: 'Acme Leads opt-out list, November' } },
  },
  'DELETE /api/admin/suppressions/{phone}': { status: 204 },
  'POST /api/my-leads/{id}/return': { status: 201, examples: { 'A duplicate': { reason: 'duplicate' }, 'A dead number': { reason: 'disconnected', note: 'Three calls, the line is out of service.' } } },
  'GET /api/admin/lead-returns': { queryExample: { status: 'pending', page: '1' } },
  'POST /api/admin/lead-returns/{id}': { examples: { Accept: { decision: 'accept' }, Refuse: { decision: 'refuse', reason: 'The number rang through to the prospect on our test call.' } } },
  'POST /api/admin/dnc-registry': {
    status: 202,
    requestTypes: ['multipart/form-data', 'text/plain'],
    responseDescription: 'Accepted: the registry loads in the background; the upload, to follow it',
    queryExample: { fileName: 'dnc-512.txt' },
  },
  'GET /api/admin/dnc-registry': { queryExample: { page: '1' } },
  // partners
  'POST /api/affnetwork-signup': { status: 201, requestTypes: ['multipart/form-data'], throttled: true },
  'GET /api/affnetwork-signups': { queryExample: { status: 'pending', page: '1' } },
  'PATCH /api/affnetwork-signups/{id}/status': { examples: { Approve: { status: 'approved' } } },
  'DELETE /api/affnetwork-signups/{id}': { status: 204 },
  'GET /api/affnetwork-signups/{id}/documents/{filename}': { responseType: 'application/octet-stream' },
  // orders
  'POST /api/create-payment-intent': {
    examples: {
      'The special package': { amount: specialQuote.amountCents / 100, callCount: specialCheckout.defaultCount, tier: 'special', billing: { name: 'Ann Lee', email: 'ann@example.com' } },
    },
    errors: [409],
  },
  'POST /api/payments/sandbox/confirm': {
    examples: { 'A sandbox test card': { clientSecret: 'sandbox_pi_0193a5c2_secret_4f2a', cardNumber: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' } },
  },
  'POST /api/webhooks/stripe': { requestTypes: ['application/json'] },
  'POST /api/orders/{id}/claim': {
    examples: { 'The token from the checkout': { claimToken: 'oc1.5f1c6a0e-7a0b-4f7e-9d5c-0a1b2c3d4e5f.1767225600.Jm3kq0yB8m6dWq2ZkqQ4Jw9u0cI2nH1a3sT5vX7yZ0A' } },
    errors: [403, 409],
  },
  'POST /api/call-transfer-order': {
    status: 201,
    examples: { 'Twenty transfers': { totalTransfers: 20, callsPerDay: 4, transferHours: '9am-5pm CST', transferPhone: '(512) 555-0143', workingStates: ['TX', 'OK'] } },
  },
  'PATCH /api/transfer-orders/{id}/status': {
    examples: { Complete: { status: 'completed' }, 'Cancel and refund': { status: 'cancelled', reason: 'The agent changed states' } },
    errors: [409],
  },
  'GET /api/admin/orders': { queryExample: { product: 'package', status: 'paid', from: '2026-08-01', to: '2026-08-31', page: '1' } },
  'GET /api/admin/revenue': { queryExample: { days: '30' } },
  'POST /api/admin/orders/{id}/refund': {
    examples: { 'The whole order': { reason: 'Duplicate purchase' }, 'Part of it': { amountCents: 1500, reason: 'Three leads were unreachable' } },
    errors: [409],
  },
  // ingestion
  'POST /api/callbacks/brightcall': {
    response: webhookAcceptedResponse,
    responseExample: WEBHOOK_ANSWER_EXAMPLES[200],
    examples: {
      'A call-back requested': {
        first_name: 'Maria',
        last_name: 'Garcia',
        phone_number: '(512) 555-0188',
        transcript: 'Agent: Would a licensed agent call you back? Caller: Yes, tomorrow afternoon.',
        call_outcome: 'callback_requested',
        state: 'TX',
        callback_time: '2031-11-26T15:00:00-06:00',
        agent_id: 'ai-agent-7',
        lead_quality: 'high',
        interest_level: 'interested',
      },
    },
    throttled: true,
    idempotencyKey:
      "Your own id of the call (1 to 200 visible ASCII characters), strongly advised. The same key with the same call answers the first call's callback_id again ('Callback already received', header Idempotent-Replayed: true); the same key with a different call is a 409 naming the key and the first call. See /brightcalldocs#repeats.",
  },
  'POST /api/admin/vendor-keys': { status: 201, response: createdVendorKeySchema, examples: { 'A vendor': { name: 'BrightCall' } } },
  'GET /api/admin/vendor-keys': { response: z.array(vendorKeySchema) },
  // catalog: call-backs
  'GET /api/callback-opportunities': { queryExample: { status: 'available', state: 'TX', source: 'vendor', page: '1' } },
  'POST /api/callback-opportunities': { status: 201, examples: { 'One opportunity': { firstName: 'Maria', lastName: 'Garcia', phone: '(512) 555-0188', state: 'TX', price: '15.00' } } },
  'POST /api/admin/callback-opportunities': { status: 201, examples: { 'One opportunity': { firstName: 'Maria', lastName: 'Garcia', phone: '(512) 555-0188', state: 'TX', price: 15 } } },
  'POST /api/callback-opportunities/bulk': {
    examples: {
      'Two CSV rows': {
        csvData: [
          { firstName: 'Maria', lastName: 'Garcia', phone: '5125550188', state: 'TX', price: '15.00' },
          { firstName: 'James', lastName: 'Smith', phone: '(214) 555-0102', state: 'TX', price: '' },
        ],
      },
    },
  },
  'PATCH /api/callback-opportunities/{id}': { examples: { 'A state': { state: 'TX' } } },
  'POST /api/callback-opportunities/{id}/assign': { examples: { 'An agent': { userId: A_USER_ID } } },
  'GET /api/my-callbacks': { response: myCallbacksResponse },
  'PATCH /api/my-callbacks/{id}': { examples: { Contacted: { status: 'contacted' } } },
  'POST /api/my-callbacks/{id}/attempts': { status: 201, examples: { 'No answer': { outcome: 'no_answer' }, 'Reached, with a note': { outcome: 'reached', note: 'Call back Tuesday after 5' } }, response: callAttemptAnswer },
  'PUT /api/my-callbacks-states': { examples: { 'Two states': { states: ['TX', 'OK'] } } },
  // Live transfers (issue 23)
  'POST /api/transfers/route': {
    examples: { 'A prospect in Texas': { call_id: 'call-8842', first_name: 'Maria', last_name: 'Lopez', phone_number: '(512) 555-0143', state: 'TX', lead_type: 'Final Expense' } },
  },
  'POST /api/transfers/{transferId}/outcome': {
    examples: {
      'Connected for five minutes (charged)': { connected: true, duration_seconds: 300, disposition: 'sold', recording_url: 'https://recordings.example.com/call-8842.mp3' },
      'Connected for 95 seconds (buffer-protected)': { connected: true, duration_seconds: 95 },
      'Not connected': { connected: false, duration_seconds: 0 },
    },
  },
  'PUT /api/my-transfers/settings': {
    examples: {
      'Weekdays in Texas': {
        transferPhone: '(512) 555-0143',
        states: ['TX', 'OK'],
        timeZone: 'America/Chicago',
        hours: ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, from: '09:00', to: '17:00' })),
        dailyCap: 10,
        atOnce: 1,
        paused: false,
      },
    },
  },
  'PATCH /api/my-transfers/pause': { examples: { Pause: { paused: true }, Resume: { paused: false } } },
  'POST /api/my-transfers/{id}/dispute': { examples: { 'Not shopping': { reason: 'not_shopping', note: 'Said they already bought a policy last week.' }, 'Wrong state': { reason: 'wrong_state' } } },
  'POST /api/admin/transfer-disputes/{id}': { examples: { Accept: { decision: 'accept' }, Refuse: { decision: 'refuse', reason: 'The recording shows a 6-minute quote conversation.' } } },
  'POST /api/admin/users/{id}/transfer-credits': { examples: { 'Five goodwill transfers': { transfers: 5, reason: 'Goodwill for the outage on Nov 3' }, 'Take two back': { transfers: -2, reason: 'Credited twice by mistake' } } },
  // The consent evidence pack (issue 24 §4): a zip by default; ?format=json answers the pack's JSON (its schema below).
  'GET /api/my-leads/{id}/evidence': EVIDENCE_DOC,
  'GET /api/my-callbacks/{id}/evidence': EVIDENCE_DOC,
  'GET /api/my-transfers/{id}/evidence': EVIDENCE_DOC,
  'GET /api/admin/leads/{id}/evidence': EVIDENCE_DOC,
  'GET /api/admin/callback-opportunities/{id}/evidence': EVIDENCE_DOC,
  'GET /api/admin/transfers/{id}/evidence': EVIDENCE_DOC,
};
