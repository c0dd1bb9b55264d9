import {
  LEAD_IMPORT_COLUMNS,
  LEAD_IMPORT_LEGACY_COLUMNS,
  LEAD_IMPORT_REQUIRED_COLUMNS,
  type LeadImportColumn,
  type LeadImportLegacyColumn,
  type LeadRowKey,
} from '@warmline/contracts/aged-lead-rows';

/**
 * Reading an import file's header and records into the row rules' cells (contracts' leadRowRules
 * then decides each row). The catalog's alone: the admin's form and the JSON API send fields, not
 * a CSV.
 */

export type LeadImportHeader =
  | {
      ok: true;
      /** Where each column the file has sits in a record. */
      columnIndex: Partial<Record<LeadImportColumn, number>>;
      legacyColumns: LeadImportLegacyColumn[];
      /** Said once at upload (the legacy columns are ignored), or null. */
      notice: string | null;
    }
  | { ok: false; missing: LeadImportColumn[]; message: string };

/** 'Form Fill Time', 'form_fill_time' and ' FORM  FILL TIME ' are the same column to a person. */
const headerKey = (cell: string): string => cell.replace(/[\s_]+/g, '').toLowerCase();

const COLUMN_OF_HEADER = new Map<string, LeadImportColumn>(LEAD_IMPORT_COLUMNS.map((c) => [headerKey(c), c]));
const LEGACY_OF_HEADER = new Map<string, LeadImportLegacyColumn>(LEAD_IMPORT_LEGACY_COLUMNS.map((c) => [headerKey(c), c]));

/**
 * Reads a header row: columns in any order, matched without regard to case and spaces, a UTF-8
 * BOM before the first ignored, unknown columns ignored. A column named twice is read from its
 * first place. Refused only when a required column is missing.
 */
export function matchLeadImportHeader(cells: string[]): LeadImportHeader {
  const columnIndex: Partial<Record<LeadImportColumn, number>> = {};
  const legacy = new Set<LeadImportLegacyColumn>();
  cells.forEach((cell, index) => {
    const key = headerKey(index === 0 ? cell.replace(/^\uFEFF/, '') : cell);
    const column = COLUMN_OF_HEADER.get(key);
    if (column !== undefined && columnIndex[column] === undefined) columnIndex[column] = index;
    const old = LEGACY_OF_HEADER.get(key);
    if (old !== undefined) legacy.add(old);
  });
  const missing = LEAD_IMPORT_REQUIRED_COLUMNS.filter((c) => columnIndex[c] === undefined);
  if (missing.length > 0) {
    const message = missing.length === 1 ? `The file has no ${missing[0]} column` : `The file has no ${listOf(missing)} columns`;
    return { ok: false, missing, message };
  }
  const legacyColumns = LEAD_IMPORT_LEGACY_COLUMNS.filter((c) => legacy.has(c));
  return { ok: true, columnIndex, legacyColumns, notice: legacyNotice(legacyColumns) };
}

function legacyNotice(columns: LeadImportLegacyColumn[]): string | null {
  if (columns.length === 0) return null;
  const has = columns.length === 1 ? `${columns[0] === 'Age Range' ? 'an' : 'a'} ${columns[0]} column: it is` : `${listOf(columns)} columns: they are`;
  return `The file has ${has} ignored; each lead's age range and price follow from its Form Fill Time and the price table.`;
}

/** 'A', 'A and B', 'A, B and C'. */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A CSV record as the rules' input; a short record (fewer cells than the header) leaves cells undefined. */
export function cellsOfRow(cells: string[], columnIndex: Partial<Record<LeadImportColumn, number>>): Record<LeadRowKey, string | undefined> {
  const at = (column: LeadImportColumn): string | undefined => {
    const index = columnIndex[column];
    return index === undefined ? undefined : cells[index];
  };
  return {
    name: at('Name'),
    phone: at('Phone'),
    email: at('Email'),
    state: at('State'),
    zip: at('Zip'),
    formFillTime: at('Form Fill Time'),
    source: at('Source'),
    consentCertificate: at('Consent Certificate'),
    consentTime: at('Consent Time'),
    consentIp: at('Consent IP'),
  };
}
