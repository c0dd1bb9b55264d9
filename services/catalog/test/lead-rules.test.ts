import { describe, expect, it } from 'vitest';
import { AGED_LEAD_PRICES_CENTS } from '@warmline/contracts';
import { ageInDays, ageRangeOfAge, DAY_MS, listingWindow, priceLead } from '../src/market/domain/lead-age';
import { maskName, maskPhone, formatPhone } from '../src/market/domain/masking';
import { matchesLeadFilter, parseLeadFilter, canMatch } from '../src/market/domain/lead-filter';
import { combineDayCounts, locatePage, totalOf } from '../src/market/domain/market-pages';
import { splitName } from '../src/market/domain/my-leads';
import { csvField, toCsv } from '@warmline/platform/csv';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const daysAgo = (days: number, extraMs = 0) => new Date(NOW.getTime() - days * DAY_MS - extraMs);

describe('masking a lead before it is bought', () => {
  it('shows the first word whole and the last word as its first 3 characters then X for each one after', () => {
    expect(maskName('John Smith')).toBe('John SmiXX');
    expect(maskName('Maria Gonzalez')).toBe('Maria GonXXXXX');
  });

  it('shows a one-word name as it is', () => {
    expect(maskName('Cher')).toBe('Cher');
  });

  it('shows a last word of 3 characters or fewer as it is', () => {
    expect(maskName('Amy Lee')).toBe('Amy Lee');
    expect(maskName('Bo Wu')).toBe('Bo Wu');
    expect(maskName('Ann Fox')).toBe('Ann Fox');
  });

  it('leaves middle names out, masking only the last word', () => {
    expect(maskName('Mary Ann Johnson')).toBe('Mary JohXXXX');
    expect(maskName('Juan Carlos de la Cruz')).toBe('Juan CruX');
  });

  it('ignores extra spaces and counts letters, not bytes', () => {
    expect(maskName('  Zoë   Brontë  ')).toBe('Zoë BroXXX');
    expect(maskName('   ')).toBe('');
  });

  it('shows only the area code of the phone', () => {
    expect(maskPhone('5125550134')).toBe('(512) XXX-XXXX');
    expect(formatPhone('5125550134')).toBe('(512) 555-0134');
  });
});

describe('age and price of a lead, from its form-fill time now', () => {
  it('counts whole days', () => {
    expect(ageInDays(daysAgo(30), NOW)).toBe(30);
    expect(ageInDays(daysAgo(30, -1), NOW)).toBe(29);
    expect(ageInDays(daysAgo(30, DAY_MS - 1), NOW)).toBe(30);
  });

  it.each([
    [29, null],
    [30, '30-60'],
    [60, '30-60'],
    [61, '60-90'],
    [90, '60-90'],
    [91, '90-180'],
    [180, '90-180'],
    [181, null],
  ] as const)('a lead %i days old is in range %s', (days, range) => {
    expect(ageRangeOfAge(days)).toBe(range);
    const priced = priceLead(daysAgo(days, 3_600_000), NOW);
    expect(priced?.ageRange ?? null).toBe(range);
    if (range) expect(priced?.priceCents).toBe(AGED_LEAD_PRICES_CENTS[range]);
  });

  it('prices the ranges from the contracts table: $2.50, $2.00, $1.50', () => {
    expect(priceLead(daysAgo(45), NOW)?.priceCents).toBe(250);
    expect(priceLead(daysAgo(75), NOW)?.priceCents).toBe(200);
    expect(priceLead(daysAgo(120), NOW)?.priceCents).toBe(150);
  });

  it('lists form fills from just under 181 days ago up to exactly 30 days ago', () => {
    const window = listingWindow(NOW);
    expect(window.newest).toEqual(daysAgo(30));
    expect(window.oldestExclusive).toEqual(daysAgo(181));
  });
});

