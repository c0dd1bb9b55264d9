import type { Request } from 'express';
import { PARTNER_DOCUMENT_MAX_BYTES, PARTNER_DOCUMENT_MAX_FILES } from '@warmline/contracts';
import { DocumentTypeCheck, typeOfName } from '@warmline/platform/file-type';
import { receiveFiles } from '@warmline/platform/http/upload';
import type { StoredDocument } from '../domain/applications';
import type { PartnersContext } from '../domain/context';
import { cleanOriginalName, documentKey, storedFileName } from '../domain/documents';

/** The form's file fields: file_0, file_1, … (one past the five is refused by count, not by name). */
const FILE_FIELD = /^file_\d+$/;

/**
 * Reads the application form (multipart): its text fields, and its documents streamed through
 * the type check into the store under `partner-documents/<id>/doc-<n>.<ext>`. Any refusal — a
 * file over 10 MB, a sixth file, a type that is not allowed or not what its name says — is a 400
 * naming the file, and every file this request stored is deleted before it is answered.
 */
export async function receiveApplication(
  req: Request,
  ctx: PartnersContext,
  applicationId: string,
): Promise<{ fields: Record<string, string>; documents: StoredDocument[] }> {
  const form = await receiveFiles(req, {
    store: ctx.blobs,
    // A name of no accepted type gets a key too; its check refuses it at the first bytes.
    keyFor: (index, originalName) => documentKey(applicationId, storedFileName(index + 1, typeOfName(originalName)?.extension ?? 'bin')),
    maxFileBytes: PARTNER_DOCUMENT_MAX_BYTES,
    maxFiles: PARTNER_DOCUMENT_MAX_FILES,
    fileField: FILE_FIELD,
    inspect: (originalName) => new DocumentTypeCheck(originalName),
  });
  const documents = form.files.map((file, index): StoredDocument => {
    const filename = file.key.slice(file.key.lastIndexOf('/') + 1);
    return {
      position: index + 1,
      filename,
      originalName: cleanOriginalName(file.originalName, filename),
      size: file.bytes,
      contentType: file.contentType,
      blobKey: file.key,
    };
  });
  return { fields: form.fields, documents };
}
