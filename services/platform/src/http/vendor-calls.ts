import express, { type Request, type Response } from 'express';
import type { z } from 'zod';
import { WEBHOOK_FAILED_MESSAGE, WEBHOOK_INVALID_JSON_MESSAGE, WEBHOOK_MISSING_FIELDS_MESSAGE, type WebhookRefusal } from '@warmline/contracts';
import { AppError } from '../errors';
import { asUnavailable, RETRY_AFTER_SECONDS } from '../faults';
import { unstorableText } from '../validation';
import { BODY_TOO_LARGE_MESSAGE, bodyLimitFor } from './body-limits';

/**
 * What every voice-AI vendor call shares (the call-back webhook in ingestion, the transfer route
 * and outcome in transfers): the answer in the webhook's shape (`{ success, message, … }`, never
 * the kit's `{ error }`), never cached; the body read as one JSON object whatever its Content-Type;
 * and failures said in that shape, a dependency away as 503 with Retry-After.
 */

/** An answer to a vendor: it names a prospect's call, so no cache keeps it. */
export function answerVendor<A extends { success: boolean }>(res: Response, status: number, body: A): void {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json(body);
}

/** 400 in the webhook's shape: every field named once, with what is wrong with it. */
export function fieldRefusal(issues: ReadonlyArray<{ field: string; message: string }>): WebhookRefusal {
  const errors: Array<{ field: string; message: string }> = [];
  for (const issue of issues) if (!errors.some((e) => e.field === issue.field)) errors.push(issue);
  return { success: false, message: WEBHOOK_MISSING_FIELDS_MESSAGE, fields: errors.map((e) => e.field), errors };
}

/** A body that breaks the route's schema, each field with its problem ('call_id is required'). */
export function schemaRefusal(error: z.ZodError): WebhookRefusal {
  return fieldRefusal(
    error.issues.map((issue) => {
      const field = issue.path.length > 0 ? issue.path.map(String).join('.') : 'body';
      const missing = issue.code === 'invalid_type' && issue.input === undefined;
      return { field, message: missing ? `${field} is required` : issue.message };
    }),
  );
}

/**
 * The body as one JSON object, or 'answered' once the vendor has been told why not: 413 over the
 * route's limit, 400 'Invalid JSON body' for anything but one object (malformed, form-encoded,
 * empty, a list), 400 naming a field whose text PostgreSQL cannot store.
 */
export function readVendorObject(req: Request, res: Response): Promise<Record<string, unknown> | 'answered'> {
  const parse = rawParser(bodyLimitFor(req.method, req.path));
  return new Promise((resolve) => {
    parse(req, res, (err?: unknown) => {
      if (err) {
        if ((err as { type?: string }).type === 'entity.too.large') answerVendor(res, 413, { success: false, message: BODY_TOO_LARGE_MESSAGE });
        else answerVendor(res, 400, { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
        return resolve('answered');
      }
      let body: unknown;
      try {
        body = JSON.parse((Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).toString('utf8'));
      } catch {
        body = undefined;
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        answerVendor(res, 400, { success: false, message: WEBHOOK_INVALID_JSON_MESSAGE });
        return resolve('answered');
      }
      const unstorable = Object.entries(body).find(([, v]) => typeof v === 'string' && unstorableText(v) !== undefined);
      if (unstorable) {
        answerVendor(res, 400, fieldRefusal([{ field: unstorable[0], message: `${unstorable[0]} must be valid text without NUL characters` }]));
        return resolve('answered');
      }
      resolve(body as Record<string, unknown>);
    });
  });
}

/** One raw-body parser per limit, made once (making one is dearer than reading a small body). */
const rawParsers = new Map<number, ReturnType<typeof express.raw>>();
function rawParser(limit: number): ReturnType<typeof express.raw> {
  let parser = rawParsers.get(limit);
  if (!parser) {
    parser = express.raw({ type: () => true, limit });
    rawParsers.set(limit, parser);
  }
  return parser;
}

/**
 * A vendor call that failed, answered in the webhook's shape: a refusal the domain made (4xx) as
 * it is; a dependency away as 503 with Retry-After (nothing was stored: the vendor retries the
 * same call); anything else 500 and logged. After the answer went out, only logged.
 */
export function answerVendorFailure(err: unknown, req: Request, res: Response, what: string): void {
  if (res.headersSent) {
    req.log.error({ err }, `${what} failed after answering`);
    return;
  }
  if (err instanceof AppError && err.status < 500) return answerVendor(res, err.status, { success: false, message: err.message });
  if (asUnavailable(err)) {
    req.log.warn({ err }, `${what}: a dependency is unavailable; answered 503`);
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    return answerVendor(res, 503, { success: false, message: WEBHOOK_FAILED_MESSAGE });
  }
  req.log.error({ err }, `${what} failed`);
  answerVendor(res, 500, { success: false, message: WEBHOOK_FAILED_MESSAGE });
}
