import type { z } from 'zod';
import {
  changeOwnPasswordBody,
  changePasswordBody,
  forgotPasswordBody,
  liveTransferPriceBody,
  loginBody,
  resetPasswordBody,
  twoFactorCodeBody,
  twoFactorConfirmBody,
  twoFactorDisableBody,
  twoFactorEnrolBody,
  validateResetTokenBody,
} from './accounts';
import { auditLogQuery, userListQuery } from './admin-accounts';
import {
  assignCallbackBody,
  bulkCallbackOpportunitiesBody,
  callbackOpportunityInput,
  callbackOpportunityListQuery,
  callbackOpportunityExportQuery,
  callbackStateBody,
  callbackWebhookBody,
  createVendorKeyBody,
  myCallbackStatesBody,
  myCallbackStatusBody,
} from './callbacks';
import { CAMPAIGN_NOT_FOUND, campaignActiveBody, createCampaignBody } from './campaigns';
import { customerSearchQuery } from './customer-search';
import { adminRefundBody, allOrdersQuery, revenueQuery, transferStatusChangeBody } from './admin-orders';
import { myOrdersQuery } from './my-orders';
import { availableLeadsQuery, bulkPurchaseBody, leadExportQuery, leadListQuery, matchingLeadsQuery, myLeadsQuery } from './catalog';
import { agedLeadInput, bulkAgedLeadsBody } from './aged-lead-rows';
import { PARTNER_APPLICATION_MAX_BYTES, partnerApplicationListQuery, partnerStatusBody } from './partners';
import { LEAD_IMPORT_MAX_BYTES, leadImportListQuery, leadImportUploadQuery, suppressionBody, suppressionImportBody, suppressionListQuery } from './lead-imports';
import { claimOrderBody, createPaymentIntentBody, sandboxConfirmBody } from './orders';
import { SURVEY_SUBMISSION_SCHEMAS } from './surveys';
import { callTransferOrderBody, recruitingRequestBody } from './transfers';
import { viewAsBody } from './view-as';
import { evidencePackQuery } from './evidence-pack';
import { leadReturnBody, leadReturnDecisionBody, leadReturnListQuery } from './lead-returns';
import { DNC_REGISTRY_MAX_BYTES, dncRegistryListQuery, dncRegistryUploadQuery } from './dnc-registry';
import { callAttemptBody } from './calling-hours';
import {
  adminTransfersQuery,
  myTransfersQuery,
  transferCreditAdjustmentBody,
  transferDisputeBody,
  transferDisputeDecisionBody,
  transferDisputeListQuery,
  transferOutcomeBody,
  transferPauseBody,
  transferRouteBody,
  transferSettingsBody,
} from './live-transfers';

/**
 * The route manifest (issue 11): every public route of WarmLine — what the browser, Stripe or a
 * vendor may call through the gateway — with who may call it, what it takes and how large a
 * body may be. The gateway's forwarding and role checks read it, the role-matrix test and the
 * fuzzer are generated from it, and a test fails when a service serves an /api route that is
 * not here. Internal routes (`/internal/...`, `/api/internal/...`) are not public and not here.
 */

/** Who may call a route. */
export type RouteAccess =
  /** Anyone; a session, if there is one, is passed on (public checkouts, the site). */
  | 'anonymous'
  /** Any logged-in user (agents and admins). */
  | 'customer'
  /** Logged-in admins only. */
  | 'admin'
  /** A voice-AI vendor with its API key. */
  | 'vendor-key'
  /** Stripe, proven by the webhook signature over the raw body (no session, no CSRF). */
  | 'stripe-signature';

/** The service that answers a route: the gateway itself, or the internal service it forwards to. */
export type RouteOwner = 'gateway' | 'catalog' | 'orders' | 'partners' | 'ingestion' | 'transfers';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface PublicRoute {
  method: HttpMethod;
  /** A path template: literal text, and `{name}` for one path segment or part of one. */
  path: string;
  owner: RouteOwner;
  access: RouteAccess;
  /** What the route does, for the API documentation. */
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The largest body accepted, in bytes; DEFAULT_BODY_LIMIT_BYTES when not given. */
  bodyLimit?: number;
  /**
   * What a `{name}` of the path may be, when not the default: a UUID for `{id}` and `{…Id}`, else
   * one segment of letters, digits, '-', '_', '.'. A path whose parameter is not of its shape names
   * nothing, so it is answered 404 with `notFound` (the route kit, platform/http/manifest-routes.ts).
   */
  params?: Record<string, RegExp>;
  /** What a 404 says when the path's ids name nothing (the resource's own words; 'Not found' if not given). */
  notFound?: string;
}

