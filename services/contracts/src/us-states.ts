/**
 * The US states, DC and Puerto Rico: their codes and names, in one place for every context that
 * names a state (the market, transfers, imports, calling hours, the SPA).
 */

/** Where leads come from (state codes are stored upper-case). */
export const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'PR', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
export type UsStateCode = (typeof US_STATE_CODES)[number];

/** Each state's name as people write it. */
const US_STATE_NAMES: Record<UsStateCode, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas',
  KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts',
  MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma',
  OR: 'Oregon', PA: 'Pennsylvania', PR: 'Puerto Rico', RI: 'Rhode Island', SC: 'South Carolina',
  SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia',
  WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

/** The states an agent can take transfers in, alphabetical by name (the multi-select's options). */
export const US_STATES: ReadonlyArray<{ code: UsStateCode; name: string }> = US_STATE_CODES.map((code) => ({
  code,
  name: US_STATE_NAMES[code],
})).sort((a, b) => a.name.localeCompare(b.name));

export function stateName(code: string): string {
  return US_STATE_NAMES[code as UsStateCode] ?? code;
}

/** 'TX', 'tx', 'TEXAS', 'new  york' → the code (keys upper-case, single-spaced). */
const STATE_OF_TEXT = new Map<string, UsStateCode>(
  US_STATE_CODES.flatMap((code) => [
    [code, code],
    [US_STATE_NAMES[code].toUpperCase(), code],
  ]),
);

/**
 * One state as someone typed it: a 2-letter code or the state's name, in any case ('tx', 'Texas',
 * ' new  york '); null when it is neither (a vendor's free text, an import's cell).
 */
export function usStateOfText(text: string | null | undefined): UsStateCode | null {
  if (!text) return null;
  return STATE_OF_TEXT.get(text.trim().replace(/\s+/g, ' ').toUpperCase()) ?? null;
}
