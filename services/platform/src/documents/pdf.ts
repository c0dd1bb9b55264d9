import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * One small PDF writer (issue 24's evidence pack, docs/adr/0035): a title, a subtitle, titled
 * sections of label/value lines, long values wrapped and carried over page breaks, and a footer
 * with the page number on every page. US Letter, pdf-lib's standard Helvetica: no font files to
 * ship. Helvetica's WinAnsi encoding has no glyph for most of Unicode, so characters it cannot
 * encode are written without their accents where that helps, and as '?' otherwise.
 */

export interface PdfDocumentSpec {
  title: string;
  subtitle?: string;
  sections: ReadonlyArray<{ heading: string; lines: ReadonlyArray<{ label: string; value: string }> }>;
  /** Printed at the foot of every page, before 'page N of M'. */
  footer?: string;
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
const LABEL_WIDTH = 130;
const BODY_SIZE = 10;
const LINE_HEIGHT = 13;
const FOOTER_SIZE = 8;
/** A value longer than this, or of several lines, is written under its label across the page. */
const INLINE_MAX_CHARS = 400;

export async function renderPdf(spec: PdfDocumentSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(spec.title);
  doc.setProducer('WarmLine');
  doc.setCreator('WarmLine');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const encodable = new Set(regular.getCharacterSet());
  const clean = (text: string) => encodableText(text, encodable);

  const writer = new PageWriter(doc);
  writer.paragraph(clean(spec.title), bold, 18, 22);
  if (spec.subtitle) writer.paragraph(clean(spec.subtitle), regular, 11, 15);
  writer.space(10);

  for (const section of spec.sections) {
    // A heading never sits alone at the foot of a page.
    writer.ensure(LINE_HEIGHT * 3 + 8);
    writer.space(6);
    writer.paragraph(clean(section.heading), bold, 12, 16);
    writer.rule();
    for (const line of section.lines) {
      const label = clean(line.label);
      const value = clean(line.value);
      if (value.length > INLINE_MAX_CHARS || value.includes('\n')) {
        writer.paragraph(label, bold, BODY_SIZE, LINE_HEIGHT);
        writer.paragraph(value, regular, BODY_SIZE, LINE_HEIGHT, 12);
      } else {
        writer.labelled(label, value, bold, regular);
      }
      writer.space(3);
    }
  }

  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const text = clean(`${spec.footer ? `${spec.footer}  ·  ` : ''}page ${i + 1} of ${pages.length}`);
    page.drawText(text, { x: MARGIN, y: MARGIN / 2, size: FOOTER_SIZE, font: regular, color: rgb(0.35, 0.35, 0.35) });
  });
  return doc.save();
}

/** Lays text down a page from the top, opening a new page when the next line would not fit. */
class PageWriter {
  private page: PDFPage;
  private y = PAGE_HEIGHT - MARGIN;

  constructor(private readonly doc: PDFDocument) {
    this.page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  }

  /** Starts a new page unless `height` still fits above the bottom margin. */
  ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  space(points: number): void {
    this.y -= points;
  }

  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y + 3 }, end: { x: PAGE_WIDTH - MARGIN, y: this.y + 3 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    this.y -= 4;
  }

  paragraph(text: string, font: PDFFont, size: number, leading: number, indent = 0): void {
    const width = PAGE_WIDTH - 2 * MARGIN - indent;
    for (const line of wrap(text, font, size, width)) {
      this.ensure(leading);
      this.y -= leading;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y + (leading - size) / 2, size, font });
    }
  }

  /** The label in its column, the value wrapped beside it; the pair may run over a page break. */
  labelled(label: string, value: string, labelFont: PDFFont, valueFont: PDFFont): void {
    const labelLines = wrap(label, labelFont, BODY_SIZE, LABEL_WIDTH - 8);
    const valueLines = wrap(value, valueFont, BODY_SIZE, PAGE_WIDTH - 2 * MARGIN - LABEL_WIDTH);
    const rows = Math.max(labelLines.length, valueLines.length);
    for (let i = 0; i < rows; i++) {
      this.ensure(LINE_HEIGHT);
      this.y -= LINE_HEIGHT;
      const baseline = this.y + (LINE_HEIGHT - BODY_SIZE) / 2;
      const labelLine = labelLines[i];
      const valueLine = valueLines[i];
      if (labelLine) this.page.drawText(labelLine, { x: MARGIN, y: baseline, size: BODY_SIZE, font: labelFont });
      if (valueLine) this.page.drawText(valueLine, { x: MARGIN + LABEL_WIDTH, y: baseline, size: BODY_SIZE, font: valueFont });
    }
  }
}

/** The text's lines within `width`: its own line breaks kept, words wrapped, a word wider than the line cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      line = word;
      // Longer than any line can hold: cut without measuring the whole remainder.
      const most = Math.ceil(width / (size * NARROWEST_GLYPH_EM));
      while (line.length > most || !fits(line)) {
        const cut = longestFittingPrefix(line, fits, most);
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Helvetica's narrowest glyph (the straight quote) is 0.191 em: no line holds more characters than the width over this. */
const NARROWEST_GLYPH_EM = 0.19;

/**
 * How many characters of `text` fit, at least one: a binary search over prefixes no longer than
 * `most`, so a transcript of one 100,000-character "word" is cut in time linear in its length.
 */
function longestFittingPrefix(text: string, fits: (s: string) => boolean, most: number): number {
  let low = 1;
  let high = Math.min(text.length, most);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(text.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * What Helvetica can write: tabs as spaces, line breaks as '\n', other control characters
 * dropped; a character outside WinAnsi loses its accents ('ő' → 'o') or becomes '?'.
 */
function encodableText(text: string, encodable: ReadonlySet<number>): string {
  let out = '';
  for (const char of text.replace(/\r\n?/g, '\n').replace(/\t/g, '    ')) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\n') out += char;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (encodable.has(code)) out += char;
    else {
      const bare = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += bare !== '' && [...bare].every((c) => encodable.has(c.codePointAt(0) ?? 0)) ? bare : '?';
    }
  }
  return out;
}
