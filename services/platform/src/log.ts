import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths whose values never reach a log line. */
const REDACTED_PATHS = [
  'password',
  'newPassword',
  'confirmPassword',
  'token',
  'passwordHash',
  '*.password',
  '*.newPassword',
  '*.token',
  '*.passwordHash',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-warmline-identity"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
];

export function createLogger(
  service: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  const options = {
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination ? pino(options, destination) : pino(options);
}
