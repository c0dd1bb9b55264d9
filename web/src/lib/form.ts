import { useState, type FormEvent } from 'react';
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

/**
 * A submitted form checked with a contracts schema: its messages shown and the cursor in the
 * first field with one, or the messages cleared and the parsed values handed to `onValid`.
 */
export function submitValid<T, V>(
  event: FormEvent<HTMLFormElement>,
  schema: ZodType<T>,
  values: V,
  setErrors: (errors: FieldErrors<V>) => void,
  onValid: (data: T) => void,
): void {
  event.preventDefault();
  const result = validate(schema, values);
  if (!result.ok) {
    // The messages are keyed by the names of the values checked, the form's own.
    setErrors(result.errors as unknown as FieldErrors<V>);
    focusFirstError(event.currentTarget, result.errors);
    return;
  }
  setErrors({});
  onValid(result.data);
}

/** The names of a form's text values (what an input or a select edits). */
export type TextKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

/**
 * The props that tie a TextField, PasswordField or SelectField to one text value of a form:
 * its name, value, change and message.
 */
export function textFieldBinder<V>(values: V, errors: FieldErrors<V>, setValue: (field: TextKeys<V>, value: string) => void) {
  return (name: TextKeys<V>) => ({
    name,
    value: values[name] as string,
    onChange: (event: { target: { value: string } }) => setValue(name, event.target.value),
    error: errors[name],
  });
}

/**
 * A form's values and messages: `setValue` changes one value and clears its message, `field`
 * gives a text field its props, `handleSubmit` checks the values with a contracts schema first.
 */
export function useForm<V extends object>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors<V>>({});

  const setValue = <K extends keyof V & string>(field: K, value: V[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  const field = textFieldBinder(values, errors, (name, value) => setValue(name, value as V[typeof name]));

  const handleSubmit =
    <T>(schema: ZodType<T>, onValid: (data: T) => void) =>
    (event: FormEvent<HTMLFormElement>) =>
      submitValid(event, schema, values, setErrors, onValid);

  return { values, setValues, errors, setErrors, setValue, field, handleSubmit };
}
