import { Transform, type TransformCallback } from 'node:stream';
import { PARTNER_DOCUMENT_TYPES } from '@warmline/contracts';
import { badRequest } from './errors';

/**
 * A document's type decided by its bytes, never by its name (ADR 0018): the name can say
 * anything, and an admin later opens the file on their own computer. Five kinds are known:
 * PDF, legacy Word (an OLE compound file that is a Word document, judged by its directory),
 * DOCX (a ZIP that is a Word document, judged by its entries), JPEG and PNG; an Office document
 * carrying a macro project is none of them. A file's name must then agree with what its bytes are.
 */

type DocumentExtension = 'pdf' | 'doc' | 'docx' | 'jpg' | 'png';

export interface DetectedType {
  extension: DocumentExtension;
  contentType: string;
}

const TYPES: Record<DocumentExtension, DetectedType> = {
  pdf: { extension: 'pdf', contentType: PARTNER_DOCUMENT_TYPES.pdf },
  doc: { extension: 'doc', contentType: PARTNER_DOCUMENT_TYPES.doc },
  docx: { extension: 'docx', contentType: PARTNER_DOCUMENT_TYPES.docx },
  jpg: { extension: 'jpg', contentType: PARTNER_DOCUMENT_TYPES.jpg },
  png: { extension: 'png', contentType: PARTNER_DOCUMENT_TYPES.png },
};

/** What a name's extension promises; .jpeg is a JPEG too. */
const EXTENSION_TYPES: Record<string, DocumentExtension> = { pdf: 'pdf', doc: 'doc', docx: 'docx', jpg: 'jpg', jpeg: 'jpg', png: 'png' };

const ALLOWED_DOCUMENT_TYPES_LABEL = 'PDF, DOC, DOCX, JPG, PNG';

const SIGNATURES: Array<{ kind: DocumentExtension | 'zip'; bytes: Buffer }> = [
  { kind: 'pdf', bytes: Buffer.from('%PDF-', 'latin1') },
  { kind: 'doc', bytes: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  { kind: 'jpg', bytes: Buffer.from([0xff, 0xd8, 0xff]) },
  { kind: 'png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { kind: 'zip', bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04]) },
];

/** Enough of a file's start to match every signature. */
const DOCUMENT_HEAD_BYTES = Math.max(...SIGNATURES.map((s) => s.bytes.length));

function signatureOf(head: Buffer): DocumentExtension | 'zip' | null {
  return SIGNATURES.find((s) => head.length >= s.bytes.length && head.subarray(0, s.bytes.length).equals(s.bytes))?.kind ?? null;
}

/**
 * The type of a file from its first bytes, or null when it is none of the five. A ZIP is a DOCX
 * only when its entries say so, and those may lie past `head`: this judges the entries `head`
 * holds (null if they do not show a Word document), so a whole file should stream through
 * DocumentTypeCheck instead.
 */
export function detectDocumentType(head: Buffer): DetectedType | null {
  const kind = signatureOf(head);
  if (kind === null) return null;
  if (kind === 'doc') return isWordCompoundFile(head) ? TYPES.doc : null;
  if (kind !== 'zip') return TYPES[kind];
  const entries = new ZipEntryNames();
  entries.push(head);
  return entries.isWordDocument() ? TYPES.docx : null;
}

/** The type a file name promises by its extension (case-insensitive), or null for any other. */
export function typeOfName(fileName: string): DetectedType | null {
  const extension = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const kind = extension === undefined ? undefined : EXTENSION_TYPES[extension];
  return kind ? TYPES[kind] : null;
}

/** Whether the name's extension is the detected type's (.jpg and .jpeg both for a JPEG). */
export function typeMatchesName(detected: DetectedType, fileName: string): boolean {
  return typeOfName(fileName)?.extension === detected.extension;
}

/**
 * Checks a document while it streams (bytes pass unchanged; the first few are held until the
 * type is known). Refuses, with a 400 naming the file: a name whose extension is not one of the
 * five, content that is not what the name says (a ZIP is judged at its end, by its entries), an
 * empty file. Once the stream has ended, `detected`/`contentType` say what the content is.
 */
export class DocumentTypeCheck extends Transform {
  private found: DetectedType | null = null;
  private readonly expected: DetectedType | null;
  private head: Buffer[] = [];
  private headBytes = 0;
  private zip: ZipEntryNames | null = null;
  /** An OLE file's bytes so far: its directory may lie anywhere, so it is judged whole at its end. */
  private compound: Buffer[] | null = null;
  private compoundBytes = 0;
  private decided = false;

  constructor(readonly fileName: string) {
    super();
    this.expected = typeOfName(fileName);
  }

  /** What the content is, once decided (for a ZIP, at its end); null before, or when refused. */
  get detected(): DetectedType | null {
    return this.found;
  }

  /** The detected content type once the whole file passed the check. */
  get contentType(): string | undefined {
    return this.writableFinished ? this.found?.contentType : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.decided) {
      this.zip?.push(chunk);
      if (this.compound) {
        this.compoundBytes += chunk.length;
        if (this.compoundBytes > MAX_COMPOUND_FILE_BYTES) return done(badRequest(`${this.fileName}: the file is too large`));
        this.compound.push(chunk);
      }
      return done(null, chunk);
    }
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < DOCUMENT_HEAD_BYTES) return done();
    this.decideSignature(done);
  }

  override _flush(done: TransformCallback): void {
    if (!this.decided) {
      if (this.headBytes === 0) return done(badRequest(`${this.fileName}: the file is empty`));
      // Shorter than the longest signature: judged on what there is.
      return this.decideSignature((err) => (err ? done(err) : this.finish(done)));
    }
    this.finish(done);
  }

  /** The first bytes are in: refuses what cannot be the named type, then lets them through. */
  private decideSignature(done: TransformCallback): void {
    this.decided = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    const problem = this.nameProblem();
    if (problem) return done(problem);
    const kind = signatureOf(head);
    if (kind === 'zip' && this.expected!.extension === 'docx') {
      this.zip = new ZipEntryNames();
      this.zip.push(head);
    } else if (kind === 'doc' && this.expected!.extension === 'doc') {
      this.compound = [head];
      this.compoundBytes = head.length;
    } else if (kind === null || kind === 'zip' || kind !== this.expected!.extension) {
      return done(this.mismatch());
    } else {
      this.found = TYPES[kind];
    }
    done(null, head);
  }

  private finish(done: TransformCallback): void {
    if (this.zip) {
      if (!this.zip.isWordDocument()) return done(this.mismatch());
      this.found = TYPES.docx;
    }
    if (this.compound) {
      const file = Buffer.concat(this.compound);
      this.compound = null;
      if (!isWordCompoundFile(file)) return done(this.mismatch());
      this.found = TYPES.doc;
    }
    done();
  }

  private nameProblem() {
    return this.expected ? null : badRequest(`${this.fileName}: the file type is not allowed (${ALLOWED_DOCUMENT_TYPES_LABEL})`);
  }

  private mismatch() {
    const named = /\.([^./\\]+)$/.exec(this.fileName)?.[1]?.toUpperCase() ?? this.expected!.extension.toUpperCase();
    return badRequest(`${this.fileName}: the content is not a ${named}`);
  }
}

