import type { z } from 'zod';
import { WEBHOOK_ANSWER_EXAMPLES, webhookRefusal } from './callbacks';
import {
  ROUTE_REFUSAL_REASONS,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_NOT_FOUND_MESSAGE,
  TRANSFER_OUTCOME_CONFLICT_MESSAGE,
  TRANSFER_RESERVATION_SECONDS,
  transferOutcomeBody,
  transferRouteBody,
  type RouteRefusalReason,
  type TransferOutcomeAnswer,
  type TransferOutcomeInput,
  type TransferRouteAnswer,
  type TransferRouteInput,
} from './live-transfers';

/**
 * /brightcalldocs for the vendor's two live-transfer calls (issue 23 §8): every field of
 * transferRouteBody and transferOutcomeBody with its type, whether it is required, its limit,
 * what it means and an example, and an example of every answer. The schemas are the ones the
 * transfers service validates with; contracts/test/transfer-docs.test.ts holds each table to
 * its schema (no field undocumented, none invented, required exactly when the schema says) and
 * every example body to its schema.
 */

export interface TransferDocField<Name extends string> {
  name: Name;
  type: string;
  required: boolean;
  /** '100 characters', '0 to 86,400' — what the schema refuses beyond. */
  limit: string;
  description: string;
  example: string;
}

type RouteFieldName = keyof z.input<typeof transferRouteBody>;
type OutcomeFieldName = keyof z.input<typeof transferOutcomeBody>;

export const TRANSFER_ROUTE_FIELDS: ReadonlyArray<TransferDocField<RouteFieldName>> = [
  {
    name: 'call_id',
    type: 'string',
    required: true,
    limit: '200 characters',
    description: 'Your id of this call. The same call_id sent again (from the same key) answers the same decision: a retry never reserves a second agent.',
    example: 'bc-call-88412',
  },
  { name: 'first_name', type: 'string', required: true, limit: '100 characters', description: "The prospect's first name, shown to the agent.", example: 'Maria' },
  { name: 'last_name', type: 'string', required: true, limit: '100 characters', description: "The prospect's last name, shown to the agent.", example: 'Lopez' },
  {
    name: 'phone_number',
    type: 'string',
    required: true,
    limit: '30 characters',
    description: "The prospect's US phone number, 10 digits with the area code; punctuation and a leading +1 are allowed.",
    example: '+1 (512) 555-0143',
  },
  {
    name: 'state',
    type: 'string',
    required: false,
    limit: '2-letter US state code',
    description: "The prospect's state (TX, FL, …). When absent it is taken from the phone's area code.",
    example: 'TX',
  },
  { name: 'lead_type', type: 'string', required: false, limit: '100 characters', description: 'What the prospect is shopping for, kept with the transfer and shown to the agent.', example: 'Final Expense' },
];

export const TRANSFER_OUTCOME_FIELDS: ReadonlyArray<TransferDocField<OutcomeFieldName>> = [
  { name: 'connected', type: 'boolean', required: true, limit: 'true or false', description: 'Whether the prospect and the agent were connected. false is never charged.', example: 'true' },
  {
    name: 'duration_seconds',
    type: 'integer',
    required: true,
    limit: '0 to 86,400',
    description: `Seconds the prospect stayed on the call with the agent. At most ${TRANSFER_BUFFER_SECONDS}: buffer-protected, not charged; more: one transfer charged.`,
    example: '300',
  },
  { name: 'answered_at', type: 'string (ISO 8601 date-time with offset)', required: false, limit: '40 characters', description: 'When the agent answered.', example: '2026-11-27T15:04:05Z' },
  { name: 'ended_at', type: 'string (ISO 8601 date-time with offset)', required: false, limit: '40 characters', description: 'When the call ended.', example: '2026-11-27T15:09:05Z' },
  { name: 'recording_url', type: 'string (http or https URL)', required: false, limit: '2,000 characters', description: "The call's recording; the agent gets a link to it.", example: 'https://recordings.example.com/bc-call-88412.mp3' },
  { name: 'transcript', type: 'string', required: false, limit: '100,000 characters', description: "The call's transcript, shown to the agent.", example: 'Voice AI: Connecting you with a licensed agent now. Prospect: Thank you.' },
  { name: 'disposition', type: 'string', required: false, limit: '100 characters', description: 'How the call ended in your words (quoted, sold, follow_up, …), kept with the transfer.', example: 'quoted' },
];

/** The example route body: every field with its example value. */
export const EXAMPLE_ROUTE_BODY: TransferRouteInput = Object.fromEntries(TRANSFER_ROUTE_FIELDS.map((f) => [f.name, f.example])) as TransferRouteInput;

/** The example outcome body: connected for 300 seconds (charged), every field. */
export const EXAMPLE_OUTCOME_BODY: TransferOutcomeInput = {
  connected: true,
  duration_seconds: 300,
  ...Object.fromEntries(TRANSFER_OUTCOME_FIELDS.filter((f) => f.type.startsWith('string')).map((f) => [f.name, f.example])),
};

const EXAMPLE_TRANSFER_ID = '0193b7d4-2c5e-7a10-8f3b-5e6d7c8b9a01';

/** A routing decision's example, expiring TRANSFER_RESERVATION_SECONDS after a fixed moment. */
const routedExample: TransferRouteAnswer = {
  success: true,
  routed: true,
  transfer_id: EXAMPLE_TRANSFER_ID,
  transfer_phone: '5125550143',
  agent_name: 'Dana Whitfield',
  expires_at: new Date(Date.parse('2026-11-27T15:04:00Z') + TRANSFER_RESERVATION_SECONDS * 1000).toISOString(),
};

const refusedExample = (reason: RouteRefusalReason): TransferRouteAnswer => ({ success: true, routed: false, reason });

/** A 400 as both calls answer it: the webhook's shape, every field named (here, a phone without its area code). */
const badRouteBody = transferRouteBody.safeParse({ ...EXAMPLE_ROUTE_BODY, phone_number: '555-0143' });
const badOutcomeBody = transferOutcomeBody.safeParse({ connected: 'yes', duration_seconds: 12.5 });

export const TRANSFER_ROUTE_ANSWER_EXAMPLES = {
  routed: routedExample,
  ...(Object.fromEntries(ROUTE_REFUSAL_REASONS.map((r) => [r, refusedExample(r)])) as Record<RouteRefusalReason, TransferRouteAnswer>),
  400: badRouteBody.success ? null : webhookRefusal(badRouteBody.error),
  401: WEBHOOK_ANSWER_EXAMPLES[401],
  429: WEBHOOK_ANSWER_EXAMPLES[429],
} as const;

const outcomeExample = (status: 'charged' | 'buffer_protected' | 'not_connected'): TransferOutcomeAnswer => ({
  success: true,
  transfer_id: EXAMPLE_TRANSFER_ID,
  status,
  charged: status === 'charged',
  charged_cents: status === 'charged' ? 3700 : 0,
});

export const TRANSFER_OUTCOME_ANSWER_EXAMPLES = {
  charged: outcomeExample('charged'),
  buffer_protected: outcomeExample('buffer_protected'),
  not_connected: outcomeExample('not_connected'),
  400: badOutcomeBody.success ? null : webhookRefusal(badOutcomeBody.error),
  401: WEBHOOK_ANSWER_EXAMPLES[401],
  404: { success: false, message: TRANSFER_NOT_FOUND_MESSAGE },
  409: { success: false, message: TRANSFER_OUTCOME_CONFLICT_MESSAGE },
  429: WEBHOOK_ANSWER_EXAMPLES[429],
} as const;
