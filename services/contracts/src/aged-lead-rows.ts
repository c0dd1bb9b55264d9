import { z } from 'zod';
import { areaCodeProblem } from './area-codes';
import { AGED_LEAD_MAX_AGE_DAYS } from './catalog';
import { usPhoneDigits } from './us-phone';
import { usStateOfText, type UsStateCode } from './us-states';

/**
 * The row rules of the aged-lead import (issue 13): the CSV template's columns, how a header row
 * is read, and how one row — a CSV record or a lead of the admin's JSON API — becomes a lead in
 * stock or a list of problems named by column. Pure, and free of node: imports, because the SPA
 * imports contracts too. The importer runs these rules on files of a million rows, so everything
 * a row needs (regexes, the schema, the time-zone formatter) is made once, not per row.
 */

/* ------------------------------------------------------------------ columns ---------- */

/** The template's header, in order. */
export const LEAD_IMPORT_COLUMNS = [
  'Name',
  'Phone',
  'Email',
  'State',
  'Zip',
  'Form Fill Time',
  'Source',
  'Consent Certificate',
  'Consent Time',
  'Consent IP',
] as const;
export type LeadImportColumn = (typeof LEAD_IMPORT_COLUMNS)[number];

export const LEAD_IMPORT_REQUIRED_COLUMNS = ['Name', 'Phone', 'State', 'Form Fill Time'] as const satisfies readonly LeadImportColumn[];

/**
 * Columns of the old upload (spec §5: ageRange, price). Accepted and ignored: age range and price
 * follow from the form-fill time at the moment of sale, so a file cannot set them.
 */
export const LEAD_IMPORT_LEGACY_COLUMNS = ['Age Range', 'Price'] as const;
export type LeadImportLegacyColumn = (typeof LEAD_IMPORT_LEGACY_COLUMNS)[number];

/** The key of each column in a row's cells and in the JSON API's lead. */
const LEAD_ROW_KEYS = {
  Name: 'name',
  Phone: 'phone',
  Email: 'email',
  State: 'state',
  Zip: 'zip',
  'Form Fill Time': 'formFillTime',
  Source: 'source',
  'Consent Certificate': 'consentCertificate',
  'Consent Time': 'consentTime',
  'Consent IP': 'consentIp',
} as const satisfies Record<LeadImportColumn, string>;
export type LeadRowKey = (typeof LEAD_ROW_KEYS)[LeadImportColumn];

const COLUMN_OF_KEY = Object.fromEntries(LEAD_IMPORT_COLUMNS.map((c) => [LEAD_ROW_KEYS[c], c])) as Record<LeadRowKey, LeadImportColumn>;

/** One row as the rules take it: the cells by key; a column the file lacks is undefined. */
export type LeadRowCells = Partial<Record<LeadRowKey, string | null | undefined>>;

/* -------------------------------------------------------------- the lead ---------- */

/** A row that passed the rules: what goes into stock. */
export interface ImportedLead {
  name: string;
  /** Ten digits, area code first. */
  phone: string;
  /** Lower-case. */
  email: string | null;
  state: UsStateCode;
  /** Five digits. */
  zip: string | null;
  formFillTime: Date;
  source: string;
  /** A TrustedForm or Jornaya certificate URL or id. */
  consentCertificate: string | null;
  consentTime: Date | null;
  consentIp: string | null;
}

export interface LeadRowContext {
  /** The moment the import (or API call) started: ages and "in the future" are measured from it. */
  now: Date;
  /** The business time zone (IANA): times without an offset are read in it. */
  timeZone: string;
  /** A row's source when it names none (`import:<file name>`; `api:admin`). */
  defaultSource: string;
}

export const LEAD_SUPPRESSED_MESSAGE = 'Phone is on the suppression list';
export const LEAD_DUPLICATE_MESSAGE = 'Same phone and form-fill day as a lead already in stock or earlier in the file';

const NAME_MAX = 200;
const SOURCE_MAX = 200;
const EMAIL_MAX = 254;
const CONSENT_CERTIFICATE_MAX = 500;
const DAY_MS = 86_400_000;

