import { isUtf8 } from 'node:buffer';

/**
 * Names of partner documents (docs/adr/0018): where a document is kept, what it is called in
 * the download path, and the name given back to the admin's browser.
 */

/** The longest sender's name kept (the notice e-mail's contract allows 300). */
const MAX_ORIGINAL_NAME = 300;

/** The stored name of the n-th document (1-based): 'doc-1.pdf'. */
export function storedFileName(position: number, ext: string): string {
  return `doc-${position}.${ext}`;
}

/** The BlobStore key of a document: `partner-documents/<application id>/doc-<n>.<ext>`. */
export function documentKey(applicationId: string, filename: string): string {
  return `partner-documents/${applicationId}/${filename}`;
}

/** `/api/affnetwork-signups/{id}/documents/{filename}`: the admin's download. */
export function documentUrl(applicationId: string, filename: string): string {
  return `/api/affnetwork-signups/${applicationId}/documents/${encodeURIComponent(filename)}`;
}

/**
 * The sender's name as kept: its last path segment (some browsers send a path), as the browser
 * meant it, without control characters, at most 300 characters keeping the extension; the
 * stored name when nothing is left.
 */
export function cleanOriginalName(fileName: string | null | undefined, fallback: string): string {
  const base = senderName(fileName ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters and lone surrogates (which UTF-8 and PostgreSQL cannot hold) go.
  const clean = base
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .trim();
  if (clean === '') return fallback;
  if (clean.length <= MAX_ORIGINAL_NAME) return clean;
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(clean)?.[0] ?? '';
  return clean.slice(0, MAX_ORIGINAL_NAME - ext.length) + ext;
}

/**
 * Browsers send a file name as raw UTF-8 bytes, with '"' written as %22 (the HTML form
 * encoding). A parser that read the bytes as Latin-1 gives 'RÃ©sumÃ©' for 'Résumé': such a name
 * (every character a byte, the bytes valid UTF-8 with some above ASCII) is read again as UTF-8.
 * A name read as UTF-8 already is left as it is ('é' alone is not valid UTF-8 as one byte).
 */
function senderName(name: string): string {
  let decoded = name;
  if (/[\u0080-\u00ff]/.test(name) && !/[^\u0000-\u00ff]/.test(name)) {
    const bytes = Buffer.from(name, 'latin1');
    if (isUtf8(bytes)) decoded = bytes.toString('utf8');
  }
  return decoded.replace(/%22/g, '"');
}

/**
 * `attachment` with the original name: a plain ASCII `filename="…"` (quotes, backslashes, %
 * and anything outside printable ASCII replaced by '_', so nothing can end the parameter or be
 * decoded differently by a browser) and the exact name as RFC 5987 `filename*=UTF-8''…`.
 */
export function attachmentDisposition(originalName: string): string {
  const ascii = originalName.replace(/[^\x20-\x7e]|["\\%]/g, '_').trim() || 'document';
  const exact = encodeURIComponent(originalName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
