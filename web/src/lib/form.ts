import type { ZodType } from 'zod';

/** Field name → first message, from a contracts schema (the spec's own words). */
export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export type Validation<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors<T> };

export function validate<T>(schema: ZodType<T>, values: unknown): Validation<T> {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '');
    if (!(key in errors)) errors[key] = issue.message;
  }
  return { ok: false, errors: errors as FieldErrors<T> };
}

/** Moves focus to the first field with an error, so keyboard and screen reader users land on it. */
export function focusFirstError(form: HTMLFormElement, errors: Record<string, string | undefined>): void {
  const first = Object.keys(errors).find((name) => errors[name]);
  if (!first) return;
  const field = form.elements.namedItem(first);
  if (field instanceof HTMLElement) field.focus();
}