/** A cell's refusal; one per rule, made once. */
class Refusal {
  constructor(readonly message: string) {}
}
type Rule<T> = (text: string) => T | Refusal;

/** A cell: text or absent (null from JSON counts as empty), trimmed, then the column's rule. */
function cell<T>(column: LeadImportColumn, rule: Rule<T>) {
  return z
    .string({ error: `${column} must be text` })
    .nullish()
    .transform((raw, ctx): T => {
      const result = rule(raw == null ? '' : raw.trim());
      if (result instanceof Refusal) {
        ctx.issues.push({ code: 'custom', message: result.message, input: raw });
        return z.NEVER;
      }
      return result;
    });
}

/**
 * The rules of one row, for one import (or one API call): a schema whose output is the lead.
 * Each problem's path is the field's key, which rowProblems turns back into the column. Legacy
 * `ageRange` and `price` keys are dropped with any other unknown key. Throws a RangeError for a
 * time zone that is not IANA, before any row is read.
 */
export function leadRowRules(ctx: LeadRowContext): z.ZodType<ImportedLead, LeadRowCells> {
  const clock = zoneClock(ctx.timeZone);
  const now = ctx.now.getTime();
  const formFill = dateRule('Form Fill Time', clock, now);
  const consentTime = dateRule('Consent Time', clock, now);
  const tooOld = new Refusal(`Lead is older than ${AGED_LEAD_MAX_AGE_DAYS} days`);
  const defaultSource: Rule<string> = (text) => text || ctx.defaultSource;

  return z.object({
    name: cell('Name', nameRule),
    phone: cell('Phone', phoneRule),
    email: cell('Email', emailRule),
    state: cell('State', stateRule),
    zip: cell('Zip', zipRule),
    formFillTime: cell('Form Fill Time', (text) => {
      const at = formFill(text);
      if (at instanceof Refusal || at === null) return at ?? FORM_FILL_TIME_REQUIRED;
      // Whole days, as the market counts a lead's age: day 180 is still listed, day 181 is not.
      return Math.floor((now - at.getTime()) / DAY_MS) > AGED_LEAD_MAX_AGE_DAYS ? tooOld : at;
    }),
    source: cell('Source', (text) => (text.length > SOURCE_MAX ? SOURCE_TOO_LONG : defaultSource(text))),
    consentCertificate: cell('Consent Certificate', consentCertificateRule),
    consentTime: cell('Consent Time', consentTime),
    consentIp: cell('Consent IP', consentIpRule),
  });
}

/** The problems of a refused row, each on its column (a problem outside any field goes on Name, the row's first). */
export function rowProblems(error: z.ZodError): Array<{ column: LeadImportColumn; message: string }> {
  return error.issues.map((issue) => {
    const key = issue.path[0];
    const column = typeof key === 'string' && Object.hasOwn(COLUMN_OF_KEY, key) ? COLUMN_OF_KEY[key as LeadRowKey] : 'Name';
    return { column, message: issue.message };
  });
}

/**
 * The duplicate rule's key: the same phone filled on the same day in the business time zone is
 * the same lead, whatever the hour (vendors resend leads with re-stamped times).
 */
export function leadDuplicateKey(lead: { phone: string; formFillTime: Date }, timeZone: string): string {
  return `${lead.phone}|${zoneClock(timeZone).day(lead.formFillTime.getTime())}`;
}

/* ------------------------------------------------------------- the rules ---------- */

const NAME_REQUIRED = new Refusal('Name is required');
const NAME_TOO_LONG = new Refusal(`Name must be at most ${NAME_MAX} characters`);
const WHITESPACE_RUN = /\s+/g;

function nameRule(text: string): string | Refusal {
  // Masking in the market takes the first and last words: tabs and double spaces would skew it.
  const name = text.replace(WHITESPACE_RUN, ' ');
  if (name === '') return NAME_REQUIRED;
  return name.length > NAME_MAX ? NAME_TOO_LONG : name;
}

