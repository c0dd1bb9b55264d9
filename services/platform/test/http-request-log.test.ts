import { describe, expect, it } from 'vitest';
import { CALLBACK_WEBHOOK_PATH } from '@warmline/contracts';
import { createLogger } from '../src/log';
import { requestLog } from '../src/http/request-log';

/** The log lines a logger at `level` writes, parsed. */
function capturedLogger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger('test', level, { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) });
  return { log, lines };
}

describe('the request log (docs/adr/0051)', () => {
  it("when vendors call many times a second, then each call is a debug line and one info line a second counts them by status; other routes keep an info line each", () => {
    const { log, lines } = capturedLogger('debug');
    let now = 1_000_000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const record = requestLog(log);
      for (let i = 0; i < 50; i += 1) {
        record(log, { method: 'POST', url: CALLBACK_WEBHOOK_PATH, status: i % 10 === 0 ? 401 : 200, ms: i });
        now += 10;
      }
      record(log, { method: 'GET', url: '/api/current-user', status: 200, ms: 3 });
      now += 600;
      record(log, { method: 'POST', url: CALLBACK_WEBHOOK_PATH, status: 200, ms: 2 });
    } finally {
      Date.now = realNow;
    }
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.filter((l) => l.url === CALLBACK_WEBHOOK_PATH).every((l) => l.level === 20)).toBe(true);
    expect(requests.filter((l) => l.url === CALLBACK_WEBHOOK_PATH)).toHaveLength(51);
    expect(requests.filter((l) => l.url === '/api/current-user')).toEqual([expect.objectContaining({ level: 30, status: 200 })]);
    const sampled = lines.filter((l) => l.msg === 'vendor calls (sampled; each at debug)');
    // 51 calls over 1.1 s: one line once the first second is over, with the calls of that second.
    expect(sampled).toHaveLength(1);
    expect(sampled[0]).toMatchObject({ level: 30, vendorCalls: 51, byStatus: { 200: 46, 401: 5 }, slowestMs: 49 });
  });

  it('when the log is at info, then a vendor call writes no line of its own', () => {
    const { log, lines } = capturedLogger('info');
    requestLog(log)(log, { method: 'POST', url: CALLBACK_WEBHOOK_PATH, status: 200, ms: 1 });
    expect(lines).toEqual([]);
  });
});
