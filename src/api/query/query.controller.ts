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
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { ResultsService } from '../../engine/admin/results.service';
import { RunService } from '../../engine/pipeline/run-service';
import type { RunRequest } from '../../engine/pipeline/run-state';
import type { QueryResponse } from '../../engine/pipeline/query-response';
import type { ResultPage } from '../../engine/storage';
import { ErrorBody } from '../common/error-body.dto';
import { AnyRole, type RequestWithRoles } from '../common/roles.guard';
import {
  ArtifactRefDto,
  QueryRequest,
  QueryResponseDto,
  ResultPageDto,
  ResultPageQuery,
  StreamEventDto,
} from './query.dto';

@ApiTags('query')
// Referenced only through a map's additionalProperties, so the document must be told to include it.
@ApiExtraModels(ArtifactRefDto)
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
  @ApiOkResponse({ type: QueryResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorBody })
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
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: StreamEventDto, description: 'A text/event-stream of run events' })
  @ApiUnprocessableEntityResponse({ type: ErrorBody })
  stream(@Body() body: QueryRequest, @Req() req: RequestWithRoles): Observable<MessageEvent> {
    return this.runs
      .stream(toRunRequest(body, req))
      .pipe(map((event) => ({ type: event.name, data: event })));
  }

  /** The whole saved result as CSV, streamed in slices. */
  @Get(':request_id/results/:result_id.csv')
  @AnyRole()
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'text/csv, header row first', schema: { type: 'string' } })
  @ApiNotFoundResponse({ type: ErrorBody })
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

  /** One page of a run's saved result; only the requested slice is read. */
  @Get(':request_id/results/:result_id')
  @AnyRole()
  @ApiOkResponse({ type: ResultPageDto })
  @ApiNotFoundResponse({ type: ErrorBody })
  @ApiUnprocessableEntityResponse({ type: ErrorBody })
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
    caller: { roles: req.caller?.roles ?? [], userId: req.caller?.userId ?? null },
  };
}