/** What a phone that is not a US number is told, in an import row and on the suppression list alike. */
export const PHONE_RULE_MESSAGE = 'Phone must be 10 digits with the area code, e.g. (512) 555-0143';
const PHONE_REQUIRED = new Refusal('Phone is required');
const PHONE_INVALID = new Refusal(PHONE_RULE_MESSAGE);
function phoneDigitsRule(text: string): string | Refusal {
  if (text === '') return PHONE_REQUIRED;
  return usPhoneDigits(text) ?? PHONE_INVALID;
}

/** A lead's phone: ten US digits whose area code is a geographic one (issue 22: no toll-free or non-geographic stock). */
function phoneRule(text: string): string | Refusal {
  const digits = phoneDigitsRule(text);
  if (digits instanceof Refusal) return digits;
  const problem = areaCodeProblem(digits);
  return problem === null ? digits : new Refusal(problem);
}

/**
 * '+1 (512) 555-0143' → '5125550143'; null when no US number remains. The format only: the
 * suppression list takes any number that opted out, a toll-free one too.
 */
export function normaliseUsPhone(text: string): string | null {
  const phone = phoneDigitsRule(text.trim());
  return typeof phone === 'string' ? phone : null;
}

const EMAIL_INVALID = new Refusal('Email must be a valid e-mail address');
const EMAIL = z.regexes.email;

function emailRule(text: string): string | null | Refusal {
  if (text === '') return null;
  return text.length <= EMAIL_MAX && EMAIL.test(text) ? text.toLowerCase() : EMAIL_INVALID;
}

const STATE_REQUIRED = new Refusal('State is required');
const STATE_INVALID = new Refusal('State must be a US state code or name');

function stateRule(text: string): UsStateCode | Refusal {
  if (text === '') return STATE_REQUIRED;
  return usStateOfText(text) ?? STATE_INVALID;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;
const ZIP_INVALID = new Refusal('Zip must be 5 digits');

function zipRule(text: string): string | null | Refusal {
  if (text === '') return null;
  const match = ZIP.exec(text);
  return match ? match[1]! : ZIP_INVALID;
}

const FORM_FILL_TIME_REQUIRED = new Refusal('Form Fill Time is required');
const SOURCE_TOO_LONG = new Refusal(`Source must be at most ${SOURCE_MAX} characters`);
const CONSENT_CERTIFICATE_TOO_LONG = new Refusal(`Consent Certificate must be at most ${CONSENT_CERTIFICATE_MAX} characters`);

function consentCertificateRule(text: string): string | null | Refusal {
  if (text === '') return null;
  return text.length > CONSENT_CERTIFICATE_MAX ? CONSENT_CERTIFICATE_TOO_LONG : text;
}

const CONSENT_IP_INVALID = new Refusal('Consent IP must be an IPv4 or IPv6 address');

function consentIpRule(text: string): string | null | Refusal {
  if (text === '') return null;
  if (isIpv4(text)) return text;
  return isIpv6(text) ? text.toLowerCase() : CONSENT_IP_INVALID;
}

/* ------------------------------------------------------------ IP addresses ---------- */

const IPV4_PART = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Dotted decimal, four parts of 0–255, no leading zeros (01.2.3.4 reads as octal to some tools). */
function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => IPV4_PART.test(p));
}

/**
 * Eight groups of 1–4 hex digits, one `::` standing for one or more zero groups, and an IPv4
 * address in the last 32 bits allowed (::ffff:203.0.113.7). No zone (%eth0) or prefix (/64):
 * the consent IP is one address, stored as PostgreSQL inet.
 */
function isIpv6(text: string): boolean {
  if (text.length > 45) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string): string[] | null => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return false;
  const groups = [...head, ...tail];
  let count = groups.length;
  const last = groups[groups.length - 1];
  if (last !== undefined && last.includes('.')) {
    if (!isIpv4(last)) return false;
    groups.pop();
    count += 1; // an IPv4 tail fills two groups
  }
  if (!groups.every((g) => IPV6_GROUP.test(g))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/* ------------------------------------------------------------------- dates ---------- */

/**
 * 2026-07-01, 2026-07-01T14:30, 2026-07-01 14:30:00.250, 2026-07-01T14:30:00Z,
 * 2026-07-01T14:30:00-05:00 (also -0500 and -05).
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** 7/1/2026, 7/1/2026 2:30 PM, 7/1/2026 2:30:15 pm, 7/1/2026 14:30 — how spreadsheets write dates. */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AP])\.?M\.?)?)?$/i;

