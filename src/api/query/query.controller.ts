import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Engine } from '../../engine/engine';
import type { RunRequest } from '../../engine/pipeline/run-state';
import type { QueryResponse } from '../../engine/pipeline/wire';
import type { ResultPage } from '../../engine/storage';
import { ErrorBody } from '../common/error-body.dto';
import { AnyRole, type RequestWithRoles } from '../common/roles.guard';
import { QueryRequest, QueryResponseDto, ResultPageDto, ResultPageQuery, StreamEventDto } from './query.dto';
import { relayRunEvents } from './sse';

@ApiTags('query')
@Controller('api/v1/query')
export class QueryController {
  constructor(private readonly engine: Engine) {}

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
    return this.engine.run(toRunRequest(body, req), abort.signal);
  }

  /**
   * The same run as Server-Sent Events: each event is an `event:` line and one `data:` line holding
   * the envelope {name, at, trace_id, tenant_id, data}. Ends with one `run.finished` or `run.failed`.
   */
  @Post('stream')
  @AnyRole()
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: StreamEventDto, description: 'A text/event-stream of run events' })
  @ApiUnprocessableEntityResponse({ type: ErrorBody })
  stream(@Body() body: QueryRequest, @Req() req: RequestWithRoles, @Res() res: Response): void {
    const abort = new AbortController();
    const handle = this.engine.start(toRunRequest(body, req), abort.signal);
    relayRunEvents(handle.emitter.events$, res, () => abort.abort());
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
    const csv = await this.engine.results.streamCsv(this.engine.tenantId, requestId, resultId);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${requestId}_${resultId}.csv"`);
    csv.on('error', () => res.destroy());
    csv.pipe(res);
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
    return this.engine.results.readPage(this.engine.tenantId, requestId, resultId, {
      offset: page.offset,
      limit: page.limit,
    });
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
