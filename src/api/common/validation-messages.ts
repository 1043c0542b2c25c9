/**
 * The 422 detail of a request body that fails its DTO: every failing constraint, as Nest words
 * them, except that a field of the wrong type reports only that. A number sent as
 * `natural_language` would otherwise read "must be shorter than or equal to 4000 characters; must
 * be a string", the first half of which is no help.
 */
import { UnprocessableEntityException } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/** class-validator's constraint names for "this is not even the right type". */
const TYPE_CONSTRAINTS = new Set([
  'isString',
  'isBoolean',
  'isInt',
  'isNumber',
  'isArray',
  'isObject',
  'nestedValidation',
]);

export function validationMessages(errors: readonly ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const constraints = e.constraints ?? {};
    const names = Object.keys(constraints);
    const typeNames = names.filter((n) => TYPE_CONSTRAINTS.has(n));
    for (const n of typeNames.length ? typeNames : names)
      out.push(parent ? `${parent}.${constraints[n]}` : constraints[n]!);
    if (e.children?.length) {
      out.push(...validationMessages(e.children, parent ? `${parent}.${e.property}` : e.property));
    }
  }
  return out;
}

/** The ValidationPipe's exceptionFactory: a 422 whose detail joins the messages (see the filter). */
export function invalidRequest(errors: ValidationError[]): UnprocessableEntityException {
  return new UnprocessableEntityException(validationMessages(errors));
}
