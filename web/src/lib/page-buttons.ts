/** The numbered page buttons of a pager: at most `max`, around the current page, within 1..totalPages. */
export function pageButtons(current: number, totalPages: number, max = 5): number[] {
  if (totalPages <= 0) return [];
  const count = Math.min(max, totalPages);
  const first = Math.max(1, Math.min(current - Math.floor(max / 2), totalPages - count + 1));
  return Array.from({ length: count }, (_, i) => first + i);
}
