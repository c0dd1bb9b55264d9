import { CALLBACK_SOURCES, type CallbackSource } from '@warmline/contracts/callbacks';

/** How call-backs read on screen, in the admin tab and the dashboard alike (issue 15). */


/** A tel: link for 10 US digits (the +1 lets a phone dial it from anywhere). */
export function telHref(digits: string): string {
  const bare = digits.replace(/\D/g, '');
  return `tel:${bare.length === 10 ? `+1${bare}` : bare}`;
}

export const SOURCE_LABEL: Record<CallbackSource, string> = { vendor: 'Vendor', csv: 'CSV upload', manual: 'Manual' };
export const isSource = (value: string): value is CallbackSource => (CALLBACK_SOURCES as readonly string[]).includes(value);

/** 'callback_requested' → 'Callback requested'. */
export function outcomeText(outcome: string): string {
  const words = outcome.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : outcome;
}
