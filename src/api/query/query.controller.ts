import { pipeline } from 'node:stream';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  type MessageEvent,
  Param,
  Post,
  Query,
  Req,
  RequestMethod,
  Res,
  Sse,
} from '@nestjs/common';
import {
  ApiBody,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ResultsService } from '../../engine/admin/results.service';
import { RunService } from '../../engine/run/run-service';
import type { RunRequest } from '../../engine/run/run-state';
import type { QueryResponse } from '../../engine/run/query-response';
import { ARROW_STREAM_MEDIA_TYPE, type ResultPage } from '../../engine/storage';
import { ErrorBody } from '../common/error-body.dto';
import { AnyRole, type RequestWithRoles } from '../common/roles.guard';
import { ApiArrowResult } from './arrow-result.docs';
import { QueryRequest, QueryResponseDto, ResultPageDto, ResultPageQuery } from './query.dto';
import { QUERY_REQUEST_EXAMPLES, QUERY_RESPONSE_EXAMPLE, RESULT_PAGE_EXAMPLE } from './query.examples';

const RESULT_NOT_FOUND =
  'Unknown run or result, a run of another tenant, or an id that is not a plain token (NOT_FOUND)';

@ApiTags('query')
@Controller('api/v1/query')
export class QueryController {
  constructor(
    private readonly runs: RunService,
    private readonly results: ResultsService,
  ) {}

  /** Runs a question to its answer. Pipeline failures are HTTP 200 with entries in `errors`. */
  @Post()
  @HttpCode(200)
  @AnyRole()
  @ApiOperation({
    summary: 'Ask a question',
    description:
      'Runs a question to its answer: the SQL of each sub-query, a sample of rows, the answer, token usage and cost. ' +
      'Pipeline failures (no model reachable, a plan that does not validate...) are HTTP 200 with entries in ' +
      '`errors` and `status: error`. The whole result of each sub-query is saved; page it with the result routes.',
  })
  @ApiBody({ type: QueryRequest, examples: QUERY_REQUEST_EXAMPLES })
  @ApiOkResponse({ type: QueryResponseDto, example: QUERY_RESPONSE_EXAMPLE })
  @ApiUnprocessableEntityResponse({ description: 'Invalid body (REQUEST_INVALID)', type: ErrorBody })
  @ApiInternalServerErrorResponse({ description: 'Unexpected failure; generic detail', type: ErrorBody })
  async query(
    @Body() body: QueryRequest,
    @Req() req: RequestWithRoles,
    @Res({ passthrough: true }) res: Response,
  ): Promise<QueryResponse> {
    const abort = new AbortController();
    // A client that goes away before the answer cancels the run before its next step or model call.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    return this.runs.run(toRunRequest(body, req), abort.signal);
  }

  /**
   * The same run as Server-Sent Events: each event is an `event:` line, an `id:` line and one
   * `data:` line holding the envelope {name, at, trace_id, tenant_id, data}. Ends with one
   * `run.finished` or `run.failed`. Role and body checks answer 401/422 before any event; a client
   * that disconnects unsubscribes, which cancels the run before its next step or model call.
   */
  @Sse('stream', { method: RequestMethod.POST })
  @HttpCode(200)
  @AnyRole()
  @ApiOperation({
    summary: 'Ask a question, streamed as Server-Sent Events',
    description:
      'The same run as `POST /api/v1/query`, as a `text/event-stream`: each event is an `event:` line naming it, ' +
      'an `id:` line and one `data:` line holding the envelope as JSON (schema `RunEvent`, keyed by `name`). ' +
      "The answer's text streams as `answer.delta`; the stream ends with exactly one `run.finished` (its " +
      '`data.result` is what `/query` returns) or `run.failed`. Closing the connection cancels the run. Role and ' +
      'body checks answer with a JSON error before any event.',
  })
  @ApiBody({ type: QueryRequest, examples: QUERY_REQUEST_EXAMPLES })
  @ApiOkResponse({
    description: 'A stream of run events',
    content: { 'text/event-stream': { schema: { $ref: '#/components/schemas/RunEvent' } } },
  })
  @ApiUnprocessableEntityResponse({ description: 'Invalid body (REQUEST_INVALID)', type: ErrorBody })
  stream(@Body() body: QueryRequest, @Req() req: RequestWithRoles): Observable<MessageEvent> {
    return this.runs
      .stream(toRunRequest(body, req))
      .pipe(map((event) => ({ type: event.name, data: event })));
  }

