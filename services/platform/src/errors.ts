/**
 * The one error type of WarmLine (CONVENTIONS: practica's AppError). Domain code throws
 * meaningful errors; the HTTP kit maps `status` to the response and shows `message` to
 * the user, so the message must be fit for a user to read.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = code;
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError('BadRequest', message, 400, details);
export const unauthorized = (message = 'Not authenticated') =>
  new AppError('Unauthorized', message, 401);
export const forbidden = (message = 'Admin access required') =>
  new AppError('Forbidden', message, 403);
export const notFound = (message = 'Not found') => new AppError('NotFound', message, 404);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError('Conflict', message, 409, details);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError('TooManyRequests', message, 429, { retryAfterSeconds });
