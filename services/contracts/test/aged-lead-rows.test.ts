import { describe, expect, it } from 'vitest';
import {
  LEAD_DUPLICATE_MESSAGE,
  LEAD_SUPPRESSED_MESSAGE,
  agedLeadInput,
  bulkAgedLeadsBody,
  leadDuplicateKey,
  leadRowRules,
  normaliseUsPhone,
  rowProblems,
  type ImportedLead,
  type LeadRowCells,
} from '../src/index';

/**
 * The row rules of the aged-lead import and of the admin's JSON lead API (issue 13): each cell's rule with its exact message, normalisation, the business time zone
 * (America/Chicago) across DST, the 180-day edge and the duplicate key.
 */

const DAY_MS = 86_400_000;
const ZONE = 'America/Chicago';
/** Wednesday 25 November 2026, noon in Chicago (CST, UTC−6). */
const NOW = new Date('2026-11-25T18:00:00.000Z');

const rulesAt = (now: Date, timeZone = ZONE) => leadRowRules({ now, timeZone, defaultSource: 'import:october.csv' });
const rules = rulesAt(NOW);

const goodRow = {
  name: 'Jane Smith',
  phone: '(512) 555-0143',
  state: 'TX',
  formFillTime: '2026-10-01T14:30:00-05:00',
} satisfies LeadRowCells;

/** The lead a row becomes, or the problems it has as `Column: message`. */
function read(cells: LeadRowCells, rowRules = rules): ImportedLead | string[] {
  const parsed = rowRules.safeParse(cells);
  return parsed.success ? parsed.data : rowProblems(parsed.error).map((p) => `${p.column}: ${p.message}`);
}

/** One field of the good row changed: its normalised value, or the problems. */
function field<K extends keyof ImportedLead>(key: K, value: string | undefined, rowRules = rules): ImportedLead[K] | string[] {
  const result = read({ ...goodRow, [key]: value }, rowRules);
  return Array.isArray(result) ? result : result[key];
}

describe('a lead row', () => {
  it('when only the required cells are filled, then the optional fields are null and the source is the default', () => {
    expect(read(goodRow)).toEqual({
      name: 'Jane Smith',
      phone: '5125550143',
      email: null,
      state: 'TX',
      zip: null,
      formFillTime: new Date('2026-10-01T19:30:00.000Z'),
      source: 'import:october.csv',
      consentCertificate: null,
      consentTime: null,
      consentIp: null,
    });
  });
});

/* ------------------------------------------------------------------- cells ---------- */

describe('Name', () => {
  it('when a name has outer and inner runs of spaces, then it is trimmed to single spaces', () => {
    expect(field('name', ' \tMary  Ann\u00a0 Lee ')).toBe('Mary Ann Lee');
  });

  it.each([
    [undefined, 'Name: Name is required'],
    ['', 'Name: Name is required'],
    ['   ', 'Name: Name is required'],
    ['x'.repeat(201), 'Name: Name must be at most 200 characters'],
  ])('when the name is %j, then the row is refused', (name, problem) => {
    expect(field('name', name)).toEqual([problem]);
  });

  it('when the name is 200 characters, then it passes', () => {
    expect(field('name', 'x'.repeat(200))).toBe('x'.repeat(200));
  });
});

describe('Phone', () => {
  it.each(['(512) 555-0143', '512-555-0143', '512.555.0143', '512 555 0143', '5125550143', '+1 512 555 0143', '1-512-555-0143', '15125550143', '+1 (512) 555\u20130143', '512/555-0143'])(
    "when the phone is '%s', then it is stored as 10 digits",
    (phone) => {
      expect(field('phone', phone)).toBe('5125550143');
    },
  );

  it.each(['555-01', '0125550143', '1125550143', '25125550143', '(512) 555-014', '512555014x', '512-555-0143 ext 2', '+44 20 7946 0958', '1 (112) 555-0143', '+1+1 512 555 0143x'])(
    "when the phone is '%s', then the row is refused",
    (phone) => {
      expect(field('phone', phone)).toEqual(['Phone: Phone must be 10 digits with the area code, e.g. (512) 555-0143']);
    },
  );

  it('when the phone is empty, then it is required', () => {
    expect(field('phone', ' ')).toEqual(['Phone: Phone is required']);
  });

  // Issue 22: stock is sold by state; these codes name none (toll-free, non-geographic, unassigned).
  it.each(['300', '400', '500', '600', '700', '800', '888', '900'])("when the area code is %s, then the row is refused saying so", (code) => {
    expect(field('phone', `(${code}) 555-0143`)).toEqual([`Phone: Area code ${code} is not a US geographic area code (toll-free and non-geographic numbers are refused)`]);
  });

  it('when a number that opted out is toll-free, then the suppression list still reads it (the format only)', () => {
    expect(normaliseUsPhone('(800) 555-0143')).toBe('8005550143');
  });
});

