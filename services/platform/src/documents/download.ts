import type { Response } from 'express';
import { renderPdf, type PdfDocumentSpec } from './pdf';
import { storedZip } from './zip';

/** The three ways one record is downloaded: its PDF and JSON in one zip, or either alone. */
export type DocumentFormat = 'zip' | 'json' | 'pdf';

/**
 * Answers with a record as a download (issue 24's evidence pack): `<fileBase>.zip` holding
 * `<entry>.pdf` and `<entry>.json`, or the JSON or PDF alone, each an attachment with its name.
 * What it holds is a customer's prospect: never kept by a shared cache.
 */
export async function sendDocumentDownload(
  res: Response,
  download: { format: DocumentFormat; fileBase: string; entryBase: string; json: unknown; document: PdfDocumentSpec; modified: Date },
): Promise<void> {
  const { format, fileBase, entryBase } = download;
  res.setHeader('Cache-Control', 'private, no-store');
  const jsonText = `${JSON.stringify(download.json, null, 2)}\n`;
  if (format === 'json') {
    res.setHeader('Content-Disposition', `attachment; filename="${fileBase}.json"`);
    res.type('application/json; charset=utf-8').send(jsonText);
    return;
  }
  const pdf = await renderPdf(download.document);
  if (format === 'pdf') {
    res.setHeader('Content-Disposition', `attachment; filename="${fileBase}.pdf"`);
    res.type('application/pdf').send(Buffer.from(pdf));
    return;
  }
  const zip = storedZip({ [`${entryBase}.pdf`]: pdf, [`${entryBase}.json`]: new TextEncoder().encode(jsonText) }, download.modified);
  res.setHeader('Content-Disposition', `attachment; filename="${fileBase}.zip"`);
  res.type('application/zip').send(Buffer.from(zip));
}
