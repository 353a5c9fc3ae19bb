/** Error values the simulated service answers with: `{ "errors": [{ "code", "message" }] }`. */
import { isUuid } from '../src/service/contract.js';

export interface ErrorEntry {
  code: string;
  message: string;
}

export class ApiError extends Error {
  readonly entries: ErrorEntry[];

  constructor(
    readonly status: number,
    code: string,
    message: string,
    more: ErrorEntry[] = [],
  ) {
    super(message);
    this.entries = [{ code, message }, ...more];
  }

  /** Several validation problems reported at once (one entry each, all 400 VALIDATION_ERROR). */
  static validation(messages: string[]): ApiError {
    const [first, ...rest] = messages;
    return new ApiError(
      400,
      'VALIDATION_ERROR',
      first ?? 'invalid request',
      rest.map((message) => ({ code: 'VALIDATION_ERROR', message })),
    );
  }

  toBody(): { errors: ErrorEntry[] } {
    return { errors: this.entries };
  }
}

export const badRequest = (message: string, code = 'VALIDATION_ERROR'): ApiError =>
  new ApiError(400, code, message);
export const unauthenticated = (message: string): ApiError => new ApiError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'FORBIDDEN', message);
export const notFound = (message: string): ApiError => new ApiError(404, 'NOT_FOUND', message);
export const conflict = (message: string): ApiError => new ApiError(409, 'CONFLICT', message);

/** Throws 400 naming `field` unless `value` is a UUID (the contract's one pattern). */
export function requireUuid(value: string, field: string): string {
  if (!isUuid(value)) throw badRequest(`${field} must be a valid UUID`);
  return value;
}