const LOCAL_FILE_HEADER = 0x04034b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const END_RECORDS = new Set([0x06054b50, 0x06064b50, 0x07064b50]);
const HAS_DATA_DESCRIPTOR = 0x08;
const ZIP64_EXTRA = 0x0001;
const UNKNOWN_32 = 0xffffffff;
/** Longer names are not an Office document's, and a name is all the walk keeps. */
const MAX_ENTRY_NAME_BYTES = 1024;

/**
 * The entry names of a ZIP as its bytes pass, without holding the file: it walks the local file
 * headers, skipping each entry's data by its size, then the central directory. An entry written
 * with a data descriptor (its size comes after its data) is passed by searching for the next
 * header, which must look like one (a plausible name) to count. The central directory, once read
 * to the end record, is the ZIP's own list and is what counts then. Memory stays one header.
 */
class ZipEntryNames {
  /** Names from the local headers: all there is when the central directory was not reached. */
  private readonly localNames = new Set<string>();
  private readonly centralNames = new Set<string>();
  private sawEnd = false;
  private pending: Buffer = Buffer.alloc(0);
  private skip = 0;
  private mode: 'record' | 'search' | 'done' = 'record';
  /** The record at hand was found by searching, so it may be data that happens to look like one. */
  private searched = false;

  push(chunk: Buffer): void {
    if (this.mode === 'done') return;
    let data = chunk;
    if (this.skip > 0) {
      const skipped = Math.min(this.skip, data.length);
      this.skip -= skipped;
      data = data.subarray(skipped);
    }
    if (data.length === 0) return;
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    this.walk();
  }

