/**
 * The form-fill times listed at `now`: newer than `oldestExclusive` (181 days ago, so at most
 * 180 whole days old) and no newer than `newest` (exactly 30 days ago).
 */
export interface ListingWindow {
  oldestExclusive: Date;
  newest: Date;
}
