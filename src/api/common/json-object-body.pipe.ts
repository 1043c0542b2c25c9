/**
 * A body bound to a request DTO must be a JSON object. The JSON parser lets an array through, and
 * the DTO's checks then report its fields as missing ("natural_language must be a string"), which
 * points the wrong way. Registered ahead of the ValidationPipe, this says what is wrong instead.
 * (A body that is not an object or an array never gets here: see the error filter's unparsable
 * body.)
 */
import {
  Injectable,
  UnprocessableEntityException,
  type ArgumentMetadata,
  type PipeTransform,
} from '@nestjs/common';

/** The 422 detail of a body that is JSON but not an object (this pipe, and the error filter's). */
export const NOT_A_JSON_OBJECT = 'the request body must be a JSON object';

@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body' && Array.isArray(value) && isRequestDto(metadata.metatype))
      throw new UnprocessableEntityException(NOT_A_JSON_OBJECT);
    return value;
  }
}

/** A class of our own, not a built-in such as Object or Array (a route reading the body loosely). */
function isRequestDto(metatype: ArgumentMetadata['metatype']): boolean {
  return typeof metatype === 'function' && ![Object, Array].includes(metatype as never);
}