  /** A Word document (not a macro-enabled one): its content types and its main part. */
  isWordDocument(): boolean {
    const names = this.sawEnd && this.centralNames.size > 0 ? this.centralNames : this.localNames;
    return (
      names.has('[Content_Types].xml') &&
      [...names].some((name) => /^word\/document\d*\.xml$/.test(name)) &&
      !names.has('word/vbaProject.bin')
    );
  }

  private walk(): void {
    while (this.mode !== 'done') {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, this.pending.length);
        this.skip -= skipped;
        this.pending = this.pending.subarray(skipped);
        if (this.skip > 0) return;
      }
      if (this.mode === 'search') {
        const at = findHeader(this.pending);
        if (at < 0) {
          // A signature may straddle chunks: its first three bytes stay.
          this.pending = this.pending.subarray(Math.max(0, this.pending.length - 3));
          return;
        }
        this.pending = this.pending.subarray(at);
        this.mode = 'record';
        this.searched = true;
      }
      if (this.pending.length < 4) return;
      const signature = this.pending.readUInt32LE(0);
      const read =
        signature === LOCAL_FILE_HEADER ? this.readLocalHeader()
        : signature === CENTRAL_DIRECTORY_HEADER ? this.readCentralHeader()
        : END_RECORDS.has(signature) ? 'end'
        : 'invalid';
      if (read === 'more') return;
      if (read === 'end') {
        this.sawEnd = true;
        this.mode = 'done';
      } else if (read === 'invalid') {
        if (!this.searched) {
          // Not a ZIP the walk can follow: the names so far are all it knows.
          this.mode = 'done';
        } else {
          this.pending = this.pending.subarray(1);
          this.mode = 'search';
        }
      } else {
        this.searched = false;
      }
    }
    this.pending = Buffer.alloc(0);
  }

  private readLocalHeader(): 'more' | 'ok' | 'invalid' {
    const p = this.pending;
    if (p.length < 30) return 'more';
    const flags = p.readUInt16LE(6);
    const compressedSize = p.readUInt32LE(18);
    const uncompressedSize = p.readUInt32LE(22);
    const nameLength = p.readUInt16LE(26);
    const extraLength = p.readUInt16LE(28);
    if (nameLength === 0 || nameLength > MAX_ENTRY_NAME_BYTES) return 'invalid';
    if (p.length < 30 + nameLength + extraLength) return 'more';
    const name = entryName(p.subarray(30, 30 + nameLength));
    if (name === null) return 'invalid';
    const extra = p.subarray(30 + nameLength, 30 + nameLength + extraLength);
    const size = compressedSize === UNKNOWN_32 ? zip64CompressedSize(extra, uncompressedSize === UNKNOWN_32) : compressedSize;
    this.localNames.add(name);
    this.pending = p.subarray(30 + nameLength + extraLength);
    if (flags & HAS_DATA_DESCRIPTOR || size === null) {
      // The size (if any) is only a lower bound: the next header is searched for after it.
      this.skip = size ?? 0;
      this.mode = 'search';
    } else {
      this.skip = size;
    }
    return 'ok';
  }

  private readCentralHeader(): 'more' | 'ok' | 'invalid' {
    const p = this.pending;
    if (p.length < 46) return 'more';
    const nameLength = p.readUInt16LE(28);
    const rest = nameLength + p.readUInt16LE(30) + p.readUInt16LE(32);
    if (nameLength === 0 || nameLength > MAX_ENTRY_NAME_BYTES) return 'invalid';
    if (p.length < 46 + rest) return 'more';
    const name = entryName(p.subarray(46, 46 + nameLength));
    if (name === null) return 'invalid';
    this.centralNames.add(name);
    this.pending = p.subarray(46 + rest);
    return 'ok';
  }
}

/** Where the next local or central header signature starts in `data`, or -1. */
function findHeader(data: Buffer): number {
  for (let at = data.indexOf(0x50); at >= 0 && at + 3 < data.length; at = data.indexOf(0x50, at + 1)) {
    if (data[at + 1] === 0x4b && ((data[at + 2] === 0x03 && data[at + 3] === 0x04) || (data[at + 2] === 0x01 && data[at + 3] === 0x02))) return at;
  }
  return -1;
}

/** A name as text, or null when it has control bytes (data that only looks like a header). */
function entryName(bytes: Buffer): string | null {
  for (const byte of bytes) if (byte < 0x20 || byte === 0x7f) return null;
  // The names that decide are ASCII; anything else only needs to stay distinct.
  return bytes.toString('utf8');
}

