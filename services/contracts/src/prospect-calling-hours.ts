/** The calling-hours fields of a row (issue 24 §3), apart from the rules (calling-hours.ts) so the row types can name them without a cycle. */

/** What every list shows beside a prospect (issue 24 §3): their clock, and whether a call is allowed now. */
export interface ProspectCallingHours {
  /**
   * The prospect's local time, '3:45 PM CST'; for an area code that spans two zones both clocks,
   * '7:45 PM CST / 8:45 PM EST'; 'Unknown' when neither the state nor the area code names a zone.
   */
  localTime: string;
  /** Inside the window in every zone they may be in and, where the state caps calls, under the cap. */
  callableNow: boolean;
  /**
   * Why not, or what is left: 'Opens 8:00 AM', '3 calls in 24 hours reached (Florida)',
   * '2 of 3 calls in 24 hours (Florida)', 'Local time unknown (no state or area code)'; null
   * when callable with nothing to add.
   */
  callingHoursNote: string | null;
}
