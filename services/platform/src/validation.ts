import type { z } from 'zod';
import { AppError } from './errors';

interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * Parses untrusted input with a contracts schema. On failure throws a 400 whose `error` is
 * the first issue's message (the spec's wording) and whose `issues` lists every problem.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issues: ValidationIssue[] = result.error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  throw new AppError('ValidationFailed', issues[0]?.message ?? 'Invalid request', 400, { issues });
}

export const NUL_CHARACTER_MESSAGE = 'Text must not contain NUL characters';
export const INVALID_UNICODE_MESSAGE = 'Text must be valid Unicode';

/** A UTF-16 surrogate without its pair: JSON can carry one ('\ud800'), UTF-8 and PostgreSQL cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with text PostgreSQL cannot store (NUL, a lone surrogate) anywhere in the value,
 * keys included, or undefined. Walks the value without recursion (a body may nest thousands deep).
 */
export function unstorableText(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return NUL_CHARACTER_MESSAGE;
      if (LONE_SURROGATE.test(next)) return INVALID_UNICODE_MESSAGE;
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (typeof next === 'object' && next !== null) {
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
  return undefined;
}