/** JSON bodies up to 100 KB unless a route says otherwise (bulk routes up to 2 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 100 * 1024;
export const BULK_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** A salesperson's page slug inside a path, e.g. 'jane-doe' in /api/jane-doe-survey. */
const SLUG = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/;

const manifest = [
  // gateway: accounts and sessions (spec §7)
  { method: 'POST', path: '/api/login', owner: 'gateway', access: 'anonymous', summary: 'Log in; starts a session', body: loginBody },
  { method: 'GET', path: '/api/logout', owner: 'gateway', access: 'anonymous', summary: 'End the session' },
  { method: 'GET', path: '/api/current-user', owner: 'gateway', access: 'customer', summary: 'The logged-in user' },
  { method: 'POST', path: '/api/forgot-password', owner: 'gateway', access: 'anonymous', summary: 'E-mail a reset link', body: forgotPasswordBody },
  { method: 'POST', path: '/api/validate-reset-token', owner: 'gateway', access: 'anonymous', summary: 'Whether a reset link is usable', body: validateResetTokenBody },
  { method: 'POST', path: '/api/reset-password', owner: 'gateway', access: 'anonymous', summary: 'Set a new password from a reset link', body: resetPasswordBody },
  // The second step of a login; the session holds the pending login (no user yet), so anonymous here.
  { method: 'POST', path: '/api/login/verify-code', owner: 'gateway', access: 'anonymous', summary: 'Complete a login with a code from the authenticator app or a recovery code', body: twoFactorCodeBody },
  // The second factor: a logged-in user, or an admin whose login waits for a first enrolment
  // (no user yet, so 'anonymous' here; the gateway answers 401 to anyone else).
  { method: 'GET', path: '/api/two-factor', owner: 'gateway', access: 'anonymous', summary: 'Whether my second factor is on, required, and how many recovery codes are left' },
  { method: 'POST', path: '/api/two-factor/enrol', owner: 'gateway', access: 'anonymous', summary: 'Start enrolling a second factor: otpauth URL, QR code and ten recovery codes (needs the current password when logged in)', body: twoFactorEnrolBody },
  { method: 'POST', path: '/api/two-factor/confirm', owner: 'gateway', access: 'anonymous', summary: 'Turn the second factor on with a first code and the current password (completes a login waiting for enrolment, which needs no password)', body: twoFactorConfirmBody },
  { method: 'POST', path: '/api/two-factor/disable', owner: 'gateway', access: 'customer', summary: 'Turn my second factor off (needs a code and the current password)', body: twoFactorDisableBody },
  { method: 'POST', path: '/api/change-password', owner: 'gateway', access: 'customer', summary: 'Change my own password (needs the current one)', body: changeOwnPasswordBody },
  // gateway: the site and the dashboard
  { method: 'GET', path: '/api/site-config', owner: 'gateway', access: 'anonymous', summary: "The public site's settings (booking link, brands)" },
  { method: 'GET', path: '/api/dashboard-config', owner: 'gateway', access: 'customer', summary: "The dashboard's settings (training videos)" },
  // gateway: this API's own description (issue 16), generated from this manifest (openapi.ts)
  { method: 'GET', path: '/api/openapi.json', owner: 'gateway', access: 'anonymous', summary: "This API's OpenAPI 3.1 description, generated from the route manifest" },
  { method: 'GET', path: '/api/docs', owner: 'gateway', access: 'anonymous', summary: 'The interactive API reference (an HTML page that reads /api/openapi.json)' },
  { method: 'GET', path: '/api/asyncapi.json', owner: 'gateway', access: 'anonymous', summary: "The AsyncAPI 3.1 description of every event and command, with examples, producers and consumers" },
  {
    method: 'GET',
    path: '/api/docs/{file}',
    owner: 'gateway',
    access: 'anonymous',
    summary: "A file of the API reference's page (its script, style sheet or icon)",
    params: { file: /[A-Za-z0-9-]+\.(?:js|css|png)/ },
  },
  // gateway: surveys and salespeople (spec §2, §3)
  { method: 'POST', path: '/api/survey', owner: 'gateway', access: 'anonymous', summary: 'The WarmLine survey; creates the account', body: SURVEY_SUBMISSION_SCHEMAS.main },
  { method: 'POST', path: '/api/ringcloud-survey', owner: 'gateway', access: 'anonymous', summary: 'The RingCloud survey; creates the account', body: SURVEY_SUBMISSION_SCHEMAS.ringcloud },
  {
    method: 'POST',
    path: '/api/{salesperson}-survey',
    owner: 'gateway',
    access: 'anonymous',
    summary: "A salesperson's referral survey; creates the account",
    body: SURVEY_SUBMISSION_SCHEMAS.referral,
    params: { salesperson: SLUG },
    notFound: 'Survey not found',
  },
  {
    method: 'GET',
    path: '/api/{salesperson}-responses',
    owner: 'gateway',
    access: 'admin',
    summary: "The responses of a salesperson's referral survey",
    params: { salesperson: SLUG },
    notFound: 'Salesperson not found',
  },
  { method: 'GET', path: '/api/salespeople/{slug}', owner: 'gateway', access: 'anonymous', summary: "A salesperson's public page", notFound: 'Salesperson not found' },
  // Test Campaigns (issue 12): a campaign is a salesperson's referral page at /{slug}.
  { method: 'GET', path: '/api/admin/campaigns', owner: 'gateway', access: 'admin', summary: 'Every test campaign with its response count and whether it is active' },
  { method: 'POST', path: '/api/admin/campaigns', owner: 'gateway', access: 'admin', summary: 'Create a campaign: its page /{slug} and survey work at once (a taken or reserved slug is 409)', body: createCampaignBody },
  { method: 'PATCH', path: '/api/admin/campaigns/{id}', owner: 'gateway', access: 'admin', summary: "Switch a campaign on or off (an inactive campaign's page and survey are 404)", body: campaignActiveBody, notFound: CAMPAIGN_NOT_FOUND },
  { method: 'GET', path: '/api/admin/campaigns/{id}/responses.csv', owner: 'gateway', access: 'admin', summary: "A campaign's survey responses as CSV", notFound: CAMPAIGN_NOT_FOUND },
  { method: 'GET', path: '/api/user-survey', owner: 'gateway', access: 'customer', summary: "The logged-in user's survey answers" },
  { method: 'POST', path: '/api/recruiting-requests', owner: 'gateway', access: 'customer', summary: 'Ask for recruiting help', body: recruitingRequestBody },
  // gateway: user administration (spec §7)
  { method: 'GET', path: '/api/users', owner: 'gateway', access: 'admin', summary: 'One page of users (50), filtered by q; the total in X-Total-Count', query: userListQuery },
  { method: 'GET', path: '/api/search-customers', owner: 'gateway', access: 'admin', summary: 'Find anyone: users, survey responses, paying customers (exact e-mail, phone or username first; 50 unless ?limit= asks for up to 500; X-Search-More: true when more match)', query: customerSearchQuery },
  { method: 'GET', path: '/api/admin/stats', owner: 'gateway', access: 'admin', summary: 'The admin cards: users, sign-ups this week, revenue this month, open transfer orders' },
  { method: 'GET', path: '/api/admin/survey-responses/{id}', owner: 'gateway', access: 'admin', summary: "One survey response with every answer of both steps (the customer search's popup)", notFound: 'Survey response not found' },
  { method: 'GET', path: '/api/admin/audit-log', owner: 'gateway', access: 'admin', summary: 'Every admin action, newest first, 50 a page; filtered by admin, action, subject and days', query: auditLogQuery },
  { method: 'GET', path: '/api/admin/audit-log.csv', owner: 'gateway', access: 'admin', summary: 'The filtered audit log as CSV (times in BUSINESS_TIMEZONE)', query: auditLogQuery },
  { method: 'DELETE', path: '/api/users/{id}', owner: 'gateway', access: 'admin', summary: 'Disable a user (soft delete: their orders stay, their username is free)', notFound: 'User not found' },
  { method: 'POST', path: '/api/users/{id}/change-password', owner: 'gateway', access: 'admin', summary: "Set a user's password (their own needs the current one)", body: changePasswordBody, notFound: 'User not found' },
  { method: 'POST', path: '/api/users/{id}/reset-two-factor', owner: 'gateway', access: 'admin', summary: "Turn off a user's second factor for them (a lost phone); they are e-mailed", notFound: 'User not found' },
  {
    method: 'PATCH',
    path: '/api/users/{id}/live-transfer-price',
    owner: 'gateway',
    access: 'admin',
    summary: "Set a user's per-transfer price",
    body: liveTransferPriceBody,
    notFound: 'User not found',
  },
  // View-as (issue 12, docs/adr/0014): the grant for one tab; DELETE is sent with that tab's X-View-As header.
  { method: 'POST', path: '/api/admin/view-as', owner: 'gateway', access: 'admin', summary: "Open a user's dashboard read only in a new tab (a 30-minute grant for that tab)", body: viewAsBody },
  { method: 'DELETE', path: '/api/admin/view-as', owner: 'gateway', access: 'admin', summary: "End the viewing of the tab's X-View-As grant" },
  // catalog: the aged-lead market and My Leads (spec §2, §4)
  { method: 'GET', path: '/api/aged-leads', owner: 'catalog', access: 'customer', summary: 'The aged-lead market, masked', query: leadListQuery },
  // The cart (issue 17): 'Select all N matching this filter', and which of the cart's leads are still for sale.
  { method: 'GET', path: '/api/aged-leads/matching', owner: 'catalog', access: 'customer', summary: 'The available leads matching a filter (masked, with prices), newest first, up to the purchase limit; total counts them all', query: matchingLeadsQuery },
  { method: 'GET', path: '/api/aged-leads/available', owner: 'catalog', access: 'customer', summary: 'Which of up to 100 leads (ids=a,b,…) the buyer can still buy, at today\'s prices', query: availableLeadsQuery },
  {
    method: 'POST',
    path: '/api/bulk-purchase-leads',
    owner: 'catalog',
    access: 'customer',
    summary: 'Reserve aged leads and open their payment',
    body: bulkPurchaseBody,
    bodyLimit: BULK_BODY_LIMIT_BYTES,
  },
  { method: 'GET', path: '/api/bulk-purchase-leads/{orderId}', owner: 'catalog', access: 'customer', summary: 'A lead purchase and its leads', notFound: 'Purchase not found' },
  // Issue 22: unpaid purchases in My Orders, each with Pay (the same payment again) and Cancel (the leads released at once).
  { method: 'GET', path: '/api/bulk-purchase-leads', owner: 'catalog', access: 'customer', summary: "The buyer's unpaid lead purchases that still hold leads, newest first" },
  { method: 'POST', path: '/api/bulk-purchase-leads/{orderId}/resume', owner: 'catalog', access: 'customer', summary: 'Pay an unpaid lead purchase: the same order and payment as before, while it holds its leads', notFound: 'Purchase not found' },
  { method: 'POST', path: '/api/bulk-purchase-leads/{orderId}/cancel', owner: 'catalog', access: 'customer', summary: 'Cancel an unpaid lead purchase: its leads are for sale again at once, and it can no longer be paid', notFound: 'Purchase not found' },
  { method: 'GET', path: '/api/my-leads', owner: 'catalog', access: 'customer', summary: "The buyer's own leads: the active ones, or (view=returned) those returned", query: myLeadsQuery },
  { method: 'GET', path: '/api/my-leads/export.csv', owner: 'catalog', access: 'customer', summary: "The buyer's own leads as CSV", query: leadExportQuery },
  // catalog: aged-lead imports and the suppression list (issue 13)
  {
    method: 'POST',
    path: '/api/admin/lead-imports',
    owner: 'catalog',
    access: 'admin',
    summary: 'Upload an aged-lead CSV (text/csv body or multipart, one file) to import; 202 { id }',
    query: leadImportUploadQuery,
    bodyLimit: LEAD_IMPORT_MAX_BYTES,
  },
  { method: 'GET', path: '/api/admin/lead-imports', owner: 'catalog', access: 'admin', summary: 'Past imports, newest first, with who ran them', query: leadImportListQuery },
  { method: 'GET', path: '/api/admin/lead-imports/{id}', owner: 'catalog', access: 'admin', summary: "An import's status and counts", notFound: 'Import not found' },
  { method: 'GET', path: '/api/admin/lead-imports/{id}/errors.csv', owner: 'catalog', access: 'admin', summary: 'The rows an import refused, each with its row number, column and reason', notFound: 'Import not found' },
  { method: 'POST', path: '/api/admin/lead-imports/{id}/cancel', owner: 'catalog', access: 'admin', summary: 'Stop a queued or running import (rows already loaded stay until Undo)', notFound: 'Import not found' },
  { method: 'POST', path: '/api/admin/lead-imports/{id}/undo', owner: 'catalog', access: 'admin', summary: "Withdraw an import's leads that are not sold yet", notFound: 'Import not found' },
  { method: 'GET', path: '/api/admin/lead-imports/template.csv', owner: 'catalog', access: 'admin', summary: 'The import template (header row and one example)' },
  { method: 'POST', path: '/api/admin/aged-leads', owner: 'catalog', access: 'admin', summary: 'Add one aged lead (the fields of an import row)', body: agedLeadInput },
  {
    method: 'POST',
    path: '/api/admin/bulk-aged-leads',
    owner: 'catalog',
    access: 'admin',
    summary: 'Add up to 5,000 aged leads at once: all or nothing, with every row error',
    body: bulkAgedLeadsBody,
    bodyLimit: BULK_BODY_LIMIT_BYTES,
  },
  { method: 'GET', path: '/api/admin/suppressions', owner: 'catalog', access: 'admin', summary: 'The suppression list (phones that opted out), newest first', query: suppressionListQuery },
  { method: 'POST', path: '/api/admin/suppressions', owner: 'catalog', access: 'admin', summary: 'Suppress a phone: off sale at once, never imported again, its buyers told to stop', body: suppressionBody },
  { method: 'POST', path: '/api/admin/suppressions/import', owner: 'catalog', access: 'admin', summary: 'Add a list of opted-out phones (one a line), each recorded as imported', body: suppressionImportBody },
  { method: 'DELETE', path: '/api/admin/suppressions/{phone}', owner: 'catalog', access: 'admin', summary: 'Take a phone off the suppression list (its withdrawn leads stay withdrawn)', notFound: 'Phone is not on the suppression list' },
  // catalog: lead returns (issue 24, ADR 0034)
  { method: 'POST', path: '/api/my-leads/{id}/return', owner: 'catalog', access: 'customer', summary: 'Return a lead bought in the last 10 days, once, with a reason: accepted at once when the records prove it, else queued for an admin', body: leadReturnBody, notFound: 'Lead not found' },
  { method: 'GET', path: '/api/admin/lead-returns', owner: 'catalog', access: 'admin', summary: 'The Returns queue by status (pending oldest first), 50 a page, with each buyer\'s return rate', query: leadReturnListQuery },
  { method: 'POST', path: '/api/admin/lead-returns/{id}', owner: 'catalog', access: 'admin', summary: 'Accept (the lead\'s price refunded once) or refuse (with a reason) a lead return', body: leadReturnDecisionBody, notFound: 'Return not found' },
  // catalog: the national do-not-call registry (issue 24)
  {
    method: 'POST',
    path: '/api/admin/dnc-registry',
    owner: 'catalog',
    access: 'admin',
    summary: "Upload a national DNC registry file (ten-digit numbers, one a line; multipart field file or the raw body): it replaces the registry of every area code it holds; 202 with the upload",
    query: dncRegistryUploadQuery,
    bodyLimit: DNC_REGISTRY_MAX_BYTES,
  },
  { method: 'GET', path: '/api/admin/dnc-registry', owner: 'catalog', access: 'admin', summary: 'Registry uploads, newest first, with their date, counts, area codes and progress', query: dncRegistryListQuery },
  { method: 'GET', path: '/api/admin/dnc-registry/{id}', owner: 'catalog', access: 'admin', summary: "A registry upload's status, counts and progress", notFound: 'Registry upload not found' },
  // partners: the partner network (issue 14)
  {
    method: 'POST',
    path: '/api/affnetwork-signup',
    owner: 'partners',
    access: 'anonymous',
    summary: 'Apply to the partner network: multipart form fields (servicesInterested as JSON text) and documents file_0…file_4',
    bodyLimit: PARTNER_APPLICATION_MAX_BYTES,
  },
  { method: 'GET', path: '/api/affnetwork-signups', owner: 'partners', access: 'admin', summary: 'Partner applications, newest first, 50 a page (total in X-Total-Count)', query: partnerApplicationListQuery },
  { method: 'PATCH', path: '/api/affnetwork-signups/{id}/status', owner: 'partners', access: 'admin', summary: "Set an application's status (pending, approved, rejected); the applicant is e-mailed", body: partnerStatusBody, notFound: 'Application not found' },
  { method: 'DELETE', path: '/api/affnetwork-signups/{id}', owner: 'partners', access: 'admin', summary: 'Delete an application and its documents', notFound: 'Application not found' },
  { method: 'GET', path: '/api/affnetwork-signups/{id}/documents/{filename}', owner: 'partners', access: 'admin', summary: "Download one of an application's documents (attachment, its detected type)", notFound: 'Document not found' },
  // orders: checkouts and payments (spec §2, ARCHITECTURE §4)
  { method: 'POST', path: '/api/create-payment-intent', owner: 'orders', access: 'anonymous', summary: 'Open a package checkout', body: createPaymentIntentBody },
  { method: 'GET', path: '/api/config', owner: 'orders', access: 'anonymous', summary: 'Which card form to show (Stripe or sandbox)' },
  { method: 'GET', path: '/api/payments/config', owner: 'orders', access: 'anonymous', summary: 'Which card form to show (Stripe or sandbox)' },
  { method: 'POST', path: '/api/payments/sandbox/confirm', owner: 'orders', access: 'anonymous', summary: 'Pay with a sandbox test card', body: sandboxConfirmBody },
  { method: 'GET', path: '/api/orders/{id}/status', owner: 'orders', access: 'anonymous', summary: "An order's payment status", notFound: 'Order not found' },
  { method: 'POST', path: '/api/orders/{id}/claim', owner: 'orders', access: 'customer', summary: 'Attach a package paid without a session to your account, with the claim token its checkout received (ADR 0022)', body: claimOrderBody, notFound: 'Order not found' },
  { method: 'POST', path: '/api/webhooks/stripe', owner: 'orders', access: 'stripe-signature', summary: "Stripe's payment events", bodyLimit: 512 * 1024 },
  // orders: live call transfers (spec §2)
  { method: 'POST', path: '/api/call-transfer-order', owner: 'orders', access: 'customer', summary: 'Order live call transfers', body: callTransferOrderBody },
  { method: 'GET', path: '/api/transfer-orders', owner: 'orders', access: 'admin', summary: 'Every transfer order' },
  { method: 'PATCH', path: '/api/transfer-orders/{id}/status', owner: 'orders', access: 'admin', summary: 'Move a transfer order: pending → cancelled, paid → completed, paid → cancelled (refunded; reason required)', body: transferStatusChangeBody, notFound: 'Transfer order not found' },
  { method: 'GET', path: '/api/admin/orders', owner: 'orders', access: 'admin', summary: 'All Orders: every order of every product, filtered and paged, with totals over the filter', query: allOrdersQuery },
  { method: 'GET', path: '/api/admin/orders.csv', owner: 'orders', access: 'admin', summary: 'All Orders under the same filters as CSV (times in BUSINESS_TIMEZONE)', query: allOrdersQuery },
  { method: 'GET', path: '/api/admin/revenue', owner: 'orders', access: 'admin', summary: 'Revenue per day by product over the last 30 or 90 days, net of refunds', query: revenueQuery },
  { method: 'GET', path: '/api/my-orders', owner: 'orders', access: 'customer', summary: "My Orders: every order of the logged-in agent, each with its receipt, 25 a page (the answer has the total)", query: myOrdersQuery },
  { method: 'POST', path: '/api/admin/orders/{id}/refund', owner: 'orders', access: 'admin', summary: 'Refund a paid order, whole or in part, with a reason', body: adminRefundBody, notFound: 'Order not found' },
  // ingestion: the voice-AI vendor's webhook and its keys (issue 15)
  { method: 'POST', path: '/api/callbacks/brightcall', owner: 'ingestion', access: 'vendor-key', summary: "A voice-AI vendor posts a call's outcome (X-API-Key or Authorization: Bearer); see /brightcalldocs", body: callbackWebhookBody },
  { method: 'POST', path: '/api/admin/vendor-keys', owner: 'ingestion', access: 'admin', summary: 'Create a vendor key (the key is shown once)', body: createVendorKeyBody },
  { method: 'GET', path: '/api/admin/vendor-keys', owner: 'ingestion', access: 'admin', summary: 'Vendor keys: name, created, last used, calls received (never the key)' },
  { method: 'DELETE', path: '/api/admin/vendor-keys/{id}', owner: 'ingestion', access: 'admin', summary: 'Revoke a vendor key (at once)', notFound: 'Vendor key not found' },
  // catalog: callback opportunities and the agents' call-backs (issue 15)
  { method: 'GET', path: '/api/callback-opportunities', owner: 'catalog', access: 'admin', summary: 'Callback opportunities, newest first, 50 a page (total in X-Total-Count)', query: callbackOpportunityListQuery },
  { method: 'POST', path: '/api/callback-opportunities', owner: 'catalog', access: 'admin', summary: 'Add one callback opportunity (the manual form)', body: callbackOpportunityInput },
  { method: 'POST', path: '/api/admin/callback-opportunities', owner: 'catalog', access: 'admin', summary: 'Add one callback opportunity (the manual form; same as POST /api/callback-opportunities)', body: callbackOpportunityInput },
  { method: 'POST', path: '/api/callback-opportunities/bulk', owner: 'catalog', access: 'admin', summary: 'Add the rows of a callback CSV (≤ 5,000): good rows created, bad rows listed', body: bulkCallbackOpportunitiesBody, bodyLimit: BULK_BODY_LIMIT_BYTES },
  { method: 'PATCH', path: '/api/callback-opportunities/{id}', owner: 'catalog', access: 'admin', summary: 'Give a waiting opportunity its state', body: callbackStateBody, notFound: 'Callback opportunity not found' },
  { method: 'POST', path: '/api/callback-opportunities/{id}/assign', owner: 'catalog', access: 'admin', summary: 'Assign an opportunity to an agent by hand', body: assignCallbackBody, notFound: 'Callback opportunity not found' },
  { method: 'GET', path: '/api/callback-opportunities/export.csv', owner: 'catalog', access: 'admin', summary: 'Callback opportunities as CSV, with the list\'s filters, newest first (at most 50,000 rows)', query: callbackOpportunityExportQuery },
  { method: 'GET', path: '/api/admin/callback-agents', owner: 'catalog', access: 'admin', summary: 'Agents who can receive call-backs (a call-back account), with their balance and states, for assigning by hand' },
  { method: 'GET', path: '/api/my-callbacks', owner: 'catalog', access: 'customer', summary: 'My Call-backs: my call-backs, my balance and my states' },
  { method: 'PATCH', path: '/api/my-callbacks/{id}', owner: 'catalog', access: 'customer', summary: "Mark one of my call-backs contacted", body: myCallbackStatusBody, notFound: 'Call-back not found' },
  { method: 'POST', path: '/api/my-callbacks/{id}/attempts', owner: 'catalog', access: 'customer', summary: 'Log a call to the prospect of one of my call-backs (counted by the 3-calls-in-24-hours rule; recorded even outside calling hours)', body: callAttemptBody, notFound: 'Call-back not found' },
  { method: 'PUT', path: '/api/my-callbacks-states', owner: 'catalog', access: 'customer', summary: 'Set the states I take call-backs in', body: myCallbackStatesBody },
  // transfers: live transfers delivered and billed (issue 23); the vendor's two calls see /brightcalldocs
  { method: 'POST', path: '/api/transfers/route', owner: 'transfers', access: 'vendor-key', summary: 'The vendor asks which agent gets a live transfer (X-API-Key or Authorization: Bearer); reserves the agent for 60 s', body: transferRouteBody },
  { method: 'POST', path: '/api/transfers/{transferId}/outcome', owner: 'transfers', access: 'vendor-key', summary: 'The vendor reports how a routed transfer went; more than 120 connected seconds charges one transfer', body: transferOutcomeBody, notFound: 'Transfer not found' },
  { method: 'GET', path: '/api/my-transfers', owner: 'transfers', access: 'customer', summary: 'My Transfers: my balance, today against my cap, and my transfers, newest first, 50 a page', query: myTransfersQuery },
  { method: 'GET', path: '/api/my-transfers/export.csv', owner: 'transfers', access: 'customer', summary: 'My Transfers under the same filters as CSV (times in my zone)', query: myTransfersQuery },
  { method: 'GET', path: '/api/my-transfers/settings', owner: 'transfers', access: 'customer', summary: 'My delivery settings (saved, or suggested from my survey and latest transfer order)' },
  { method: 'PUT', path: '/api/my-transfers/settings', owner: 'transfers', access: 'customer', summary: 'Save my delivery settings: transfer phone, states, zone, weekly hours, daily cap, at once, paused', body: transferSettingsBody },
  { method: 'PATCH', path: '/api/my-transfers/pause', owner: 'transfers', access: 'customer', summary: 'Pause or resume my transfers (from the next routing decision)', body: transferPauseBody },
  { method: 'POST', path: '/api/my-transfers/{id}/dispute', owner: 'transfers', access: 'customer', summary: 'Dispute a charged transfer within 7 days', body: transferDisputeBody, notFound: 'Transfer not found' },
  { method: 'GET', path: '/api/admin/transfers', owner: 'transfers', access: 'admin', summary: 'Transfers with their agent, newest first, 50 a page, by date (business day) and status', query: adminTransfersQuery },
  { method: 'GET', path: '/api/admin/transfer-agents', owner: 'transfers', access: 'admin', summary: "Every agent with transfers or settings: balance, today's count, cap, hours, pause, and why they can take none now" },
  { method: 'GET', path: '/api/admin/transfer-revenue', owner: 'transfers', access: 'admin', summary: 'Revenue earned by delivered transfers beside cash taken for transfers, per business day over 30 days' },
  { method: 'GET', path: '/api/admin/transfer-disputes', owner: 'transfers', access: 'admin', summary: 'Transfer disputes, oldest pending first', query: transferDisputeListQuery },
  { method: 'POST', path: '/api/admin/transfer-disputes/{id}', owner: 'transfers', access: 'admin', summary: 'Accept (the transfer credited back) or refuse (with a reason) a dispute', body: transferDisputeDecisionBody, notFound: 'Dispute not found' },
  { method: 'POST', path: '/api/admin/users/{id}/transfer-credits', owner: 'transfers', access: 'admin', summary: "Adjust an agent's transfer balance with a reason (negative takes back, never below zero)", body: transferCreditAdjustmentBody, notFound: 'User not found' },
  // The consent evidence pack (issue 24 §4, docs/adr/0035): one download of a PDF and its JSON in a zip (format=json|pdf for one alone).
  { method: 'GET', path: '/api/my-leads/{id}/evidence', owner: 'catalog', access: 'customer', summary: "The consent evidence pack of one of my leads: consent record, do-not-call checks at sale, sale record (zip of PDF and JSON)", query: evidencePackQuery, notFound: 'Lead not found' },
  { method: 'GET', path: '/api/my-callbacks/{id}/evidence', owner: 'catalog', access: 'customer', summary: "The consent evidence pack of one of my call-backs, with the vendor's call record (zip of PDF and JSON)", query: evidencePackQuery, notFound: 'Call-back not found' },
  { method: 'GET', path: '/api/my-transfers/{id}/evidence', owner: 'transfers', access: 'customer', summary: "The consent evidence pack of one of my transfers, with the vendor's call record (zip of PDF and JSON)", query: evidencePackQuery, notFound: 'Transfer not found' },
  { method: 'GET', path: '/api/admin/leads/{id}/evidence', owner: 'catalog', access: 'admin', summary: 'The consent evidence pack of any sold lead (zip of PDF and JSON)', query: evidencePackQuery, notFound: 'Lead not found' },
  { method: 'GET', path: '/api/admin/callback-opportunities/{id}/evidence', owner: 'catalog', access: 'admin', summary: 'The consent evidence pack of any delivered call-back (zip of PDF and JSON)', query: evidencePackQuery, notFound: 'Call-back not found' },
  { method: 'GET', path: '/api/admin/transfers/{id}/evidence', owner: 'transfers', access: 'admin', summary: 'The consent evidence pack of any routed transfer (zip of PDF and JSON)', query: evidencePackQuery, notFound: 'Transfer not found' },
] as const satisfies readonly PublicRoute[];

