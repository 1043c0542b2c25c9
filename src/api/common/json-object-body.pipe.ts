/**
 * A body bound to a request DTO must be a JSON object with the DTO's fields only. Registered ahead
 * of the ValidationPipe, this says what is wrong where the DTO's checks would point the wrong way:
 * - The JSON parser lets an array through, and the DTO's checks then report its fields as missing
 *   ("natural_language must be a string").
 * - An unknown field was ignored, so a typo changed what ran: `{"excute": false}` executed the SQL.
 *   It is a 422 naming the field and the closest valid one, as an unknown config key is. Only the
 *   DTO's own fields are closed: the value of an open one (`user_context`, the spec's free Dict) is
 *   not looked into, and a field holding a config (`config` of POST /datasource) is checked as one.
 * (A body that is not an object or an array never gets here: see the error filter's unparsable
 * body.)
 */
import {
  Injectable,
  UnprocessableEntityException,
  type ArgumentMetadata,
  type PipeTransform,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { unknownKeyMessage } from '../../config/strict-validate';
import { BODY_ROLE_FIELD } from './role-resolver';

/** The 422 detail of a body that is JSON but not an object (this pipe, and the error filter's). */
export const NOT_A_JSON_OBJECT = 'the request body must be a JSON object';

@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const dto = metadata.metatype;
    if (metadata.type !== 'body' || !isRequestDto(dto)) return value;
    if (Array.isArray(value)) throw new UnprocessableEntityException(NOT_A_JSON_OBJECT);
    if (value && typeof value === 'object') {
      const fields = fieldsOf(dto);
      const unknown = Object.keys(value).filter((key) => !fields.includes(key));
      if (unknown.length) {
        throw new UnprocessableEntityException(unknown.map((key) => unknownKeyMessage(key, fields, 'field')));
      }
    }
    return value;
  }
}

/** A class of our own, not a built-in such as Object or Array (a route reading the body loosely). */
function isRequestDto(metatype: ArgumentMetadata['metatype']): metatype is new () => object {
  return typeof metatype === 'function' && ![Object, Array].includes(metatype as never);
}

const FIELDS = new WeakMap<object, readonly string[]>();

/**
 * The fields a DTO declares (those with a validation rule: every field a route reads has one), and
 * the field `api.trust_body_role` reads roles from, which any body may carry.
 */
function fieldsOf(dto: new () => object): readonly string[] {
  let fields = FIELDS.get(dto);
  if (!fields) {
    const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    fields = [...new Set([...rules.map((rule) => rule.propertyName), BODY_ROLE_FIELD])];
    FIELDS.set(dto, fields);
  }
  return fields;
}
