/** The page rules of spec 4.3/8: offset from 0 (default 0), limit from 1 (default 100), cut at 1000. */
import { InvalidPageRequestError } from './storage-errors';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

export interface ValidPage {
  readonly offset: number;
  /** After the cap: what the ResultPage reports as `limit`. */
  readonly limit: number;
}

/** Numbers, or the raw query-string text (`"20"`), so the HTTP layer can pass either. */
export function validatePageRequest(
  page: { offset?: number | string; limit?: number | string } = {},
): ValidPage {
  const offset = integerOrDefault('offset', page.offset, 0);
  const limit = integerOrDefault('limit', page.limit, DEFAULT_PAGE_LIMIT);
  if (offset < 0)
    throw new InvalidPageRequestError('offset must be an integer of at least 0', { field: 'offset' });
  if (limit < 1)
    throw new InvalidPageRequestError('limit must be an integer of at least 1', { field: 'limit' });
  return { offset, limit: Math.min(limit, MAX_PAGE_LIMIT) };
}

function integerOrDefault(field: string, value: number | string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new InvalidPageRequestError(`${field} must be an integer`, { field });
  }
  return n;
}