export const publicRoutes: readonly PublicRoute[] = manifest;

/** One route of the manifest with its literal method, path, access and schemas (the route kit types handlers by it). */
export type ManifestRoute = (typeof manifest)[number];

const DEFAULT_PARAM = /[A-Za-z0-9_.-]+/;

/** The path template as a regular expression (anchored; a trailing slash is allowed). */
export function routePattern(route: Pick<PublicRoute, 'path' | 'params'>): RegExp {
  let source = '';
  let last = 0;
  for (const match of route.path.matchAll(/\{([A-Za-z]+)\}/g)) {
    source += escapeRegExp(route.path.slice(last, match.index));
    const param = route.params?.[match[1]!] ?? DEFAULT_PARAM;
    source += `(?<${match[1]}>${param.source})`;
    last = match.index! + match[0].length;
  }
  source += escapeRegExp(route.path.slice(last));
  return new RegExp(`^${source}/?$`);
}

const compiled = publicRoutes.map((route) => ({ route, pattern: routePattern(route) }));

/**
 * The route a request is for, and its path parameters. A path that matches a route with
 * another method answers `{ route: undefined, pathKnown: true }` (a 405, not a 404).
 */
export function findPublicRoute(method: string, path: string): { route: PublicRoute | undefined; params: Record<string, string>; pathKnown: boolean } {
  // Asked several times a request (the gateway's gate, throttles, forwarding; a service's body
  // limit and router), each a test of every route's pattern: the answers of recent paths are kept.
  const memoKey = `${method} ${path}`;
  const known = foundRoutes.get(memoKey);
  if (known) return { route: known.route, params: { ...known.params }, pathKnown: known.pathKnown };
  const found = matchPublicRoute(method, path);
  if (foundRoutes.size >= FOUND_ROUTES_KEPT) foundRoutes.clear();
  foundRoutes.set(memoKey, found);
  return { route: found.route, params: { ...found.params }, pathKnown: found.pathKnown };
}

const FOUND_ROUTES_KEPT = 1000;
const foundRoutes = new Map<string, { route: PublicRoute | undefined; params: Record<string, string>; pathKnown: boolean }>();

function matchPublicRoute(method: string, path: string): { route: PublicRoute | undefined; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  // Literal routes before templates: '/api/ringcloud-survey' is not the referral survey of 'ringcloud'.
  const candidates = compiled.filter((c) => c.pattern.test(path)).sort((a, b) => templateCount(a.route) - templateCount(b.route));
  for (const { route, pattern } of candidates) {
    pathKnown = true;
    if (route.method === method.toUpperCase() || (route.method === 'GET' && method.toUpperCase() === 'HEAD')) {
      return { route, params: { ...(pattern.exec(path)?.groups ?? {}) }, pathKnown };
    }
  }
  return { route: undefined, params: {}, pathKnown };
}

function templateCount(route: PublicRoute): number {
  return (route.path.match(/\{/g) ?? []).length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
