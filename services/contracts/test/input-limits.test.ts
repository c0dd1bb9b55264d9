import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callTransferOrderBody,
  createPaymentIntentBody,
  loginBody,
  mainSurveySubmissionSchema,
  publicRoutes,
  recruitingRequestBody,
} from '../src/index';

/**
 * Issue 11, medium 9: every string a public route accepts has a maximum length and every list
 * a maximum size, so no field can carry a body's worth of text into the services. Walks the
 * JSON Schema of each body and query schema of the route manifest (as the input side sees it).
 */

type JsonSchema = Record<string, unknown>;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the schema lets through a string of any length, a list of any size, or anything at all. */
function unboundedFields(schema: unknown, path: string): string[] {
  if (schema === true) return [`${path || '(root)'}: accepts anything`];
  if (!isSchema(schema)) return [];
  const found: string[] = [];
  const bounded = schema.enum !== undefined || schema.const !== undefined;
  const children: Array<[string, unknown]> = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) options.forEach((option, i) => children.push([`${path}(${key} ${i})`, option]));
  }
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) children.push([`${path}.${name}`, property]);
  }
  if (schema.items !== undefined) children.push([`${path}[]`, schema.items]);
  if (isSchema(schema.additionalProperties)) children.push([`${path}.*`, schema.additionalProperties]);

  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.includes('string') && !bounded && schema.maxLength === undefined && schema.format !== 'uuid') {
    found.push(`${path || '(root)'}: a string without a maximum length`);
  }
  if (types.includes('array') && schema.maxItems === undefined) found.push(`${path || '(root)'}: a list without a maximum size`);
  if (types.length === 0 && !bounded && children.length === 0 && schema.$ref === undefined && schema.not === undefined) {
    found.push(`${path || '(root)'}: accepts anything (no type)`);
  }
  for (const [childPath, child] of children) found.push(...unboundedFields(child, childPath));
  return found;
}

function inputJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

describe('limits on every input (issue 11, medium 9)', () => {
  const schemas = publicRoutes.flatMap((route) =>
    (
      [
        ['body', route.body],
        ['query', route.query],
      ] as const
    ).flatMap(([kind, schema]) => (schema ? [{ name: `${route.method} ${route.path} ${kind}`, schema }] : [])),
  );

  it('when the route manifest is read, then it has body and query schemas to check', () => {
    expect(schemas.length).toBeGreaterThan(10);
  });

  for (const { name, schema } of schemas) {
    it(`when ${name} is read as JSON Schema, then every string has a maximum length and every list a maximum size`, () => {
      expect(unboundedFields(inputJsonSchema(schema), '')).toEqual([]);
    });
  }

  it('when the walker meets an unbounded string, list or field, then it names each', () => {
    const loose = z.object({ name: z.string(), tags: z.array(z.string().max(5)), extra: z.unknown(), id: z.uuid(), kind: z.enum(['a', 'b']) });
    expect(unboundedFields(inputJsonSchema(loose), '')).toEqual([
      '.name: a string without a maximum length',
      '.tags: a list without a maximum size',
      '.extra: accepts anything (no type)',
    ]);
  });

  it('when a field is longer than its limit, then the answer says which and how long it may be', () => {
    const first = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
    expect(first(loginBody, { username: 'u'.repeat(255), password: 'x' })).toBe('Username must be at most 254 characters');
    expect(first(loginBody, { username: 'user', password: 'x'.repeat(1001) })).toBe('Password must be at most 1000 characters');
    expect(first(recruitingRequestBody, { needs: 'n'.repeat(2001), agentsNeeded: 1, email: 'a@example.com', phone: '5125550100' })).toBe(
      'Please keep it under 2000 characters',
    );
    expect(first(createPaymentIntentBody, { amount: 1, callCount: '9'.repeat(21) })).toBe('Count must be a whole number');
    expect(first(createPaymentIntentBody, { amount: 1, callCount: 10, packageType: 'p'.repeat(101) })).toBe('Package type must be at most 100 characters');
    const order = { totalTransfers: 10, callsPerDay: 5, transferHours: '9-5', transferPhone: '5125550100' };
    expect(first(callTransferOrderBody, { ...order, workingStates: Array.from({ length: 101 }, () => 'TX') })).toBe('Working states must be at most 100 states');
    expect(first(callTransferOrderBody, { ...order, workingStates: 'TX, '.repeat(300) })).toBe('Working states must be at most 1000 characters');
    expect(first(callTransferOrderBody, { ...order, workingStates: ['TX', 5] })).toBe('Working states must be state codes such as TX');
    expect(first(callTransferOrderBody, { ...order, totalTransfers: { many: true }, workingStates: ['TX'] })).toBe('Must be at least 1 transfer');
  });

  it('when a survey count is text, then it still reads as the spec says, and only a huge text is refused', () => {
    const survey = {
      firstName: 'Ana',
      lastName: 'Lee',
      agencyName: 'Lee Agency',
      role: 'Insurance Agent',
      phone: '5125550100',
      email: 'ana@example.com',
      username: 'analee',
      password: 'a long enough password',
      leadType: 'Live Transfers',
      workingStates: 'TX',
    };
    const parsed = mainSurveySubmissionSchema.safeParse({ ...survey, totalTransfers: '12abc', callsPerDay: 'abc' });
    expect(parsed.success && parsed.data).toEqual(expect.objectContaining({ totalTransfers: 12, callsPerDay: 0 }));
    const huge = mainSurveySubmissionSchema.safeParse({ ...survey, totalTransfers: '1'.repeat(31) });
    expect(huge.error?.issues[0]?.message).toBe('Total transfers must be at most 30 characters');
    const object = mainSurveySubmissionSchema.safeParse({ ...survey, totalTransfers: { n: 1 } });
    expect(object.error?.issues[0]?.message).toBe('Total transfers must be a number');
  });
});