  /** The whole saved result as CSV, streamed in slices. */
  @Get(':request_id/results/:result_id.csv')
  @AnyRole()
  @ApiOperation({
    summary: 'Download a saved result as CSV',
    description:
      'The whole result as UTF-8 CSV, header row first, sent as an attachment named `<request_id>_<result_id>.csv` ' +
      'and streamed in slices. Errors are JSON.',
  })
  @ApiOkResponse({
    description: 'The result as CSV',
    content: {
      'text/csv': {
        schema: { type: 'string' },
        example: 'region_name,revenue\nEurope,37524098.64\nNorth America,32423448.22\n',
      },
    },
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="<request_id>_<result_id>.csv"',
        schema: { type: 'string' },
      },
    },
  })
  @ApiNotFoundResponse({ description: RESULT_NOT_FOUND, type: ErrorBody })
  async resultCsv(
    @Param('request_id') requestId: string,
    @Param('result_id') resultId: string,
    @Res() res: Response,
  ): Promise<void> {
    const csv = await this.results.csv(requestId, resultId);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${requestId}_${resultId}.csv"`);
    // pipeline, not pipe: a client that leaves early destroys the export, which removes its scratch
    // slices and closes its DuckDB connections; a failing export cuts the response short.
    pipeline(csv, res, () => undefined);
  }

  /** The whole saved result as an Arrow IPC stream, written batch by batch. */
  @Get(':request_id/results/:result_id.arrow')
  @AnyRole()
  @ApiArrowResult(RESULT_NOT_FOUND)
  async resultArrow(
    @Param('request_id') requestId: string,
    @Param('result_id') resultId: string,
    @Res() res: Response,
  ): Promise<void> {
    const arrow = await this.results.arrow(requestId, resultId);
    res.status(200);
    res.setHeader('Content-Type', ARROW_STREAM_MEDIA_TYPE);
    res.setHeader('Content-Disposition', `attachment; filename="${requestId}_${resultId}.arrows"`);
    // As for CSV: a client that leaves early destroys the export, which closes its DuckDB connections.
    pipeline(arrow, res, () => undefined);
  }

  /** One page of a run's saved result; only the requested slice is read. */
  @Get(':request_id/results/:result_id')
  @AnyRole()
  @ApiOperation({
    summary: 'Read a page of a saved result',
    description:
      "One page of a run's saved result (`request_id` is the run's `trace_id`, `result_id` a `node_id` of its " +
      '`result_manifest`). Only the requested slice is read; a page past the end has no rows.',
  })
  @ApiOkResponse({ type: ResultPageDto, example: RESULT_PAGE_EXAMPLE })
  @ApiNotFoundResponse({ description: RESULT_NOT_FOUND, type: ErrorBody })
  @ApiUnprocessableEntityResponse({ description: 'Bad offset or limit (REQUEST_INVALID)', type: ErrorBody })
  resultPage(
    @Param('request_id') requestId: string,
    @Param('result_id') resultId: string,
    @Query() page: ResultPageQuery,
  ): Promise<ResultPage> {
    return this.results.page(requestId, resultId, { offset: page.offset, limit: page.limit });
  }
}

function toRunRequest(body: QueryRequest, req: RequestWithRoles): RunRequest {
  return {
    question: body.natural_language.trim(),
    datasourceId: body.datasource_id ?? null,
    execute: body.execute ?? true,
    caller: {
      roles: req.caller?.roles ?? [],
      userId: req.caller?.userId ?? null,
      attributes: req.caller?.attributes ?? {},
    },
  };
}
