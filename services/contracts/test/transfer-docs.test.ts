import { describe, expect, it } from 'vitest';
import { transferOutcomeBody, transferRouteBody, ROUTE_REFUSAL_REASONS, TRANSFER_STATUSES } from '../src/live-transfers';
import {
  EXAMPLE_OUTCOME_BODY,
  EXAMPLE_ROUTE_BODY,
  TRANSFER_OUTCOME_ANSWER_EXAMPLES,
  TRANSFER_OUTCOME_FIELDS,
  TRANSFER_ROUTE_ANSWER_EXAMPLES,
  TRANSFER_ROUTE_FIELDS,
} from '../src/transfer-docs';

/**
 * /brightcalldocs documents the vendor's live-transfer calls from these tables (issue 23 §8):
 * they must name every field the schemas read, nothing else, and call a field required exactly
 * when the schema refuses a body without it.
 */

const schemas = [
  { call: 'route', schema: transferRouteBody, fields: TRANSFER_ROUTE_FIELDS, example: EXAMPLE_ROUTE_BODY },
  { call: 'outcome', schema: transferOutcomeBody, fields: TRANSFER_OUTCOME_FIELDS, example: EXAMPLE_OUTCOME_BODY },
] as const;

describe('the live-transfer calls as /brightcalldocs documents them', () => {
  it.each(schemas)('when the $call fields are compared with the schema, then every field is documented once and required exactly when the schema needs it', ({ schema, fields, example }) => {
    expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(schema.shape).sort());
    expect(new Set(fields.map((f) => f.name)).size).toBe(fields.length);
    for (const f of fields) {
      const { [f.name]: _left, ...without } = example as Record<string, unknown>;
      expect(schema.safeParse(without).success, `${f.name} left out`).toBe(!f.required);
      expect(f.description.length, f.name).toBeGreaterThan(10);
    }
  });

  it.each(schemas)('when the $call example body is parsed by its schema, then it is valid', ({ schema, example }) => {
    expect(schema.safeParse(example).success).toBe(true);
  });

  it('when the answers are listed, then there is one example per refusal reason and each outcome status is one of the statuses', () => {
    for (const reason of ROUTE_REFUSAL_REASONS) expect(TRANSFER_ROUTE_ANSWER_EXAMPLES[reason]).toEqual({ success: true, routed: false, reason });
    for (const status of ['charged', 'buffer_protected', 'not_connected'] as const) {
      expect(TRANSFER_STATUSES).toContain(TRANSFER_OUTCOME_ANSWER_EXAMPLES[status].status);
      expect(TRANSFER_OUTCOME_ANSWER_EXAMPLES[status].charged).toBe(status === 'charged');
    }
    // The 400s are what the schemas say about a bad body, every field named.
    expect(TRANSFER_ROUTE_ANSWER_EXAMPLES[400]?.fields).toEqual(['phone_number']);
    expect(TRANSFER_OUTCOME_ANSWER_EXAMPLES[400]?.fields).toEqual(['connected', 'duration_seconds']);
  });
});
