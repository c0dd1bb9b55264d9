/**
 * A US phone number, one way everywhere (issue 26): what a vendor, an import row, an admin's
 * form, a registry file or an agent's settings send is read to its ten digits by one rule, and
 * shown by one format.
 */

/** Spaces, brackets, dots, dashes (hyphen to em dash), slashes and the + of +1. */
const PHONE_PUNCTUATION = /[\s().\-\u2010-\u2015/+]/g;
/** Ten digits whose area code does not start with 0 or 1 (as stored everywhere). */
export const US_PHONE_DIGITS = /^[2-9]\d{9}$/;

/**
 * '+1 (512) 555-0143', '512.555.0143', '1-512-555-0143' → '5125550143'; null when no US number
 * remains (letters, too few or too many digits, an area code starting with 0 or 1).
 */
export function usPhoneDigits(text: string): string | null {
  let digits = text.replace(PHONE_PUNCTUATION, '');
  // The country code of +1 512 555 0143 / 1-512-555-0143.
  if (digits.length === 11 && digits.charCodeAt(0) === 49 /* '1' */) digits = digits.slice(1);
  return US_PHONE_DIGITS.test(digits) ? digits : null;
}

/**
 * A number a call can be put through to: a US phone whose exchange does not start with 0 or 1
 * either (an agent's transfer phone; stock is kept as the vendors and lists give it).
 */
export function diallableUsPhone(text: string): string | null {
  const digits = usPhoneDigits(text);
  return digits !== null && digits.charCodeAt(3) >= 50 /* '2' */ ? digits : null;
}

/** The area code of a phone, with or without punctuation or a leading 1. */
export function areaCodeOf(phone: string): string {
  return phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '').slice(0, 3);
}

/** '5125550134' → '(512) 555-0134': a whole US number as people read it (anything else as it is). */
export function formatUsPhone(phoneDigits: string): string {
  if (!/^\d{10}$/.test(phoneDigits)) return phoneDigits;
  return `(${phoneDigits.slice(0, 3)}) ${phoneDigits.slice(3, 6)}-${phoneDigits.slice(6)}`;
}
