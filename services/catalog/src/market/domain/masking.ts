/**
 * What a buyer sees of a lead before buying it (spec §9): enough to choose, not enough to
 * call. Full contact details never leave the server for a lead the buyer has not bought.
 */

/**
 * 'John Smith' → 'John SmiXX'. The first word whole; the last word's first 3 characters and
 * an X for each character after them (a last word of 3 or fewer characters is shown as is).
 * Middle names are left out: they would only help identify the person. A one-word name is
 * shown as it is, like any first word.
 */
export function maskName(fullName: string): string {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0] as string;
  if (words.length === 1) return first;
  const last = [...(words[words.length - 1] as string)]; // by code point, so 'Zoë' counts 3
  const shown = last.length <= 3 ? last.join('') : `${last.slice(0, 3).join('')}${'X'.repeat(last.length - 3)}`;
  return `${first} ${shown}`;
}

/** '5125550134' → '(512) XXX-XXXX': the area code only. */
export function maskPhone(phoneDigits: string): string {
  return `(${phoneDigits.slice(0, 3)}) XXX-XXXX`;
}

/** '5125550134' → '(512) 555-0134', for the buyer's own leads. */
export { formatUsPhone as formatPhone } from '@warmline/contracts/us-phone';