/** A ZIP64 entry's compressed size from its extra field (after the uncompressed one, if present). */
function zip64CompressedSize(extra: Buffer, hasUncompressed: boolean): number | null {
  for (let at = 0; at + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      const offset = at + 4 + (hasUncompressed ? 8 : 0);
      if (offset + 8 > at + 4 + length || offset + 8 > extra.length) return null;
      const size = extra.readBigUInt64LE(offset);
      return size <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(size) : null;
    }
    at += 4 + length;
  }
  return null;
}

/** A legacy document is at most the upload limit (10 MB); this bounds what one check holds. */
const MAX_COMPOUND_FILE_BYTES = 32 * 1024 * 1024;
/** OLE sector numbers at or above this are markers (free, end of chain, FAT, DIFAT), not sectors. */
const MAX_REGULAR_SECTOR = 0xfffffffa;
const NO_ENTRY = 0xffffffff;
const DIRECTORY_ENTRY_BYTES = 128;
/** Where Office keeps a VBA project: Word's own, and any embedded object's (Excel's, PowerPoint's). */
const MACRO_STORAGES = new Set(['macros', 'vba', '_vba_project_cur']);

interface CompoundEntry {
  name: string;
  /** 1 storage, 2 stream, 5 the root; 0 an unused slot. */
  type: number;
  left: number;
  right: number;
  child: number;
}

/**
 * Whether an OLE compound file is a Word document without macros: a `WordDocument` stream
 * directly under its root, and no VBA storage anywhere in its directory (embedded objects
 * included). Anything it cannot follow (a chain out of the file, a loop) is not one.
 */
function isWordCompoundFile(file: Buffer): boolean {
  const entries = compoundDirectory(file);
  if (!entries || entries[0]?.type !== 5) return false;
  if (entries.some((e) => (e.type === 1 || e.type === 2) && MACRO_STORAGES.has(e.name.toLowerCase()))) return false;
  const rootNames: string[] = [];
  const seen = new Set<number>();
  const pending = [entries[0].child];
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (at === NO_ENTRY) continue;
    const entry = entries[at];
    if (!entry || seen.has(at)) return false;
    seen.add(at);
    if (entry.type === 2) rootNames.push(entry.name);
    pending.push(entry.left, entry.right);
  }
  return rootNames.includes('WordDocument');
}

/** The directory entries of an OLE compound file, or null when its structure does not hold. */
function compoundDirectory(file: Buffer): CompoundEntry[] | null {
  if (file.length < 512) return null;
  const sectorShift = file.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return null;
  const sectorBytes = 1 << sectorShift;
  const sectorCount = Math.floor((file.length - 1) / sectorBytes); // after the header sector
  const sector = (n: number): Buffer | null =>
    n < sectorCount || (n === sectorCount && (n + 1) * sectorBytes < file.length) ? file.subarray((n + 1) * sectorBytes, (n + 2) * sectorBytes) : null;

  // The FAT's sectors: 109 named in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) fatSectors.push(file.readUInt32LE(0x4c + i * 4));
  const difatSeen = new Set<number>();
  for (let next = file.readUInt32LE(0x44); next < MAX_REGULAR_SECTOR; ) {
    const difat = sector(next);
    if (!difat || difatSeen.has(next)) return null;
    difatSeen.add(next);
    for (let at = 0; at + 4 < difat.length; at += 4) fatSectors.push(difat.readUInt32LE(at));
    next = difat.readUInt32LE(difat.length - 4);
  }
  const fat: number[] = [];
  for (const n of fatSectors.filter((n) => n < MAX_REGULAR_SECTOR)) {
    const part = sector(n);
    if (!part) return null;
    for (let at = 0; at + 4 <= part.length; at += 4) fat.push(part.readUInt32LE(at));
  }

  const entries: CompoundEntry[] = [];
  const chainSeen = new Set<number>();
  for (let next = file.readUInt32LE(0x30); next < MAX_REGULAR_SECTOR; next = fat[next] ?? NO_ENTRY) {
    const part = sector(next);
    if (!part || chainSeen.has(next)) return null;
    chainSeen.add(next);
    for (let at = 0; at + DIRECTORY_ENTRY_BYTES <= part.length; at += DIRECTORY_ENTRY_BYTES) {
      const nameBytes = part.readUInt16LE(at + 0x40);
      entries.push({
        name: nameBytes >= 2 && nameBytes <= 64 ? part.subarray(at, at + nameBytes - 2).toString('utf16le') : '',
        type: part.readUInt8(at + 0x42),
        left: part.readUInt32LE(at + 0x44),
        right: part.readUInt32LE(at + 0x48),
        child: part.readUInt32LE(at + 0x4c),
      });
    }
  }
  return entries.length > 0 ? entries : null;
}