describe('the lead filter', () => {
  const tx = { state: 'TX', phone: '5125550134', zip: null };
  const ca = { state: 'CA', phone: '4155550199', zip: null };
  const ny = { state: 'NY', phone: '2125512345', zip: '10001' };

  it('shows every lead when empty (or only commas and spaces)', () => {
    expect(parseLeadFilter('').all).toBe(true);
    expect(parseLeadFilter(' , ,').all).toBe(true);
    expect(matchesLeadFilter(parseLeadFilter(''), tx)).toBe(true);
  });

  it('matches a term contained in the state, whatever its case', () => {
    expect(matchesLeadFilter(parseLeadFilter('tx'), tx)).toBe(true);
    expect(matchesLeadFilter(parseLeadFilter('TX'), ca)).toBe(false);
    const a = parseLeadFilter('a');
    expect(a.states).toContain('CA');
    expect(a.states).toContain('PA');
    expect(matchesLeadFilter(a, ca)).toBe(true);
    expect(matchesLeadFilter(a, tx)).toBe(false);
  });

  it('matches any of comma-separated terms', () => {
    const filter = parseLeadFilter('CA, TX');
    expect(filter.states).toEqual(['CA', 'TX']);
    expect(matchesLeadFilter(filter, tx)).toBe(true);
    expect(matchesLeadFilter(filter, ca)).toBe(true);
    expect(matchesLeadFilter(filter, ny)).toBe(false);
  });

  it('matches a 3-character term against the area code only', () => {
    const filter = parseLeadFilter('512');
    expect(filter.areaCodes).toEqual(['512']);
    expect(matchesLeadFilter(filter, tx)).toBe(true);
    expect(matchesLeadFilter(filter, ny)).toBe(false); // 551 in the middle of the number is not the area code
    expect(matchesLeadFilter(parseLeadFilter('555'), tx)).toBe(false);
  });

  it("treats a 5-digit term as a zip code, matched against the lead's zip and never its phone", () => {
    const filter = parseLeadFilter('51234');
    expect(filter.zips).toEqual(['51234']);
    expect(matchesLeadFilter(filter, ny)).toBe(false); // 212-55[1-234]5: the hidden digits are not searched
    expect(matchesLeadFilter(filter, { ...tx, zip: '51234' })).toBe(true);
    expect(matchesLeadFilter(filter, tx)).toBe(false);
    expect(filter.states).toEqual([]);
  });

  it('lets no other run of digits match anything (only the area code of a phone is shown)', () => {
    for (const term of ['5', '55', '5512', '512345', '2125512', '2125512345']) {
      const filter = parseLeadFilter(term);
      expect(canMatch(filter)).toBe(false);
      expect(matchesLeadFilter(filter, ny)).toBe(false);
    }
  });

  it('lets a term that fits no rule match nothing', () => {
    const filter = parseLeadFilter('texas');
    expect(canMatch(filter)).toBe(false);
    expect(matchesLeadFilter(filter, tx)).toBe(false);
  });

  it('refuses more than 60 terms', () => {
    expect(() => parseLeadFilter(Array.from({ length: 61 }, (_, i) => String(100 + i)).join(','))).toThrow('at most 60');
  });
});

describe('finding where a page starts from per-day counts', () => {
  const days = combineDayCounts(
    new Map([
      ['2026-05-03', 30],
      ['2026-05-01', 40],
      ['2026-05-02', 0],
    ]),
    new Map([['2026-05-02', 5]]),
    new Map([['2026-05-03', -2]]),
  );

  it('adds the counts up per day, newest first, dropping empty days', () => {
    expect(days).toEqual([
      { day: '2026-05-03', count: 28 },
      { day: '2026-05-02', count: 5 },
      { day: '2026-05-01', count: 40 },
    ]);
    expect(totalOf(days)).toBe(73);
  });

  it('starts page 1 on the newest day and a later page part-way into its day', () => {
    expect(locatePage(days, 0)).toEqual({ day: '2026-05-03', skip: 0 });
    expect(locatePage(days, 28)).toEqual({ day: '2026-05-02', skip: 0 });
    expect(locatePage(days, 50)).toEqual({ day: '2026-05-01', skip: 17 });
    expect(locatePage(days, 73)).toBeNull();
  });
});

describe('CSV', () => {
  it('quotes commas, quotes and line breaks, and doubles quotes', () => {
    expect(csvField('Smith, John')).toBe('"Smith, John"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(2.5)).toBe('2.5');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+15125550134')).toBe("'+15125550134");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('ends every line with CRLF', () => {
    expect(toCsv(['a', 'b'], [['1', '2']])).toBe('a,b\r\n1,2\r\n');
  });
});

describe('splitting a bought lead’s name for a CRM (issue 22)', () => {
  it('takes the last word as the last name and the rest as the first name', () => {
    expect(splitName('John Smith')).toEqual(['John', 'Smith']);
    expect(splitName('  Mary Ann   Jones ')).toEqual(['Mary Ann', 'Jones']);
    expect(splitName('Cher')).toEqual(['Cher', '']);
    expect(splitName('')).toEqual(['', '']);
  });

  it('keeps particles and suffixes with the last name', () => {
    expect(splitName('Juan de la Cruz')).toEqual(['Juan', 'de la Cruz']);
    expect(splitName('Anna Van Buren')).toEqual(['Anna', 'Van Buren']);
    expect(splitName('Dana Smith, Jr.')).toEqual(['Dana', 'Smith, Jr.']);
    expect(splitName('Martin Luther King III')).toEqual(['Martin Luther', 'King III']);
  });
});
