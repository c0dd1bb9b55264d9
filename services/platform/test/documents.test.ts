import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../src/documents/pdf';
import { storedZip } from '../src/documents/zip';
import { pdfTextRuns } from '../src/testing/documents';

/** The PDF writer and the stored zip of issue 24's evidence pack (docs/adr/0035). */

const transcript = Array.from({ length: 400 }, (_, i) => `Line ${i + 1}: the prospect said yes, please call me back about coverage.`).join('\n');

describe('the PDF writer', () => {
  it('when given titled sections, then it writes a PDF with the title, each label and value, and a footer on every page', async () => {
    const pdf = await renderPdf({
      title: 'Evidence of consent',
      subtitle: 'aged lead 42',
      sections: [
        { heading: 'Consent record', lines: [{ label: 'Certificate', value: 'https://cert.trustedform.com/abc123' }] },
        { heading: 'Call', lines: [{ label: 'Transcript', value: transcript }] },
      ],
      footer: 'Generated 2026-11-27 19:10:21 UTC',
    });

    expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const loaded = await PDFDocument.load(pdf);
    // 400 wrapped transcript lines do not fit one page: they run on over page breaks.
    expect(loaded.getPageCount()).toBeGreaterThan(5);
    expect(loaded.getTitle()).toBe('Evidence of consent');
    const runs = pdfTextRuns(pdf);
    expect(runs).toContain('Evidence of consent');
    expect(runs).toContain('Certificate');
    expect(runs.join('')).toContain('https://cert.trustedform.com/abc123');
    expect(runs).toContain('Line 400: the prospect said yes, please call me back about coverage.');
    const pages = loaded.getPageCount();
    for (let page = 1; page <= pages; page++) expect(runs).toContain(`Generated 2026-11-27 19:10:21 UTC  ·  page ${page} of ${pages}`);
  });

  it('when a value has characters Helvetica cannot write, then they lose their accents or become ?, and the PDF is still written', async () => {
    const pdf = await renderPdf({ title: 'Ünïcode', sections: [{ heading: 'Names', lines: [{ label: 'Name', value: 'Zoë Łukasz 李 Ő\ttab\u0007' }] }] });

    const runs = pdfTextRuns(pdf);
    expect(runs).toContain('Ünïcode');
    expect(runs).toContain('Zoë ?ukasz ? O    tab');
  });

  it('when a word is wider than the line, then it is cut across lines rather than running off the page', async () => {
    const long = 'x'.repeat(300);
    const runs = pdfTextRuns(await renderPdf({ title: 'T', sections: [{ heading: 'H', lines: [{ label: 'Long', value: long }] }] }));

    const pieces = runs.filter((r) => /^x+$/.test(r));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(long);
  });
  it('when a value is one 100,000-character word (a transcript without spaces), then it is cut into lines quickly and nothing is lost', async () => {
    const blob = 'abcdefghij'.repeat(10_000);
    const started = Date.now();
    const pdf = await renderPdf({ title: 'T', sections: [{ heading: 'H', lines: [{ label: 'Transcript', value: blob }] }] });

    expect(Date.now() - started).toBeLessThan(10_000);
    expect(pdfTextRuns(pdf).filter((r) => /^[a-j]+$/.test(r)).join('')).toBe(blob);
  });
});

describe('the stored zip', () => {
  it('when files are zipped, then they come back whole and their text is readable in the raw bytes (stored, not deflated)', () => {
    const json = new TextEncoder().encode('{"certificate":"https://cert.example/abc"}');
    const zip = storedZip({ 'evidence.json': json, 'evidence.pdf': new Uint8Array([37, 80, 68, 70]) }, new Date('2026-11-27T19:00:00Z'));

    expect(Buffer.from(zip).toString('latin1')).toContain('{"certificate":"https://cert.example/abc"}');
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(['evidence.json', 'evidence.pdf']);
    expect(new TextDecoder().decode(files['evidence.json'])).toBe('{"certificate":"https://cert.example/abc"}');
  });
});