describe('State', () => {
  it.each([
    ['TX', 'TX'],
    ['tx', 'TX'],
    [' Tx ', 'TX'],
    ['Texas', 'TX'],
    ['TEXAS', 'TX'],
    ['new york', 'NY'],
    ['New  York', 'NY'],
    ['District of Columbia', 'DC'],
    ['dc', 'DC'],
    ['Puerto Rico', 'PR'],
    ['west virginia', 'WV'],
  ])("when the state is '%s', then it is stored as %s", (state, code) => {
    expect(field('state', state)).toBe(code);
  });

  it.each(['Atlantis', 'XX', 'Tex', 'T X', 'Texas, USA', 'GU'])("when the state is '%s', then the row is refused", (state) => {
    expect(field('state', state)).toEqual(['State: State must be a US state code or name']);
  });

  it('when the state is empty, then it is required', () => {
    expect(field('state', '')).toEqual(['State: State is required']);
  });
});

describe('Email', () => {
  it('when the e-mail is empty or absent, then it is null', () => {
    expect(field('email', '')).toBeNull();
    expect(field('email', '  ')).toBeNull();
    expect(field('email', undefined)).toBeNull();
  });

  it('when the e-mail is valid, then it is stored lower-case', () => {
    expect(field('email', ' Jane.Smith+Leads@Example.COM ')).toBe('jane.smith+leads@example.com');
  });

  it('when the e-mail is 254 characters, then it passes; at 255 it is refused', () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(at254).toHaveLength(254);
    expect(field('email', at254)).toBe(at254);
    expect(field('email', at254.replace('@', 'a@'))).toEqual(['Email: Email must be a valid e-mail address']);
  });

  it.each(['not-an-email', 'jane@', '@example.com', 'jane smith@example.com', 'jane@example', 'jane@@example.com'])(
    "when the e-mail is '%s', then the row is refused",
    (email) => {
      expect(field('email', email)).toEqual(['Email: Email must be a valid e-mail address']);
    },
  );
});

describe('Zip', () => {
  it.each([
    ['', null],
    ['78701', '78701'],
    [' 02134 ', '02134'],
    ['78701-1234', '78701'],
  ])("when the zip is '%s', then it is stored as %j", (zip, stored) => {
    expect(field('zip', zip)).toBe(stored);
  });

  it.each(['7870', '787011', 'ABCDE', '78701-12', '78701 1234', '787011234'])("when the zip is '%s', then the row is refused", (zip) => {
    expect(field('zip', zip)).toEqual(['Zip: Zip must be 5 digits']);
  });
});

describe('Source', () => {
  it('when the source is empty, then it is the default (the import file); otherwise the trimmed text', () => {
    expect(field('source', '')).toBe('import:october.csv');
    expect(field('source', undefined)).toBe('import:october.csv');
    expect(field('source', ' Facebook ')).toBe('Facebook');
    expect(field('source', 's'.repeat(200))).toBe('s'.repeat(200));
  });

  it('when the source is over 200 characters, then the row is refused', () => {
    expect(field('source', 's'.repeat(201))).toEqual(['Source: Source must be at most 200 characters']);
  });
});

describe('Consent Certificate', () => {
  it('when empty, then null; up to 500 characters kept; over 500 refused', () => {
    expect(field('consentCertificate', '')).toBeNull();
    expect(field('consentCertificate', ' 3f2a9c1e-jornaya-id ')).toBe('3f2a9c1e-jornaya-id');
    const url = `https://cert.trustedform.com/${'a'.repeat(471)}`;
    expect(url).toHaveLength(500);
    expect(field('consentCertificate', url)).toBe(url);
    expect(field('consentCertificate', `${url}b`)).toEqual(['Consent Certificate: Consent Certificate must be at most 500 characters']);
  });
});

