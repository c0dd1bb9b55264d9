import { describe, expect, it } from 'vitest';
import { attachmentDisposition, cleanOriginalName } from '../src/domain/documents';

describe('a document\'s names', () => {
  it('keeps the sender\'s name without its path, control characters or more than 300 characters', () => {
    expect(cleanOriginalName('C:\\fakepath\\profile.pdf', 'doc-1.pdf')).toBe('profile.pdf');
    expect(cleanOriginalName('a\u0000b\nc.pdf', 'doc-1.pdf')).toBe('abc.pdf');
    expect(cleanOriginalName('   ', 'doc-1.pdf')).toBe('doc-1.pdf');
    const long = cleanOriginalName(`${'x'.repeat(400)}.docx`, 'doc-1.docx');
    expect(long).toHaveLength(300);
    expect(long.endsWith('.docx')).toBe(true);
  });

  it('reads a name as the browser sent it: UTF-8 bytes, " as %22', () => {
    const asLatin1 = Buffer.from('Résumé "final".pdf', 'utf8').toString('latin1').replace(/"/g, '%22');
    expect(cleanOriginalName(asLatin1, 'doc-1.pdf')).toBe('Résumé "final".pdf');
    expect(cleanOriginalName('Résumé.pdf', 'doc-1.pdf')).toBe('Résumé.pdf');
    expect(cleanOriginalName('履歴書.pdf', 'doc-1.pdf')).toBe('履歴書.pdf');
  });

  it('gives it back as an attachment that no name can break out of', () => {
    expect(attachmentDisposition('profile.pdf')).toBe(`attachment; filename="profile.pdf"; filename*=UTF-8''profile.pdf`);
    expect(attachmentDisposition('a"; filename="evil.html')).toBe(
      `attachment; filename="a_; filename=_evil.html"; filename*=UTF-8''a%22%3B%20filename%3D%22evil.html`,
    );
    expect(attachmentDisposition('100%\\x.pdf')).toBe(`attachment; filename="100__x.pdf"; filename*=UTF-8''100%25%5Cx.pdf`);
    expect(attachmentDisposition('履歴書.pdf')).toBe(`attachment; filename="___.pdf"; filename*=UTF-8''%E5%B1%A5%E6%AD%B4%E6%9B%B8.pdf`);
  });
});
