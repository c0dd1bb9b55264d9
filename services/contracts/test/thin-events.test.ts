import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { events } from '../src/messages';

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

describe('thin events', () => {
  const versions = Object.entries(events).flatMap(([type, byVersion]) =>
    Object.entries(byVersion as Record<string, z.ZodType>).map(([version, schema]) => ({ id: `${type} v${version}`, schema })),
  );

  it.each(versions)('when $id is published, then it carries no name, e-mail, username or phone', ({ schema }) => {
    expect(personalFieldsOf(schema)).toEqual([]);
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