describe('Consent IP', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['2001:db8::1', '2001:db8::1'],
    ['2001:DB8::1', '2001:db8::1'],
    ['::1', '::1'],
    ['::', '::'],
    ['fe80::1:2', 'fe80::1:2'],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:0db8:0000:0000:0000:ff00:0042:8329'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7::'],
    ['::2:3:4:5:6:7:8', '::2:3:4:5:6:7:8'],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.7'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:1.2.3.4'],
    ['', null],
  ])("when the consent IP is '%s', then it is stored as %j", (ip, stored) => {
    expect(field('consentIp', ip)).toBe(stored);
  });

  it.each([
    '256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.4/32', '1.2.3.-4', 'localhost',
    '2001:db8:::1', '1::2::3', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7:8::', 'fe80::1%eth0', '12345::1', 'g::1',
    '::ffff:256.1.1.1', '1:2:3:4:5:6:7:1.2.3.4', ':1:2:3:4:5:6:7', '2001:db8::/32',
  ])("when the consent IP is '%s', then the row is refused", (ip) => {
    expect(field('consentIp', ip)).toEqual(['Consent IP: Consent IP must be an IPv4 or IPv6 address']);
  });
});

/* ------------------------------------------------------------------- dates ---------- */

describe('Form Fill Time: the accepted forms', () => {
  it.each([
    // With an offset or Z: the instant as written.
    ['2026-10-01T14:30:00-05:00', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01T14:30:00-0500', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01T14:30:00-05', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01T19:30:00Z', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01T19:30:00.250Z', '2026-10-01T19:30:00.250Z'],
    ['2026-10-01T19:30:00.123456z', '2026-10-01T19:30:00.123Z'],
    ['2026-10-02T01:00:00+05:30', '2026-10-01T19:30:00.000Z'],
    // Without an offset: read in the business zone (CDT in October, CST after 1 November).
    ['2026-10-01T14:30', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01 14:30:00', '2026-10-01T19:30:00.000Z'],
    ['2026-10-01', '2026-10-01T05:00:00.000Z'],
    ['2026-11-20T14:30:00', '2026-11-20T20:30:00.000Z'],
    ['10/1/2026 2:30 PM', '2026-10-01T19:30:00.000Z'],
    ['10/01/2026 02:30 pm', '2026-10-01T19:30:00.000Z'],
    ['10/1/2026 2:30PM', '2026-10-01T19:30:00.000Z'],
    ['10/1/2026 2:30:15 PM', '2026-10-01T19:30:15.000Z'],
    ['10/1/2026 14:30', '2026-10-01T19:30:00.000Z'],
    ['10/1/2026 0:05', '2026-10-01T05:05:00.000Z'],
    ['10/1/2026 12:05 AM', '2026-10-01T05:05:00.000Z'],
    ['10/1/2026 12:05 PM', '2026-10-01T17:05:00.000Z'],
    ['10/1/2026', '2026-10-01T05:00:00.000Z'],
    ['11/20/2026 2:30 PM', '2026-11-20T20:30:00.000Z'],
  ])("when the form-fill time is '%s', then it is %s", (text, iso) => {
    expect(field('formFillTime', text)).toEqual(new Date(iso));
  });

  it.each([
    'yesterday-ish', 'never', '2026-02-30', '2026-13-01', '2026-10-01T24:00', '2026-10-01T14:60', '2026-10-01T14:30:00+25:00',
    '13/1/2026', '2/29/2026', '10/32/2026', '10/1/26', '10/1/2026 13:30 PM', '10/1/2026 0:30 AM', '10/1/2026 24:00', '10/1/2026 2:30 XM',
    '2026/10/01', '1 Oct 2026', '1899-12-31', '2026-10-01T14:30:00 CDT',
  ])("when the form-fill time is '%s', then the row is refused", (text) => {
    expect(field('formFillTime', text)).toEqual(['Form Fill Time: Form Fill Time must be a date such as 2026-07-01T14:30:00-05:00 or 7/1/2026 2:30 PM']);
  });

  it('when the form-fill time is empty, then it is required', () => {
    expect(field('formFillTime', '')).toEqual(['Form Fill Time: Form Fill Time is required']);
  });
});

describe('Form Fill Time: age and the future', () => {
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

  it('when the lead is exactly 180 days old, or a moment short of 181, then it passes', () => {
    expect(field('formFillTime', ago(180 * DAY_MS))).toEqual(new Date(ago(180 * DAY_MS)));
    expect(field('formFillTime', ago(181 * DAY_MS - 1))).toEqual(new Date(ago(181 * DAY_MS - 1)));
  });

  it('when the lead is 181 days old, then it is refused as too old', () => {
    expect(field('formFillTime', ago(181 * DAY_MS))).toEqual(['Form Fill Time: Lead is older than 180 days']);
    expect(field('formFillTime', ago(400 * DAY_MS))).toEqual(['Form Fill Time: Lead is older than 180 days']);
  });

  it('when the lead is younger than 30 days, then it passes (stored now, listed later)', () => {
    expect(field('formFillTime', ago(DAY_MS))).toEqual(new Date(ago(DAY_MS)));
    expect(field('formFillTime', ago(0))).toEqual(NOW);
  });

  it('when the form-fill time is after now, then it is in the future', () => {
    expect(field('formFillTime', ago(-1000))).toEqual(['Form Fill Time: Form Fill Time is in the future']);
    // Today's date only is midnight this morning, not the future; tomorrow's is.
    expect(field('formFillTime', '11/25/2026')).toEqual(new Date('2026-11-25T06:00:00.000Z'));
    expect(field('formFillTime', '11/26/2026')).toEqual(['Form Fill Time: Form Fill Time is in the future']);
  });
});

describe('times without an offset across DST in America/Chicago', () => {
  const spring = rulesAt(new Date('2026-04-01T17:00:00.000Z'));

  it('when clocks go forward (3/8/2026), then times either side of the gap keep their own offsets', () => {
    expect(field('formFillTime', '3/8/2026 1:30 AM', spring)).toEqual(new Date('2026-03-08T07:30:00.000Z')); // CST
    expect(field('formFillTime', '3/8/2026 3:30 AM', spring)).toEqual(new Date('2026-03-08T08:30:00.000Z')); // CDT
  });

  it('when the time is in the skipped hour (3/8/2026 2:30 AM does not exist), then it is read on the offset before the gap: 3:30 AM CDT', () => {
    expect(field('formFillTime', '3/8/2026 2:30 AM', spring)).toEqual(new Date('2026-03-08T08:30:00.000Z'));
    expect(field('formFillTime', '2026-03-08T02:00:00', spring)).toEqual(new Date('2026-03-08T08:00:00.000Z'));
  });

  it('when the time is in the repeated hour (11/1/2026 1:30 AM happens twice), then it is the first, still on CDT', () => {
    expect(field('formFillTime', '11/1/2026 1:30 AM')).toEqual(new Date('2026-11-01T06:30:00.000Z'));
    expect(field('formFillTime', '2026-11-01T01:00')).toEqual(new Date('2026-11-01T06:00:00.000Z'));
  });

  it('when the time is either side of the repeated hour, then each has its own offset', () => {
    expect(field('formFillTime', '11/1/2026 12:30 AM')).toEqual(new Date('2026-11-01T05:30:00.000Z')); // CDT
    expect(field('formFillTime', '11/1/2026 2:30 AM')).toEqual(new Date('2026-11-01T08:30:00.000Z')); // CST
    expect(field('formFillTime', '10/31/2026 11:59 PM')).toEqual(new Date('2026-11-01T04:59:00.000Z'));
    expect(field('formFillTime', '11/2/2026 0:00')).toEqual(new Date('2026-11-02T06:00:00.000Z'));
  });

  it('when the business zone is another, then local times are read in it (a gap in London, a fixed +5:30 in Kolkata)', () => {
    const london = rulesAt(new Date('2026-04-01T12:00:00.000Z'), 'Europe/London');
    expect(field('formFillTime', '2026-03-29T01:30', london)).toEqual(new Date('2026-03-29T01:30:00.000Z'));
    expect(field('formFillTime', '3/29/2026 3:00 AM', london)).toEqual(new Date('2026-03-29T02:00:00.000Z'));
    const kolkata = rulesAt(NOW, 'Asia/Kolkata');
    expect(field('formFillTime', '10/1/2026 2:30 PM', kolkata)).toEqual(new Date('2026-10-01T09:00:00.000Z'));
  });

  it('when the time zone is not an IANA zone, then the rules are not made', () => {
    expect(() => rulesAt(NOW, 'Central Time')).toThrow(RangeError);
  });
});

describe('Consent Time', () => {
  it('when the consent time is empty, then null; otherwise read like the form-fill time', () => {
    expect(field('consentTime', '')).toBeNull();
    expect(field('consentTime', '10/1/2026 2:30 PM')).toEqual(new Date('2026-10-01T19:30:00.000Z'));
    expect(field('consentTime', '2026-10-01T19:30:00Z')).toEqual(new Date('2026-10-01T19:30:00.000Z'));
  });

  it('when the consent is older than 180 days, then it still passes (the age rule is the lead’s)', () => {
    expect(field('consentTime', '2/29/2024 9:00 AM')).toEqual(new Date('2024-02-29T15:00:00.000Z'));
    expect(field('consentTime', '3/8/2026 2:30 AM')).toEqual(new Date('2026-03-08T08:30:00.000Z'));
  });

  it('when the consent time is not a date or in the future, then the row is refused', () => {
    expect(field('consentTime', 'soon')).toEqual(['Consent Time: Consent Time must be a date such as 2026-07-01T14:30:00-05:00 or 7/1/2026 2:30 PM']);
    expect(field('consentTime', '12/1/2026 9:00 AM')).toEqual(['Consent Time: Consent Time is in the future']);
  });
});

/* ------------------------------------------------------------ row problems ---------- */

describe('the problems of a row', () => {
  it('when several cells are wrong, then each is reported on its column', () => {
    const parsed = rules.safeParse({ name: ' ', phone: '555-01', email: 'nope', state: 'Atlantis', formFillTime: 'later', consentIp: '1.2.3' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(rowProblems(parsed.error)).toEqual([
      { column: 'Name', message: 'Name is required' },
      { column: 'Phone', message: 'Phone must be 10 digits with the area code, e.g. (512) 555-0143' },
      { column: 'Email', message: 'Email must be a valid e-mail address' },
      { column: 'State', message: 'State must be a US state code or name' },
      { column: 'Form Fill Time', message: 'Form Fill Time must be a date such as 2026-07-01T14:30:00-05:00 or 7/1/2026 2:30 PM' },
      { column: 'Consent IP', message: 'Consent IP must be an IPv4 or IPv6 address' },
    ]);
  });

  it('when a JSON lead sends a number where text belongs, then the problem is on that column', () => {
    expect(read({ ...goodRow, phone: 5125550143 } as unknown as LeadRowCells)).toEqual(['Phone: Phone must be text']);
  });

  it('when a JSON lead sends null for an optional field, then it is empty', () => {
    expect(read({ ...goodRow, email: null, zip: null })).toMatchObject({ email: null, zip: null });
  });

  it('when a JSON lead carries the old ageRange and price, then they are accepted and dropped', () => {
    const lead = read({ ...goodRow, ageRange: '30-60', price: 2.5 } as LeadRowCells);
    expect(lead).not.toHaveProperty('ageRange');
    expect(lead).not.toHaveProperty('price');
    expect(lead).toMatchObject({ phone: '5125550143' });
  });

  it('when the input is not an object at all, then the problem goes on the row’s first column', () => {
    const parsed = rules.safeParse('Jane Smith,5125550143');
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(rowProblems(parsed.error).map((p) => p.column)).toEqual(['Name']);
  });

  it('names the suppression and duplicate refusals for the importer', () => {
    expect(LEAD_SUPPRESSED_MESSAGE).toBe('Phone is on the suppression list');
    expect(LEAD_DUPLICATE_MESSAGE).toBe('Same phone and form-fill day as a lead already in stock or earlier in the file');
  });
});

describe('the duplicate key', () => {
  const lead = (iso: string) => ({ phone: '5125550143', formFillTime: new Date(iso) });

  it('when two leads fall on either side of midnight in the business zone, then their days differ though the UTC day is the same', () => {
    expect(leadDuplicateKey(lead('2026-10-02T04:30:00Z'), ZONE)).toBe('5125550143|2026-10-01'); // 11:30 PM CDT
    expect(leadDuplicateKey(lead('2026-10-02T05:30:00Z'), ZONE)).toBe('5125550143|2026-10-02'); // 12:30 AM CDT
    expect(leadDuplicateKey(lead('2026-10-02T04:30:00Z'), 'UTC')).toBe('5125550143|2026-10-02');
    expect(leadDuplicateKey(lead('2026-10-02T05:30:00Z'), 'UTC')).toBe('5125550143|2026-10-02');
  });

  it('when two leads fall on the same business day at different hours, then they share a key', () => {
    expect(leadDuplicateKey(lead('2026-10-01T05:00:00Z'), ZONE)).toBe(leadDuplicateKey(lead('2026-10-02T04:59:59Z'), ZONE));
  });

  it('when the day is around a change of offset, then the business day still follows the zone', () => {
    expect(leadDuplicateKey(lead('2026-11-01T04:59:00Z'), ZONE)).toBe('5125550143|2026-10-31'); // 11:59 PM CDT
    expect(leadDuplicateKey(lead('2026-11-01T06:30:00Z'), ZONE)).toBe('5125550143|2026-11-01'); // 1:30 AM CDT
    expect(leadDuplicateKey(lead('2026-11-02T05:30:00Z'), ZONE)).toBe('5125550143|2026-11-01'); // 11:30 PM CST
    expect(leadDuplicateKey(lead('2026-11-02T06:00:00Z'), ZONE)).toBe('5125550143|2026-11-02'); // midnight CST
    expect(leadDuplicateKey(lead('2026-03-08T05:59:00Z'), ZONE)).toBe('5125550143|2026-03-07');
    expect(leadDuplicateKey(lead('2026-03-09T04:59:00Z'), ZONE)).toBe('5125550143|2026-03-08');
  });

  it('when a row is read and keyed, then the form-fill day is the one written in the file', () => {
    const a = read({ ...goodRow, formFillTime: '10/1/2026 11:45 PM' });
    const b = read({ ...goodRow, phone: '512-555-0143', formFillTime: '10/1/2026 12:15 AM' });
    if (Array.isArray(a) || Array.isArray(b)) throw new Error('rows refused');
    expect(leadDuplicateKey(a, ZONE)).toBe('5125550143|2026-10-01');
    expect(leadDuplicateKey(b, ZONE)).toBe(leadDuplicateKey(a, ZONE));
  });
});

/* ------------------------------------------------------------- the JSON API ---------- */

describe('the JSON lead API bodies', () => {
  it('when one lead is sent with the old keys, then the body is accepted and the catalog rules drop them', () => {
    const body = agedLeadInput.parse({ ...goodRow, ageRange: '30-60', price: 2.5, email: null });
    expect(read(body)).toMatchObject({ name: 'Jane Smith', email: null });
  });

  it('when a field is over 1,000 characters or not text, then the body is refused', () => {
    const long = agedLeadInput.safeParse({ ...goodRow, name: 'x'.repeat(1001) });
    expect(long.success ? undefined : long.error.issues.map((i) => i.message)).toEqual(['Name must be at most 1,000 characters']);
    const number = agedLeadInput.safeParse({ ...goodRow, phone: 5125550143 });
    expect(number.success ? undefined : number.error.issues[0]?.path).toEqual(['phone']);
  });

  it('when the bulk body holds no leads or more than 5,000, then it is refused; 5,000 is fine', () => {
    const message = (leads: unknown) => {
      const parsed = bulkAgedLeadsBody.safeParse({ leads });
      return parsed.success ? undefined : parsed.error.issues[0]?.message;
    };
    expect(message([])).toBe('Send at least one lead');
    expect(message(Array.from({ length: 5001 }, () => goodRow))).toBe('At most 5,000 leads at once');
    expect(message(Array.from({ length: 5000 }, () => goodRow))).toBeUndefined();
  });
});
