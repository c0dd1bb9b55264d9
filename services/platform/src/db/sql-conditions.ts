/**
 * A WHERE clause built from a screen's optional filters (All Orders, the audit log): each
 * condition is written with `?` for its values, which become $1, $2, … in the order added, so a
 * filter never splices text into SQL.
 */
export class SqlConditions {
  readonly params: unknown[] = [];
  private readonly conditions: string[] = [];

  add(sql: string, ...values: unknown[]): void {
    let text = sql;
    for (const value of values) {
      this.params.push(value);
      text = text.replace('?', `$${this.params.length}`);
    }
    this.conditions.push(text);
  }

  /** ' WHERE a AND b', or '' when no filter was given. */
  get where(): string {
    return this.conditions.length > 0 ? ` WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/** An ILIKE pattern that finds `text` anywhere in a value, taken literally (a typed % or _ is no wildcard). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
