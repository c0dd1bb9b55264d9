import { useId } from 'react';
import type { DncCheck } from '@warmline/contracts/dnc-registry';
import './dnc-badge.css';

/**
 * The national DNC registry's check of one phone (issue 24), wherever a lead, call-back or
 * transfer is shown: **DNC checked {date}**, **On the DNC registry** when it is on it, **DNC check
 * out of date** when the check is older than 31 days or there is none. `null`: the check could
 * not be asked (My Transfers when the catalog did not answer); `undefined`: nothing to show.
 */
export function DncBadge({ dnc }: { dnc: DncCheck | null | undefined }) {
  if (dnc === undefined) return null;
  if (dnc === null) {
    return (
      <span className="dnc-badges">
        <span className="dnc-badge dnc-badge--unknown">DNC check unavailable</span>
      </span>
    );
  }
  return (
    <span className="dnc-badges">
      {dnc.checkedOn ? <span className="dnc-badge">DNC checked {shortUsDate(dnc.checkedOn)}</span> : null}
      {dnc.onRegistry ? <span className="dnc-badge dnc-badge--match">On the DNC registry</span> : null}
      {dnc.outOfDate ? <span className="dnc-badge dnc-badge--stale">DNC check out of date</span> : null}
    </span>
  );
}

/** '2026-03-05' → '3/5/2026' (the registry's date is a calendar day: no time zone to apply). */
export function shortUsDate(day: string): string {
  const [year, month, date] = day.split('-');
  return `${Number(month)}/${Number(date)}/${year}`;
}

/**
 * The market's "Hide DNC registry matches" (issue 24): leaves out every lead on the national DNC
 * registry, those a consent certificate lets WarmLine sell included (docs/adr/0033).
 */
export function HideDncMatches({ checked, onChange }: { checked: boolean; onChange: (hide: boolean) => void }) {
  const id = useId();
  return (
    <label htmlFor={id} className="dnc-hide">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Hide DNC registry matches
    </label>
  );
}
