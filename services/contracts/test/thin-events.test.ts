import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { events } from '../src/bus/messages';

/**
 * Events are thin (ARCHITECTURE §3, issue 10): every event on `warmline.events` carries ids
 * and business facts, never a person's name, e-mail, username, phone or address; analysts
 * tap that exchange. What an e-mail needs travels in a command on `warmline.commands`.
 */

/** Property names that say a field holds something about a person rather than a fact. */
const PERSONAL = /name|e-?mail|phone|username|address|transfer_?number|contact|salesperson|street|zip|postal|birth/i;

/**
 * Business facts whose names look personal. Each entry says why it is no one's detail;
 * an id of a person (…Id, …Ids) is always fine: it points at the owner, who keeps the details.
 */
const ALLOWED = new Map<string, string>([
  ['hasBillingEmail', 'whether the buyer left a receipt address, not the address'],
]);

const isId = (name: string) => /(Id|Ids)$/.test(name);

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema | JsonSchema[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; additionalProperties?: JsonSchema | boolean };

/** Every property path of a JSON schema whose name looks personal, nested objects and arrays included. */
function personalFields(schema: JsonSchema, at = ''): string[] {
  const found: string[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = at ? `${at}.${name}` : name;
    if (PERSONAL.test(name) && !isId(name) && !ALLOWED.has(name)) found.push(path);
    found.push(...personalFields(child, path));
  }
  const nested = [
    ...(Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
  ];
  for (const child of nested) found.push(...personalFields(child, `${at}[]`));
  return found;
}

const personalFieldsOf = (schema: z.ZodType) => personalFields(z.toJSONSchema(schema, { io: 'output' }) as JsonSchema);

type StringSchema = JsonSchema & { type?: string | string[]; enum?: unknown[]; const?: unknown; format?: string; pattern?: string; maxLength?: number };

/**
 * Every property path of a JSON schema that holds free text: a string that is neither a choice
 * (enum, const), nor a format (uuid, date-time…), nor a short code (at most 100 characters).
 * Free text (a refund's reason, transfer hours typed by an agent) may name or describe a person.
 */
function freeTextFields(schema: StringSchema, at = ''): string[] {
  const found: string[] = [];
  const isFreeText = (s: StringSchema) =>
    (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) &&
    s.enum === undefined && s.const === undefined && s.format === undefined && s.pattern === undefined &&
    (s.maxLength === undefined || s.maxLength > 100);
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = at ? `${at}.${name}` : name;
    if (isFreeText(child as StringSchema)) found.push(path);
    found.push(...freeTextFields(child as StringSchema, path));
  }
  const nested = [
    ...(Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : []),
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ];
  for (const child of nested) {
    if (isFreeText(child as StringSchema)) found.push(`${at}[]`);
    found.push(...freeTextFields(child as StringSchema, `${at}[]`));
  }
  return found;
}

/** Strings the schema leaves open that are still no one's words: each says what writes them. */
const NOT_FREE_TEXT = new Map<string, string>([
  ['brand', 'WarmLine or RingCloud, set by the funnel'],
  ['role', "the survey's fixed choices"],
  ['leadType', "the survey's fixed choices"],
  ['tier[]', "the pricing table's tiers"],
  ['liveTransferPrice', 'a decimal amount as text'],
  ['description', 'composed by orders from the package bought (e.g. "60 Premium leads"), no one types it'],
  ['paymentIntentId', "the provider's id"],
  ['failureCode', "the provider's code"],
  ['failureMessage', "the provider's fixed sentence for the buyer (e.g. 'Your card was declined.')"],
  ['refundKey', 'an idempotency key the asking service made'],
]);

describe('thin events', () => {
  const versions = Object.entries(events).flatMap(([type, byVersion]) =>
    Object.entries(byVersion as Record<string, z.ZodType>).map(([version, schema]) => ({ id: `${type} v${version}`, schema })),
  );

  it.each(versions)('when $id is published, then it carries no name, e-mail, username or phone', ({ schema }) => {
    expect(personalFieldsOf(schema)).toEqual([]);
  });

  // Issue 25: free text stays in the owning service's tables (and in commands to the one that needs it).
  it.each(versions)('when $id is published, then it carries no free text', ({ schema }) => {
    expect(freeTextFields(z.toJSONSchema(schema, { io: 'output' }) as StringSchema).filter((path) => !NOT_FREE_TEXT.has(path))).toEqual([]);
  });

  it('when an event schema holds free text, also optional or in a list, then the check finds it', () => {
    const formerRefund = z.object({ orderId: z.uuid(), reason: z.string().min(1).max(500), notes: z.array(z.string()).optional(), currency: z.literal('usd') });
    expect(freeTextFields(z.toJSONSchema(formerRefund, { io: 'output' }) as StringSchema)).toEqual(['reason', 'notes[]']);
  });

  it('when an event schema holds a personal field, also optional, nested or in a list, then the check finds it', () => {
    // The shapes events had before issue 10: what this test exists to keep out.
    const formerTransferOrderPaid = z.object({
      orderId: z.uuid(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.email(),
      phone: z.string(),
      transferNumber: z.string(),
    });
    expect(personalFieldsOf(formerTransferOrderPaid)).toEqual(['firstName', 'lastName', 'email', 'phone', 'transferNumber']);
    expect(personalFieldsOf(z.object({ orderId: z.uuid(), billingEmail: z.email().optional() }))).toEqual(['billingEmail']);
    expect(personalFieldsOf(z.object({ userId: z.uuid(), username: z.string(), salesperson: z.string() }))).toEqual([
      'username',
      'salesperson',
    ]);
    expect(
      personalFieldsOf(z.object({ buyer: z.object({ contactPhone: z.string() }), leads: z.array(z.object({ fullName: z.string() })) })),
    ).toEqual(['buyer.contactPhone', 'leads[].fullName']);
    expect(personalFieldsOf(z.object({ buyerUserId: z.uuid(), salespersonId: z.uuid(), hasBillingEmail: z.boolean() }))).toEqual([]);
  });
});
