/** '5125550143' → '(512) 555-0143'; anything else as it came (US numbers are stored as 10 digits). */
export function usPhoneText(digits: string): string {
  return /^\d{10}$/.test(digits) ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : digits;
}
