/**
 * The OpenAPI description of `GET .../results/{result_id}.arrow`, kept beside the controller so
 * that the route itself stays a few lines.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ARROW_STREAM_MEDIA_TYPE } from '../../engine/storage';
import { ErrorBody } from '../common/error-body.dto';

export function ApiArrowResult(notFound: string): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      summary: 'Download a saved result as an Apache Arrow IPC stream',
      description:
        'The whole result as an Arrow IPC stream (the streaming format: a schema message, record batches, an ' +
        'end-of-stream marker), sent as an attachment named `<request_id>_<result_id>.arrows` and written batch by ' +
        'batch as the client reads. pandas (`pyarrow.ipc.open_stream`), Polars (`pl.read_ipc_stream`), DuckDB and ' +
        'R read it directly. Columns are typed: integers Int64, floats Float64, booleans Bool, decimals ' +
        'Decimal128(38, s), dates Date32, timestamps Timestamp(microsecond) (with zone UTC when the values are ' +
        'instants), times Time64(microsecond), binary Binary, everything else Utf8. A column whose stored values do ' +
        'not all read back exactly as its kind stays Utf8. Field names are unique (a repeated name gets `_2`); each ' +
        "field's metadata has `nl2sql.name` (the name the query gave) and `nl2sql.kind`, the schema's metadata the " +
        'request and result ids, `nl2sql.total_rows` and `nl2sql.truncated`. Errors are JSON.',
    }),
    ApiOkResponse({
      description: 'The result as an Arrow IPC stream',
      content: { [ARROW_STREAM_MEDIA_TYPE]: { schema: { type: 'string', format: 'binary' } } },
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="<request_id>_<result_id>.arrows"',
          schema: { type: 'string' },
        },
      },
    }),
    ApiNotFoundResponse({ description: notFound, type: ErrorBody }),
  );
}
