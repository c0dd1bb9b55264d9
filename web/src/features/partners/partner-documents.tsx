import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { PARTNER_DOCUMENT_MAX_BYTES, PARTNER_DOCUMENT_MAX_FILES, PARTNER_DOCUMENT_TYPES } from '@warmline/contracts/partners';
import { Button } from '../../components/button';
import { FieldError } from '../../components/field';
import { FileIcon, UploadIcon } from '../../components/icons';
import { formatBytes } from '../admin/lead-imports/lead-import-progress';

/** What the picker offers (the server decides by the bytes; the browser by the name). */
const DOCUMENT_ACCEPT = Object.keys(PARTNER_DOCUMENT_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');
const KINDS = 'PDF, Word (.doc, .docx), JPG or PNG';

const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
const sameFile = (a: File, b: File) => a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/**
 * The documents chosen or dropped, added to those already attached: what may be sent, and why
 * each of the others may not (spec §5, §9: the six kinds, 10 MB each; issue 14: at most 5).
 */
export function addDocuments(attached: readonly File[], incoming: readonly File[]): { files: File[]; refused: string[] } {
  const files = [...attached];
  const refused: string[] = [];
  for (const file of incoming) {
    if (!Object.hasOwn(PARTNER_DOCUMENT_TYPES, extensionOf(file.name))) {
      refused.push(`${file.name} is not a ${KINDS} file`);
    } else if (file.size > PARTNER_DOCUMENT_MAX_BYTES) {
      refused.push(`${file.name} is ${formatBytes(file.size)}; each document can be at most ${formatBytes(PARTNER_DOCUMENT_MAX_BYTES)}`);
    } else if (file.size === 0) {
      refused.push(`${file.name} is empty`);
    } else if (files.some((f) => sameFile(f, file))) {
      refused.push(`${file.name} is already attached`);
    } else if (files.length >= PARTNER_DOCUMENT_MAX_FILES) {
      refused.push(`${file.name} was not added: at most ${PARTNER_DOCUMENT_MAX_FILES} documents can be attached`);
    } else {
      files.push(file);
    }
  }
  return { files, refused };
}

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: { dataTransfer: DataTransfer | null }) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Optional documents: a zone to drop files on and a Choose Files button (the keyboard's way),
 * the attached files with name and size, each removable, and the reasons a file was refused.
 * A file dropped beside the zone is not opened by the browser (the form would be lost).
 */
export function DocumentPicker({
  files,
  onChange,
  error,
  disabled,
}: {
  files: readonly File[];
  onChange(files: File[]): void;
  /** The server's refusal of a document. */
  error?: string | undefined;
  disabled?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const refusedId = `${id}-refused`;
  const errorId = `${id}-error`;
  const input = useRef<HTMLInputElement>(null);
  const zone = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [refused, setRefused] = useState<string[]>([]);
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const [focusAt, setFocusAt] = useState<number | null>(null);

  // A file dropped anywhere else on the page would replace it with the file: nothing typed would survive.
  useEffect(() => {
    const keep = (event: globalThis.DragEvent) => {
      if (carriesFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  // After a removal the cursor goes to the next Remove button, or back to Choose Files.
  useEffect(() => {
    if (focusAt === null) return;
    const buttons = list.current?.querySelectorAll('button');
    const next = buttons?.[Math.min(focusAt, buttons.length - 1)];
    (next ?? zone.current?.querySelector('button'))?.focus();
    setFocusAt(null);
  }, [focusAt]);

  const add = (incoming: readonly File[]) => {
    if (disabled || incoming.length === 0) return;
    const result = addDocuments(files, incoming);
    setRefused(result.refused);
    if (result.files.length !== files.length) onChange(result.files);
  };

  const drag = (event: DragEvent<HTMLDivElement>, change: 1 | -1 | 0) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    if (disabled) return;
    if (change !== 0) {
      depth.current = Math.max(0, depth.current + change);
      setOver(depth.current > 0);
    }
  };

  const described = [hintId, refused.length ? refusedId : '', error ? errorId : ''].filter(Boolean).join(' ');

  return (
    <fieldset className="partner-docs" aria-describedby={described} disabled={disabled}>
      {/* Named by the section's heading on screen; the group keeps the name for screen readers. */}
      <legend className="visually-hidden">Documents (optional)</legend>
      <p id={hintId} className="field__hint">
        A license, a W-9 or a company overview help us review faster. {KINDS}; up to {formatBytes(PARTNER_DOCUMENT_MAX_BYTES)} each, at most{' '}
        {PARTNER_DOCUMENT_MAX_FILES} files.
      </p>
      <div
        ref={zone}
        className={over ? 'partner-docs__zone partner-docs__zone--over' : 'partner-docs__zone'}
        data-testid="document-drop-zone"
        onDragEnter={(e) => drag(e, 1)}
        onDragOver={(e) => drag(e, 0)}
        onDragLeave={(e) => drag(e, -1)}
        onDrop={(e) => {
          if (!carriesFiles(e)) return;
          e.preventDefault();
          depth.current = 0;
          setOver(false);
          add(Array.from(e.dataTransfer.files));
        }}
      >
        <span className="partner-docs__icon">
          <UploadIcon />
        </span>
        <p className="partner-docs__prompt">
          {over ? (
            'Drop the files to attach them'
          ) : (
            <>
              <span className="partner-docs__drag">Drag and drop files here, or</span>
              {/* A phone has no files to drag. */}
              <span className="partner-docs__touch">Add your documents</span>
            </>
          )}
        </p>
        <Button variant="secondary" className="btn--small" onClick={() => input.current?.click()} disabled={disabled || files.length >= PARTNER_DOCUMENT_MAX_FILES}>
          Choose Files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={DOCUMENT_ACCEPT}
          hidden
          aria-label="Documents"
          onChange={(e) => {
            add(Array.from(e.target.files ?? []));
            // The same file can be chosen again after it was removed.
            e.target.value = '';
          }}
        />
      </div>
      {refused.length ? (
        <div id={refusedId} className="field__error partner-docs__refused" role="alert">
          {refused.length === 1 ? (
            <p>{refused[0]}.</p>
          ) : (
            <>
              <p>These files were not attached:</p>
              <ul>
                {refused.map((reason, i) => (
                  <li key={i}>{reason}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : null}
      <FieldError id={errorId} error={error} />
      {files.length ? (
        <ul ref={list} className="partner-docs__list" aria-label="Attached documents">
          {files.map((file, i) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}`}
              // The file the server's refusal names is marked in the list.
              className={error?.includes(file.name) ? 'partner-docs__file partner-docs__file--refused' : 'partner-docs__file'}
            >
              <FileIcon size={22} />
              <span className="partner-docs__name">{file.name}</span>
              <span className="partner-docs__size">{formatBytes(file.size)}</span>
              <Button
                variant="ghost"
                className="btn--small"
                aria-label={`Remove ${file.name}`}
                onClick={() => {
                  onChange(files.filter((_, at) => at !== i));
                  setRefused([]);
                  setFocusAt(i);
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="partner-docs__count" aria-live="polite">
        {files.length ? `${files.length} of ${PARTNER_DOCUMENT_MAX_FILES} documents attached` : 'No documents attached'}
      </p>
    </fieldset>
  );
}
