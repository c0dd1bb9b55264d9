import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DocumentTypeCheck, detectDocumentType, typeMatchesName, typeOfName } from '../src/file-type';

/**
 * Documents are typed by their bytes: each of the five kinds from real minimal files, and the
 * files that only pretend (a renamed program, HTML, a plain ZIP, a type the name does not say).
 */

const pdf = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');
interface OleEntry {
  name: string;
  kind: 'storage' | 'stream';
  children?: OleEntry[];
}

/**
 * An OLE compound file (version 3, 512-byte sectors) with these entries under its root: a header,
 * one FAT sector, then the directory. Streams are empty; what a check reads is the directory.
 */
function ole(rootEntries: OleEntry[]): Buffer {
  const FREE = 0xffffffff;
  const END = 0xfffffffe;
  const flat: Array<{ name: string; type: number; right: number; child: number }> = [{ name: 'Root Entry', type: 5, right: FREE, child: FREE }];
  /** Adds siblings as a chain of right siblings (a valid, if lopsided, tree); the first one's index. */
  const add = (entries: OleEntry[]): number => {
    const indexes = entries.map((e) => flat.push({ name: e.name, type: e.kind === 'storage' ? 1 : 2, right: FREE, child: FREE }) - 1);
    entries.forEach((e, i) => {
      flat[indexes[i]!]!.right = indexes[i + 1] ?? FREE;
      if (e.children?.length) flat[indexes[i]!]!.child = add(e.children);
    });
    return indexes[0] ?? FREE;
  };
  flat[0]!.child = add(rootEntries);
  const directorySectors = Math.ceil(flat.length / 4);
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18);
  header.writeUInt16LE(3, 0x1a);
  header.writeUInt16LE(0xfffe, 0x1c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(1, 0x2c);
  header.writeUInt32LE(1, 0x30);
  header.writeUInt32LE(4096, 0x38);
  header.writeUInt32LE(END, 0x3c);
  header.writeUInt32LE(END, 0x44);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0);
  for (let i = 1; i <= directorySectors; i++) fat.writeUInt32LE(i === directorySectors ? END : i + 1, i * 4);
  const directory = Buffer.alloc(directorySectors * 512);
  flat.forEach((entry, i) => {
    const at = i * 128;
    directory.write(entry.name, at, 'utf16le');
    directory.writeUInt16LE((entry.name.length + 1) * 2, at + 0x40);
    directory.writeUInt8(entry.type, at + 0x42);
    directory.writeUInt32LE(FREE, at + 0x44);
    directory.writeUInt32LE(entry.right, at + 0x48);
    directory.writeUInt32LE(entry.child, at + 0x4c);
    directory.writeUInt32LE(END, at + 0x74);
  });
  return Buffer.concat([header, fat, directory]);
}

/** A legacy Word document as its directory shows it (what .doc files hold). */
const WORD_ENTRIES: OleEntry[] = [
  { name: 'WordDocument', kind: 'stream' },
  { name: '1Table', kind: 'stream' },
  { name: '\u0005SummaryInformation', kind: 'stream' },
];
const doc = ole(WORD_ENTRIES);
/** A 1×1 JPEG (JFIF) and a 1×1 PNG. */
const jpg = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** A Windows program's start (DOS header, then the PE stub's message). */
const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from('This program cannot be run in DOS mode.\r\n'), Buffer.alloc(200)]);
const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const WORD_BODY = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';
const DOCX_ENTRIES: ZipEntry[] = [
  { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES), deflate: true },
  { name: '_rels/.rels', data: Buffer.from('<Relationships/>'), deflate: true },
  { name: 'word/document.xml', data: Buffer.from(WORD_BODY), deflate: true },
];

interface ZipEntry {
  name: string;
  data: Buffer;
  deflate?: boolean;
}

/**
 * A ZIP as writers make them: sizes in each local header, or (`descriptors`, as streaming writers
 * do) zero there and a data descriptor after the data; then the central directory.
 */
function zip(entries: ZipEntry[], { descriptors = false } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(descriptors ? 0x08 : 0, 6);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt32LE(descriptors ? 0 : crc, 14);
    local.writeUInt32LE(descriptors ? 0 : body.length, 18);
    local.writeUInt32LE(descriptors ? 0 : entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, body);
    let size = local.length + name.length + body.length;
    if (descriptors) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(body.length, 8);
      descriptor.writeUInt32LE(entry.data.length, 12);
      parts.push(descriptor);
      size += descriptor.length;
    }
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(descriptors ? 0x08 : 0, 8);
    header.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += size;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

