import { formatUsd } from '@warmline/contracts/pricing';

/**
 * The Refund dialog's amount (issue 12): dollars with at most two decimals, from $0.01 to what is
 * left. The whole of what is left is sent without `amountCents`, as the server reads "everything".
 */
export type RefundAmount = { ok: true; amountCents: number | undefined } | { ok: false; error: string };

export function parseRefundAmount(text: string, leftCents: number): RefundAmount {
  const error = `Enter an amount from $0.01 to ${formatUsd(leftCents)}`;
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned) && !/^\.\d{1,2}$/.test(cleaned)) return { ok: false, error };
  const [whole = '0', fraction = ''] = cleaned.split('.');
  // Whole cents from the digits, never through a float: '19.99' is 1999, not 1998.9999.
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (cents <= 0 || cents > leftCents) return { ok: false, error };
  return { ok: true, amountCents: cents === leftCents ? undefined : cents };
}
