import type { ReactNode } from 'react';
import { doNotCallMark } from '@warmline/contracts/do-not-call';
import { usDate } from '../../lib/us-date';
import './do-not-call.css';

/**
 * A prospect's phone as the agent who holds it sees it (issue 24): a call link while it may be
 * called; once it opted out, the number without a link and 'Do not call — opted out on 11/27/2026'.
 */
export function DoNotCallPhone({ href, optedOutAt, linkClassName = 'link', children }: { href: string; optedOutAt: string | null; linkClassName?: string; children: ReactNode }) {
  if (!optedOutAt) {
    return (
      <a className={linkClassName} href={href}>
        {children}
      </a>
    );
  }
  return (
    <span className="do-not-call">
      <span className="do-not-call__phone">{children}</span>
      <strong className="do-not-call__mark" data-testid="do-not-call">
        {doNotCallMark(usDate(optedOutAt))}
      </strong>
    </span>
  );
}
