import type { z } from 'zod';
import { AppError } from '../errors';

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
