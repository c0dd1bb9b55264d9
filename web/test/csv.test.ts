import { describe, expect, it } from 'vitest';
import { CsvError, csvLine, parseCsv, readCsvTable } from '../src/lib/csv';

/** The SPA's CSV reader (issue 15: the callback upload parses the file in the browser). */

describe('parseCsv', () => {
  it('reads plain rows with LF, CRLF and CR line ends', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('a,b\r\n1,2\r\n')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('a,b\r1,2\r')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('drops a UTF-8 byte-order mark and skips blank lines', () => {
    expect(parseCsv('\uFEFFFirst Name,Phone\n\n\r\nMaria,5125550143\n')).toEqual([['First Name', 'Phone'], ['Maria', '5125550143']]);
  });

  it('keeps commas, line breaks and doubled quotes inside quoted fields', () => {
    expect(parseCsv('name,note\r\n"Lopez, Maria","said ""call me""\r\nafter 3"\r\n')).toEqual([
      ['name', 'note'],
      ['Lopez, Maria', 'said "call me"\r\nafter 3'],
    ]);
  });

  it('keeps empty cells, including a trailing one', () => {
    expect(parseCsv('a,,c,\n')).toEqual([['a', '', 'c', '']]);
    expect(parseCsv('"",x')).toEqual([['', 'x']]);
  });

  it('refuses a quote that is never closed, naming its line', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow(CsvError);
    expect(() => parseCsv('a,b\n1,"open\n2,3')).toThrow('line 2');
  });
});

describe('readCsvTable', () => {
  const COLUMNS = ['First Name', 'Last Name', 'Phone', 'State', 'Price'] as const;

  it('matches the header case- and space-insensitively, in any order, ignoring other columns', () => {
    const table = readCsvTable('phone, first  name ,LAST NAME,Notes,state\n512-555-0143,Maria,Lopez,x,tx\n', COLUMNS);
    expect(table.missing).toEqual(['Price']);
    expect(table.rows).toEqual([{ 'First Name': 'Maria', 'Last Name': 'Lopez', Phone: '512-555-0143', State: 'tx', Price: '' }]);
  });

  it('gives short rows empty cells and an empty file no rows', () => {
    expect(readCsvTable('First Name,Last Name,Phone,State,Price\nAna\n', COLUMNS).rows).toEqual([
      { 'First Name': 'Ana', 'Last Name': '', Phone: '', State: '', Price: '' },
    ]);
    expect(readCsvTable('', COLUMNS)).toEqual({ rows: [], missing: [...COLUMNS] });
  });
});

describe('csvLine', () => {
  it('quotes only the cells that need it, and reads back the same', () => {
    const cells = ['Maria', 'Lopez, Jr.', 'say "hi"', 'two\nlines'];
    const line = csvLine(cells);
    expect(line).toBe('Maria,"Lopez, Jr.","say ""hi""","two\nlines"');
    expect(parseCsv(line)).toEqual([cells]);
  });
});
