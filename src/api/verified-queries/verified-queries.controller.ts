import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import type { Suggestion } from '../../engine/verified/suggestions/suggestions';
import { VerifiedSuggestions } from '../../engine/verified/suggestions/suggestion-service';
import {
  VerifiedQueryAdmin,
  type ListedVerifiedQuery,
  type VerifiedCaller,
} from '../../engine/verified/verified-admin';
import { EngineError } from '../../engine/errors';
import { ErrorBody } from '../common/error-body.dto';
import { NOT_A_JSON_OBJECT } from '../common/json-object-body.pipe';
import { BODY_ROLE_FIELD, callerMayAdmin } from '../common/role-resolver';
import { AdminOnly, AnyRole, type RequestWithRoles } from '../common/roles.guard';
import {
  SuggestionList,
  VerifiedParamDto,
  VerifiedQueryAdded,
  VerifiedQueryList,
  VerifiedQueryRemoved,
  VerifiedQueryRequest,
} from './verified-queries.dto';

@ApiTags('verified-queries')
@ApiExtraModels(VerifiedParamDto)
@Controller('api/v1/verified-queries')
export class VerifiedQueriesController {
  constructor(
    private readonly admin: VerifiedQueryAdmin,
    private readonly suggestions: VerifiedSuggestions,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
  ) {}

  private caller(req: RequestWithRoles): VerifiedCaller {
    return {
      roles: req.caller?.roles ?? [],
      userId: req.caller?.userId ?? null,
      admin: callerMayAdmin(this.config.api, this.config.policies.admin_roles, req),
    };
  }

  @Get()
  @AnyRole()
  @ApiOperation({
    summary: 'List verified queries',
    description:
      "The verified queries the caller's roles may run (the same policy decision that guards every compiled plan), " +
      'configured and added at runtime, with their SQL and typed parameters. A caller who passes the admin check ' +
      'sees every one, with its status: `disabled` (and the reason) when a schema change broke it, `unchecked` ' +
      'while its datasource has no schema.',
  })
  @ApiOkResponse({ type: VerifiedQueryList })
  listVerifiedQueries(@Req() req: RequestWithRoles): { verified_queries: ListedVerifiedQuery[] } {
    return { verified_queries: this.admin.list(this.caller(req)) };
  }

  @Get('suggestions')
  @AdminOnly()
  @ApiOperation({
    summary: 'Suggest verified queries',
    description:
      'Candidates built in code (no model call) from runs rated up, from the corrections sent with ratings, and ' +
      'from plans the plan cache served repeatedly: literals the question names lifted into typed `:parameters` ' +
      '(each described by its column and an example value), questions with the same plan grouped as paraphrases, ' +
      'each with its evidence (runs, ratings, corrections, cache hits). Each passes the check a verified query ' +
      'passes; accept one by POSTing its `verified_query` to /api/v1/verified-queries. Admin only.',
  })
  @ApiOkResponse({ type: SuggestionList })
  async listVerifiedQuerySuggestions(): Promise<{ suggestions: Suggestion[] }> {
    return { suggestions: await this.suggestions.list() };
  }

  @Post()
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary: 'Add a verified query',
    description:
      'Adds a verified query at runtime, in the shape of a `verified_queries` entry of the config file, checked ' +
      'exactly as a configured one (one read-only SELECT, known tables and columns, every placeholder declared and ' +
      'every declared parameter used) against its datasource now, and kept in storage so it survives a restart. It ' +
      'serves every path a configured one serves (the no-model match, the model-confirmed match, planner examples, ' +
      'MCP). Admin only.',
  })
  @ApiBody({ type: VerifiedQueryRequest })
  @ApiOkResponse({ type: VerifiedQueryAdded })
  @ApiUnprocessableEntityResponse({
    description:
      'The query does not pass its check (VERIFIED_QUERY_INVALID, naming every problem and its path)',
    type: ErrorBody,
  })
  @ApiConflictResponse({
    description: 'A verified query of that id exists (VERIFIED_QUERY_EXISTS)',
    type: ErrorBody,
  })
  @ApiServiceUnavailableResponse({
    description: 'Its datasource cannot be reached to read its schema (DATASOURCE_UNAVAILABLE)',
    type: ErrorBody,
  })
  async addVerifiedQuery(@Body() body: unknown, @Req() req: RequestWithRoles): Promise<VerifiedQueryAdded> {
    // Like every JSON body (an array gets past the parser): refused before it is read as a query.
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new EngineError('REQUEST_INVALID', NOT_A_JSON_OBJECT);
    const added = await this.admin.add(withoutRoleField(body), this.caller(req));
    return { success: true, message: `verified query '${added.id}' added`, verified_query: added };
  }

  @Delete(':id')
  @AdminOnly()
  @ApiOperation({
    summary: 'Remove a verified query',
    description:
      'Removes a verified query added at runtime (from storage too). Configured ones are read-only: change the ' +
      'config file. Admin only.',
  })
  @ApiOkResponse({ type: VerifiedQueryRemoved })
  @ApiNotFoundResponse({ description: 'Unknown verified query (NOT_FOUND)', type: ErrorBody })
  @ApiConflictResponse({
    description: 'A configured verified query, read-only (VERIFIED_QUERY_READ_ONLY)',
    type: ErrorBody,
  })
  async deleteVerifiedQuery(
    @Param('id') id: string,
    @Req() req: RequestWithRoles,
  ): Promise<VerifiedQueryRemoved> {
    await this.admin.remove(id, this.caller(req));
    return { success: true, message: `verified query '${id}' removed`, id };
  }
}

/** `api.trust_body_role` may put the roles in the body: they are not a field of the query. */
function withoutRoleField(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !(BODY_ROLE_FIELD in body)) return body;
  const { [BODY_ROLE_FIELD]: _roles, ...rest } = body as Record<string, unknown>;
  return rest;
}
