import { findPublicRoute } from '@warmline/contracts';
import type { Logger } from '../log';

/** What the kit logs of one request. */
export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms: number;
}

/**
 * The request log (issue 27, docs/adr/0051). Every request is one info line, except the voice-AI
 * vendors' keyed calls (the manifest's 'vendor-key' routes): hundreds a second, each is logged at
 * debug, and one info line a second at most tells how many there were, by status, and the
 * slowest — so a log at info still shows the traffic and its failures without a line a call.
 */
export function requestLog(log: Logger, everyMs = 1000): (requestLog: Logger, line: RequestLine) => void {
  let since = Date.now();
  let calls = 0;
  let slowestMs = 0;
  let byStatus: Record<string, number> = {};
  return (requestLog, line) => {
    if (findPublicRoute(line.method, line.url).route?.access !== 'vendor-key') {
      requestLog.info(line, 'request');
      return;
    }
    requestLog.debug(line, 'request');
    calls += 1;
    slowestMs = Math.max(slowestMs, line.ms);
    byStatus[line.status] = (byStatus[line.status] ?? 0) + 1;
    const now = Date.now();
    if (now - since < everyMs) return;
    // The line that closes a period carries its counts; a quiet period has no line.
    log.info({ vendorCalls: calls, byStatus, slowestMs, seconds: Math.round((now - since) / 100) / 10, last: line }, 'vendor calls (sampled; each at debug)');
    since = now;
    calls = 0;
    slowestMs = 0;
    byStatus = {};
  };
}
