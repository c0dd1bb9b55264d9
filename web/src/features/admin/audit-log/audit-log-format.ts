/** How the audit log words its entries (issue 12): plain words for codes, before → after per value. */

/** 'user.price_changed' → 'User price changed'; 'transfer_order.status' → 'Transfer order status'. */
export function describeAction(action: string): string {
  const words = action.replace(/[._-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : action;
}

/** 'liveTransferPrice' → 'live transfer price'; 'refunded_cents' → 'refunded cents'. */
function describeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value || '""';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export interface ValueChange {
  key: string;
  label: string;
  before: string | null;
  after: string | null;
}

/**
 * One line per value that the action touched, in the order the entry names them: what it was
 * before and what it became (null when the action created or removed it). A value that did not
 * change is still listed when only one side names it.
 */
export function describeChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): ValueChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys.map((key) => ({
    key,
    label: describeKey(key),
    before: before && key in before ? describeValue(before[key]) : null,
    after: after && key in after ? describeValue(after[key]) : null,
  }));
}