/** A date before this is a typo, not a form fill or consent (and time-zone data before it is local mean time). */
const EARLIEST_YEAR = 1900;

/**
 * The date rule of a column: empty → null; a date that cannot be read, or one after `now`, is
 * refused. Local times are read in the business zone (see ZoneClock.instantOf for DST).
 */
function dateRule(column: 'Form Fill Time' | 'Consent Time', clock: ZoneClock, now: number): Rule<Date | null> {
  const invalid = new Refusal(`${column} must be a date such as 2026-07-01T14:30:00-05:00 or 7/1/2026 2:30 PM`);
  const future = new Refusal(`${column} is in the future`);
  return (text) => {
    if (text === '') return null;
    const ms = parseLeadTime(text, clock);
    if (ms === null) return invalid;
    return ms > now ? future : new Date(ms);
  };
}

/** The instant a cell names, or null when it is not one of the accepted forms or not a real date. */
function parseLeadTime(text: string, clock: ZoneClock): number | null {
  let m = ISO_DATE.exec(text);
  if (m) {
    const wall = wallTime(+m[1]!, +m[2]!, +m[3]!, m[4] === undefined ? 0 : +m[4], m[5] === undefined ? 0 : +m[5], m[6] === undefined ? 0 : +m[6], m[7]);
    if (wall === null) return null;
    const offset = m[8];
    if (offset === undefined) return clock.instantOf(wall);
    if (offset === 'Z' || offset === 'z') return wall;
    const sign = offset[0] === '-' ? -1 : 1;
    const hours = +offset.slice(1, 3);
    const minutes = offset.length > 3 ? +offset.slice(-2) : 0;
    if (hours > 23 || minutes > 59) return null;
    return wall - sign * (hours * 60 + minutes) * 60_000;
  }
  m = US_DATE.exec(text);
  if (m) {
    let hour = m[4] === undefined ? 0 : +m[4];
    const meridiem = m[7]?.toUpperCase();
    if (meridiem !== undefined) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (meridiem === 'P' ? 12 : 0);
    }
    const wall = wallTime(+m[3]!, +m[1]!, +m[2]!, hour, m[5] === undefined ? 0 : +m[5], m[6] === undefined ? 0 : +m[6], undefined);
    return wall === null ? null : clock.instantOf(wall);
  }
  return null;
}

