import { formatUsd } from '@warmline/contracts/pricing';

/** '$40' for whole dollars, '$37.50' otherwise: how rates are advertised on the pricing pages. */
export function formatRate(cents: number): string {
  return cents % 100 === 0 ? `$${(cents / 100).toLocaleString('en-US')}` : formatUsd(cents);
}