/** Streams `data` through a DocumentTypeCheck in chunks of `chunkBytes`: what came out, or the refusal. */
async function check(fileName: string, data: Buffer, chunkBytes = 64 * 1024) {
  const checker = new DocumentTypeCheck(fileName);
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += chunkBytes) chunks.push(data.subarray(at, at + chunkBytes));
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.push(chunk);
      done();
    },
  });
  try {
    await pipeline(Readable.from(chunks), checker, sink);
    return { passed: Buffer.concat(out), contentType: checker.contentType, detected: checker.detected, error: undefined };
  } catch (error) {
    return { passed: Buffer.concat(out), contentType: checker.contentType, detected: checker.detected, error: error as Error & { status?: number } };
  }
}

describe('detectDocumentType: the type from the first bytes', () => {
  it('knows each of the five kinds from real minimal files', () => {
    expect(detectDocumentType(pdf)).toEqual({ extension: 'pdf', contentType: 'application/pdf' });
    expect(detectDocumentType(doc)).toEqual({ extension: 'doc', contentType: 'application/msword' });
    expect(detectDocumentType(zip(DOCX_ENTRIES))).toEqual({
      extension: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(detectDocumentType(jpg)).toEqual({ extension: 'jpg', contentType: 'image/jpeg' });
    expect(detectDocumentType(png)).toEqual({ extension: 'png', contentType: 'image/png' });
  });

  it('knows nothing else: a program, HTML, a plain ZIP, too few bytes', () => {
    expect(detectDocumentType(exe)).toBeNull();
    expect(detectDocumentType(html)).toBeNull();
    expect(detectDocumentType(zip([{ name: 'notes.txt', data: Buffer.from('hello') }]))).toBeNull();
    expect(detectDocumentType(Buffer.from('%PD'))).toBeNull();
    expect(detectDocumentType(Buffer.alloc(0))).toBeNull();
  });

  it('a ZIP whose Word entry lies past the head is not known from the head (the stream check decides)', () => {
    const late = zip([{ name: 'word/media/image1.png', data: randomBytes(256 * 1024) }, ...DOCX_ENTRIES]);
    expect(detectDocumentType(late.subarray(0, 4096))).toBeNull();
    expect(detectDocumentType(late)?.extension).toBe('docx');
  });
});

describe('typeMatchesName', () => {
  it('the extension must be the detected type’s, in any case; .jpg and .jpeg are both JPEG', () => {
    const jpeg = detectDocumentType(jpg)!;
    expect(typeMatchesName(jpeg, 'photo.jpg')).toBe(true);
    expect(typeMatchesName(jpeg, 'photo.JPEG')).toBe(true);
    expect(typeMatchesName(jpeg, 'photo.png')).toBe(false);
    expect(typeMatchesName(detectDocumentType(pdf)!, 'Licence.PDF')).toBe(true);
    expect(typeMatchesName(detectDocumentType(pdf)!, 'licence.pdf.exe')).toBe(false);
    expect(typeMatchesName(detectDocumentType(pdf)!, 'pdf')).toBe(false);
    expect(typeOfName('archive.zip')).toBeNull();
  });
});

describe('DocumentTypeCheck: the whole file as it streams', () => {
  it('passes each kind named by its extension, bytes unchanged, and says its type at the end', async () => {
    const files: Array<[string, Buffer, string]> = [
      ['licence.pdf', pdf, 'application/pdf'],
      ['resume.doc', doc, 'application/msword'],
      ['resume.docx', zip(DOCX_ENTRIES), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['photo.jpg', jpg, 'image/jpeg'],
      ['photo.jpeg', jpg, 'image/jpeg'],
      ['logo.png', png, 'image/png'],
    ];
    for (const [name, data, contentType] of files) {
      const result = await check(name, data);
      expect(result.error, name).toBeUndefined();
      expect(result.passed.equals(data), name).toBe(true);
      expect(result.contentType, name).toBe(contentType);
    }
  });

  it('a renamed program named .pdf → 400 the content is not a PDF', async () => {
    const { error } = await check('invoice.pdf', exe);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe('invoice.pdf: the content is not a PDF');
  });

  it('an HTML file named .pdf → the content is not a PDF, and none of it passes', async () => {
    const { error, passed } = await check('resume.pdf', html);
    expect(error?.message).toBe('resume.pdf: the content is not a PDF');
    expect(passed.length).toBe(0);
  });

  it('a plain ZIP named .docx → the content is not a DOCX', async () => {
    const plain = zip([{ name: 'notes.txt', data: Buffer.from('hello'), deflate: true }, { name: 'word.xml', data: Buffer.from('<x/>') }]);
    expect((await check('resume.docx', plain)).error?.message).toBe('resume.docx: the content is not a DOCX');
  });

  it('a DOCX whose Word entry comes after a large first entry is a DOCX', async () => {
    const big = randomBytes(3 * 1024 * 1024);
    const late = zip([{ name: 'word/media/image1.png', data: big }, ...DOCX_ENTRIES]);
    const result = await check('proposal.docx', late);
    expect(result.error).toBeUndefined();
    expect(result.detected?.extension).toBe('docx');
    expect(result.passed.equals(late)).toBe(true);
  });

  it('a DOCX written with data descriptors (sizes after the data) is a DOCX, even a byte at a time', async () => {
    const streamed = zip([{ name: 'word/media/image1.png', data: randomBytes(128 * 1024), deflate: true }, ...DOCX_ENTRIES], { descriptors: true });
    expect((await check('proposal.docx', streamed)).detected?.extension).toBe('docx');
    expect((await check('proposal.docx', streamed, 1)).detected?.extension).toBe('docx');
  });

  it('a ZIP holding a DOCX as a stored entry is not a DOCX (the walk skips entry data by its size)', async () => {
    const nested = zip([{ name: 'inner.docx', data: zip(DOCX_ENTRIES) }, { name: 'readme.txt', data: Buffer.from('hi') }]);
    expect((await check('resume.docx', nested)).error?.message).toBe('resume.docx: the content is not a DOCX');
  });

  it('a macro-enabled Word document (.docm) named .docx is refused', async () => {
    const docm = zip([...DOCX_ENTRIES, { name: 'word/vbaProject.bin', data: randomBytes(512) }]);
    expect((await check('resume.docx', docm)).error?.message).toBe('resume.docx: the content is not a DOCX');
  });

  it('a legacy Word document with macros (its VBA storage) named .doc is refused like a macro .docx', async () => {
    const withMacros = ole([...WORD_ENTRIES, { name: 'Macros', kind: 'storage', children: [{ name: 'VBA', kind: 'storage', children: [{ name: 'dir', kind: 'stream' }] }, { name: 'PROJECT', kind: 'stream' }] }]);
    expect((await check('resume.doc', withMacros)).error?.message).toBe('resume.doc: the content is not a DOC');
    // A macro project hidden in an embedded object counts as well.
    const embedded = ole([...WORD_ENTRIES, { name: 'ObjectPool', kind: 'storage', children: [{ name: '_1234', kind: 'storage', children: [{ name: '_VBA_PROJECT_CUR', kind: 'storage' }] }] }]);
    expect((await check('resume.doc', embedded)).error?.message).toBe('resume.doc: the content is not a DOC');
    expect(detectDocumentType(withMacros)).toBeNull();
  });

  it('an OLE file that is not a Word document (a spreadsheet, an installer, a broken directory) named .doc is refused', async () => {
    const workbook = ole([{ name: 'Workbook', kind: 'stream' }]);
    expect((await check('resume.doc', workbook)).error?.message).toBe('resume.doc: the content is not a DOC');
    // A Word document nested in another file's storage is not this file being one.
    const nested = ole([{ name: 'Workbook', kind: 'stream' }, { name: 'MBD0001', kind: 'storage', children: WORD_ENTRIES }]);
    expect((await check('resume.doc', nested)).error?.message).toBe('resume.doc: the content is not a DOC');
    const headerOnly = doc.subarray(0, 512);
    expect((await check('resume.doc', headerOnly)).error?.message).toBe('resume.doc: the content is not a DOC');
    expect(detectDocumentType(workbook)).toBeNull();
    // Fed a byte at a time, a real one still passes whole.
    const slow = await check('resume.doc', doc, 7);
    expect(slow.error).toBeUndefined();
    expect(slow.passed.equals(doc)).toBe(true);
  });

  it('a PNG named .jpg → the content is not a JPG; a DOCX named .pdf → not a PDF', async () => {
    expect((await check('photo.jpg', png)).error?.message).toBe('photo.jpg: the content is not a JPG');
    expect((await check('cv.pdf', zip(DOCX_ENTRIES))).error?.message).toBe('cv.pdf: the content is not a PDF');
    expect((await check('cv.doc', zip(DOCX_ENTRIES))).error?.message).toBe('cv.doc: the content is not a DOC');
  });

  it('a name that is not one of the five → the file type is not allowed, whatever the content', async () => {
    const allowed = '(PDF, DOC, DOCX, JPG, PNG)';
    expect((await check('report.exe', exe)).error?.message).toBe(`report.exe: the file type is not allowed ${allowed}`);
    expect((await check('report.zip', zip(DOCX_ENTRIES))).error?.message).toBe(`report.zip: the file type is not allowed ${allowed}`);
    expect((await check('report', pdf)).error?.message).toBe(`report: the file type is not allowed ${allowed}`);
  });

  it('an empty file, and one shorter than a signature', async () => {
    expect((await check('empty.pdf', Buffer.alloc(0))).error?.message).toBe('empty.pdf: the file is empty');
    expect((await check('short.pdf', Buffer.from('%PD'))).error?.message).toBe('short.pdf: the content is not a PDF');
    expect((await check('tiny.jpg', Buffer.from([0xff, 0xd8, 0xff]))).detected?.extension).toBe('jpg');
  });
});
