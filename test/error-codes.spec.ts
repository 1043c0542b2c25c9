/**
 * One closed list of error codes (src/engine/errors/error-code.ts), documented in one table of the
 * README, and every one of them given an HTTP status (a missing case does not compile; this checks
 * that the switch also answers every code at run time).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpStatus } from '@nestjs/common';
import { statusForCode } from '../src/api/common/error-status';
import { ERROR_CODES } from '../src/engine/errors';

const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

function documentedCodes(): Set<string> {
  const start = readme.indexOf('## Error codes');
  const end = readme.indexOf('Warnings (`warnings[]`', start);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return new Set([...readme.slice(start, end).matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1]!));
}

it('the README table documents exactly the codes of the closed list', () => {
  const documented = documentedCodes();
  expect([...ERROR_CODES].filter((c) => !documented.has(c))).toEqual([]);
  expect([...documented].filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
});

it('every code maps to an HTTP error status', () => {
  for (const code of ERROR_CODES) {
    const status = statusForCode(code);
    expect(status).toBeGreaterThanOrEqual(HttpStatus.BAD_REQUEST);
    expect(status).toBeLessThan(600);
  }
  expect(statusForCode('NOT_FOUND')).toBe(HttpStatus.NOT_FOUND);
  expect(statusForCode('REQUEST_INVALID')).toBe(HttpStatus.UNPROCESSABLE_ENTITY);
  expect(statusForCode('ROLE_REQUIRED')).toBe(HttpStatus.UNAUTHORIZED);
});