/** A calendar date and clock time as milliseconds of the UTC time line ("wall time"), or null when it does not exist. */
function wallTime(year: number, month: number, day: number, hour: number, minute: number, second: number, fraction: string | undefined): number | null {
  if (year < EARLIEST_YEAR || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (day > daysInMonth(year, month)) return null;
  const ms = fraction === undefined ? 0 : +fraction.slice(0, 3).padEnd(3, '0');
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/* ------------------------------------------------------------- time zones ---------- */

/**
 * One IANA zone's clock: its offset at any instant, read from a formatter made once per zone
 * (constructing Intl.DateTimeFormat costs far more than using one).
 */
interface ZoneClock {
  /** The instant a wall time of this zone names. */
  instantOf(wall: number): number;
  /** YYYY-MM-DD of the instant in this zone. */
  day(at: number): string;
}

const clocks = new Map<string, ZoneClock>();

function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = makeZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}

function makeZoneClock(timeZone: string): ZoneClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });

  /** The wall time at an instant, on the UTC time line (seconds precision). */
  const wallAt = (at: number): number => {
    let year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    for (const part of format.formatToParts(at)) {
      switch (part.type) {
        case 'year': year = +part.value; break;
        case 'month': month = +part.value; break;
        case 'day': day = +part.value; break;
        case 'hour': hour = +part.value; break;
        case 'minute': minute = +part.value; break;
        case 'second': second = +part.value; break;
      }
    }
    return Date.UTC(year, month - 1, day, hour, minute, second);
  };
  const offsetAt = (at: number): number => wallAt(at) - Math.floor(at / 1000) * 1000;

  // The offsets well before and well after each day of the UTC time line (a wall time or an
  // instant); equal on all but the few days around a change of offset, when the formatter is
  // asked again. Bounded: an import's dates span about 180 days.
  const dayOffsets = new Map<number, readonly [number, number]>();
  const offsetsAround = (time: number): readonly [number, number] => {
    const dayIndex = Math.floor(time / DAY_MS);
    let pair = dayOffsets.get(dayIndex);
    if (!pair) {
      // A day and a half either side of the day: past any offset (−12 h to +14 h), and no zone
      // changes its offset twice within these four days.
      pair = [offsetAt(dayIndex * DAY_MS - 1.5 * DAY_MS), offsetAt((dayIndex + 2.5) * DAY_MS)];
      if (dayOffsets.size >= 4096) dayOffsets.clear();
      dayOffsets.set(dayIndex, pair);
    }
    return pair;
  };

  return {
    /**
     * Around a change of offset a wall time can name two instants or none. Twice (the hour
     * repeated when clocks go back, 1:30 AM on 11/1/2026 in Chicago): the first, still on
     * daylight time. None (the hour skipped when clocks go forward, 2:30 AM on 3/8/2026): read
     * with the offset before the change, i.e. moved forward by the skipped hour (3:30 AM CDT),
     * as calendars and Temporal's 'compatible' reading do — the form was filled that night, and
     * a lead is not refused for its vendor's clock.
     */
    instantOf(wall) {
      const [before, after] = offsetsAround(wall);
      const early = wall - before;
      if (before === after) return early;
      const late = wall - after;
      const earlyExists = offsetAt(early) === before;
      const lateExists = offsetAt(late) === after;
      if (earlyExists && lateExists) return Math.min(early, late);
      if (lateExists) return late;
      return early;
    },
    day(at) {
      const [before, after] = offsetsAround(at);
      const wall = new Date(before === after ? at + before : wallAt(at));
      const month = wall.getUTCMonth() + 1;
      const date = wall.getUTCDate();
      return `${wall.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}-${date < 10 ? '0' : ''}${date}`;
    },
  };
}

/* ------------------------------------------------------------- the JSON API ---------- */

const API_CELL_MAX = 1000;
const apiCell = (column: LeadImportColumn) =>
  z
    .string({ error: `${column} must be text` })
    .max(API_CELL_MAX, `${column} must be at most 1,000 characters`)
    .nullish();
/** The old API's keys: accepted so old clients keep working, and ignored (see LEAD_IMPORT_LEGACY_COLUMNS). */
const legacyApiField = z.union([z.string().max(API_CELL_MAX), z.number()]).nullish();

/**
 * `POST /api/admin/aged-leads`: one lead, the fields of an import row. Static, for the route
 * manifest; the catalog then checks it with leadRowRules, which needs the clock and zone.
 */
export const agedLeadInput = z.object({
  name: apiCell('Name'),
  phone: apiCell('Phone'),
  email: apiCell('Email'),
  state: apiCell('State'),
  zip: apiCell('Zip'),
  formFillTime: apiCell('Form Fill Time'),
  source: apiCell('Source'),
  consentCertificate: apiCell('Consent Certificate'),
  consentTime: apiCell('Consent Time'),
  consentIp: apiCell('Consent IP'),
  ageRange: legacyApiField,
  price: legacyApiField,
});

const BULK_AGED_LEADS_MAX = 5000;

/** `POST /api/admin/bulk-aged-leads`: all or nothing. */
export const bulkAgedLeadsBody = z.object({
  leads: z
    .array(agedLeadInput, { error: 'Leads must be a list of leads' })
    .min(1, 'Send at least one lead')
    .max(BULK_AGED_LEADS_MAX, 'At most 5,000 leads at once'),
});
