import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { FeedbackRecord } from '../../engine/feedback/feedback-record';
import { FeedbackService } from '../../engine/feedback/feedback-service';
import { ErrorBody } from '../common/error-body.dto';
import { AdminOnly, AnyRole, type RequestWithRoles } from '../common/roles.guard';
import { FeedbackList, FeedbackListQuery, FeedbackRequest, FeedbackResponse } from './feedback.dto';

@ApiTags('feedback')
@Controller('api/v1')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  @Post('query/:request_id/feedback')
  @HttpCode(200)
  @AnyRole()
  @ApiOperation({
    summary: 'Rate a run',
    description:
      "Records a rating of a run (`request_id` is the run's `trace_id`): up or down, a comment, and optionally the " +
      "SQL that answers the question, checked like a planner's SQL draft against the run's datasource and the " +
      "caller's roles. Stored with the run's question, SQL, plans, roles and datasource; audited (operator event " +
      '`feedback.recorded`) and counted in /metrics. Runs rated up and corrections feed the verified-query suggestions.',
  })
  @ApiOkResponse({ type: FeedbackResponse })
  @ApiNotFoundResponse({
    description:
      'No such run in this tenant (unknown, of another tenant, or purged by retention) (NOT_FOUND)',
    type: ErrorBody,
  })
  @ApiUnprocessableEntityResponse({
    description:
      'Invalid body (REQUEST_INVALID), or a corrected_sql that is not one SELECT the caller may run on the ' +
      "run's datasource (CORRECTED_SQL_INVALID, naming the problem)",
    type: ErrorBody,
  })
  async rateRun(
    @Param('request_id') requestId: string,
    @Body() body: FeedbackRequest,
    @Req() req: RequestWithRoles,
  ): Promise<FeedbackResponse> {
    const record = await this.feedback.record(requestId, body, {
      roles: req.caller?.roles ?? [],
      userId: req.caller?.userId ?? null,
    });
    return {
      success: true,
      feedback_id: record.id,
      request_id: requestId,
      message: `rated ${record.rating}${record.corrected_sql ? ' with a correction' : ''}`,
    };
  }

  @Get('feedback')
  @AdminOnly()
  @ApiOperation({
    summary: 'List ratings',
    description:
      'Every stored rating, newest first, with the rated run (question, roles, SQL and plan of each sub-query). Admin only.',
  })
  @ApiOkResponse({ type: FeedbackList })
  async listFeedback(@Query() query: FeedbackListQuery): Promise<{ feedback: FeedbackRecord[] }> {
    return { feedback: await this.feedback.list({ requestId: query.request_id }) };
  }
}
