import type { Request } from 'express';
import type { RequestOrigin } from '../domain/context';

/** Who a request came from, as the account domain records it: its request id and client address. */
export function originOf(req: Request): RequestOrigin {
  return { correlationId: req.id, ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}
