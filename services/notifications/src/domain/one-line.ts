/** Subjects are one line: a name typed with a line break cannot add e-mail headers. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, 200);
}
