import { describe, expect, it } from 'vitest';
import { LEAD_IMPORT_COLUMNS, LEAD_IMPORT_LEGACY_COLUMNS, LEAD_IMPORT_REQUIRED_COLUMNS, leadRowRules, rowProblems, type ImportedLead } from '@warmline/contracts';
import { cellsOfRow, matchLeadImportHeader } from '../src/imports/domain/import-header';

/**
 * An import file's header row and records as the row rules read them (issue 13): columns in any
 * order, case and spacing, a BOM, columns named twice, missing and legacy columns.
 */

const rules = leadRowRules({ now: new Date('2026-11-25T18:00:00.000Z'), timeZone: 'America/Chicago', defaultSource: 'import:october.csv' });

/** The lead a row becomes, or the problems it has as `Column: message`. */
function read(cells: Parameters<typeof rules.safeParse>[0]): ImportedLead | string[] {
  const parsed = rules.safeParse(cells);
  return parsed.success ? parsed.data : rowProblems(parsed.error).map((p) => `${p.column}: ${p.message}`);
}

describe('the header row', () => {
  it('when the template header is read, then every column is found in its place and nothing is said', () => {
    const header = matchLeadImportHeader([...LEAD_IMPORT_COLUMNS]);
    expect(header).toEqual({
      ok: true,
      columnIndex: {
        Name: 0, Phone: 1, Email: 2, State: 3, Zip: 4, 'Form Fill Time': 5, Source: 6,
        'Consent Certificate': 7, 'Consent Time': 8, 'Consent IP': 9,
      },
      legacyColumns: [],
      notice: null,
    });
    expect(LEAD_IMPORT_REQUIRED_COLUMNS).toEqual(['Name', 'Phone', 'State', 'Form Fill Time']);
    expect(LEAD_IMPORT_LEGACY_COLUMNS).toEqual(['Age Range', 'Price']);
  });

  it.each(['form fill time', 'FormFillTime', ' FORM  FILL TIME ', 'form_fill_time', 'Form\tFill Time'])(
    "when the form-fill column is written '%s', then it is the Form Fill Time column",
    (written) => {
      const header = matchLeadImportHeader(['name', 'PHONE', ' State ', written]);
      expect(header).toMatchObject({ ok: true, columnIndex: { Name: 0, Phone: 1, State: 2, 'Form Fill Time': 3 } });
    },
  );

  it('when columns are reordered, renamed in case and spaced, with extra columns, then each is found where it is', () => {
    const header = matchLeadImportHeader(['Lead ID', 'consent ip', 'STATE', 'Vendor', 'form fill time', 'phone', 'e mail', 'NAME', 'zip']);
    expect(header).toEqual({
      ok: true,
      columnIndex: { 'Consent IP': 1, State: 2, 'Form Fill Time': 4, Phone: 5, Email: 6, Name: 7, Zip: 8 },
      legacyColumns: [],
      notice: null,
    });
  });

  it('when the first cell starts with a UTF-8 BOM, then the BOM is ignored', () => {
    expect(matchLeadImportHeader(['\uFEFFName', 'Phone', 'State', 'Form Fill Time'])).toMatchObject({ ok: true, columnIndex: { Name: 0 } });
  });

  it('when a column is named twice, then it is read from its first place', () => {
    expect(matchLeadImportHeader(['Name', 'Phone', 'State', 'Form Fill Time', 'phone'])).toMatchObject({ ok: true, columnIndex: { Phone: 1 } });
  });

  it.each([
    [['Name', 'Email', 'State', 'Form Fill Time'], ['Phone'], 'The file has no Phone column'],
    [['Name', 'Email', 'Form Fill Time'], ['Phone', 'State'], 'The file has no Phone and State columns'],
    [['Email', 'Form Fill Time', 'Zip'], ['Name', 'Phone', 'State'], 'The file has no Name, Phone and State columns'],
    [['Jane Smith', '5125550143', 'TX', '2026-10-01'], ['Name', 'Phone', 'State', 'Form Fill Time'], 'The file has no Name, Phone, State and Form Fill Time columns'],
  ])('when the header is %j, then it is refused naming what is missing', (cells, missing, message) => {
    expect(matchLeadImportHeader(cells)).toEqual({ ok: false, missing, message });
  });

  it('when Age Range and Price columns are present, then they are listed and the notice says they are ignored', () => {
    const header = matchLeadImportHeader(['Name', 'Phone', 'State', 'age range', 'PRICE', 'Form Fill Time']);
    expect(header).toMatchObject({
      ok: true,
      legacyColumns: ['Age Range', 'Price'],
      notice: "The file has Age Range and Price columns: they are ignored; each lead's age range and price follow from its Form Fill Time and the price table.",
    });
    if (header.ok) expect(header.columnIndex).not.toHaveProperty('Price');
  });

  it('when only one old column is present, then the notice names only it', () => {
    expect(matchLeadImportHeader(['Name', 'Phone', 'State', 'Form Fill Time', 'Price'])).toMatchObject({
      legacyColumns: ['Price'],
      notice: "The file has a Price column: it is ignored; each lead's age range and price follow from its Form Fill Time and the price table.",
    });
    expect(matchLeadImportHeader(['AgeRange', 'Name', 'Phone', 'State', 'Form Fill Time'])).toMatchObject({
      legacyColumns: ['Age Range'],
      notice: "The file has an Age Range column: it is ignored; each lead's age range and price follow from its Form Fill Time and the price table.",
    });
  });
});

describe('a CSV record as the rules input', () => {
  it('when a record is read, then its cells are keyed by field; columns the file lacks and cells past a short record are undefined', () => {
    const header = matchLeadImportHeader(['State', 'Name', 'Extra', 'Phone', 'Form Fill Time', 'Email']);
    if (!header.ok) throw new Error(header.message);
    expect(cellsOfRow(['TX', 'Jane Smith', 'x', '5125550143', '2026-10-01'], header.columnIndex)).toEqual({
      name: 'Jane Smith',
      phone: '5125550143',
      email: undefined,
      state: 'TX',
      zip: undefined,
      formFillTime: '2026-10-01',
      source: undefined,
      consentCertificate: undefined,
      consentTime: undefined,
      consentIp: undefined,
    });
  });

  it('when a full template row passes, then it becomes the normalised lead', () => {
    const header = matchLeadImportHeader([...LEAD_IMPORT_COLUMNS]);
    if (!header.ok) throw new Error(header.message);
    const cells = [
      '  Jane   Smith ', '+1 (512) 555-0143', ' Jane.Smith@Example.COM ', 'texas', '78701-1234', '10/1/2026 2:30 PM',
      'Facebook final expense form', 'https://cert.trustedform.com/0123456789abcdef', '10/1/2026 2:30 PM', '203.0.113.7',
    ];
    expect(read(cellsOfRow(cells, header.columnIndex))).toEqual({
      name: 'Jane Smith',
      phone: '5125550143',
      email: 'jane.smith@example.com',
      state: 'TX',
      zip: '78701',
      formFillTime: new Date('2026-10-01T19:30:00.000Z'),
      source: 'Facebook final expense form',
      consentCertificate: 'https://cert.trustedform.com/0123456789abcdef',
      consentTime: new Date('2026-10-01T19:30:00.000Z'),
      consentIp: '203.0.113.7',
    } satisfies ImportedLead);
  });

});
