import { Body, Controller, Get, Headers, Param, Put, Req } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { LlmService } from '../../engine/llm/llm-service';
import type { AgentEntry, LLMChange } from '../../engine/llm';
import { EngineError } from '../../engine/errors';
import { ErrorBody } from '../common/error-body.dto';
import { AdminOnly, type RequestWithRoles } from '../common/roles.guard';
import { AgentEntryDto, LlmChangeDto, LlmListDto, LlmSectionDto } from './llm.dto';

/** Spec 4.16 `via`: the playground page sends it so its replacements are told from other API calls. */
const VIA_HEADER = 'X-NL2SQL-Via';

@ApiTags('llm')
@Controller('api/v1')
export class LlmController {
  constructor(private readonly llm: LlmService) {}

  /** Replaces the whole llm section at runtime; runs already going finish on the old models. Admin only. */
  @Put('settings/llm')
  @AdminOnly()
  @ApiOperation({
    summary: 'Replace the llm section',
    description:
      'Replaces the whole llm section at runtime, checked exactly as the `llm` section of the config file; runs already going finish on the old models. Answers which agents changed (never a key). Admin only.',
  })
  @ApiBody({ type: LlmSectionDto })
  @ApiHeader({
    name: VIA_HEADER,
    required: false,
    enum: ['playground'],
    description:
      'Records the change as made through the playground page (`via: playground`); absent: `via: api`',
  })
  @ApiOkResponse({ type: LlmChangeDto })
  @ApiUnprocessableEntityResponse({
    description: 'Invalid section, provider not installed, or a key that does not resolve',
    type: ErrorBody,
  })
  replaceLlm(
    @Body() body: unknown,
    @Req() req: RequestWithRoles,
    @Headers(VIA_HEADER) viaHeader?: string,
  ): LLMChange {
    if (viaHeader !== undefined && viaHeader !== 'playground') {
      throw new EngineError('REQUEST_INVALID', `${VIA_HEADER} must be 'playground' when it is sent`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new EngineError(
        'CONFIG_INVALID',
        'the body must be the llm section: a JSON object with provider and model',
      );
    }
    return this.llm.replace(
      { ...(body as Record<string, unknown>) },
      { user_id: req.caller?.userId ?? null, roles: req.caller?.roles ?? [] },
      viaHeader ?? 'api',
    );
  }

  /** Every agent's provider and model, default first. Never a key. */
  @Get('llm')
  @ApiOperation({
    summary: 'List agents and their models',
    description: "Every agent's provider and model, `default` first. Never a key. No role needed.",
  })
  @ApiOkResponse({ type: LlmListDto })
  listLlms(): { llms: Record<string, AgentEntry> } {
    return { llms: this.llm.list() };
  }

  @Get('llm/:agent')
  @ApiOperation({
    summary: "Get one agent's model",
    description:
      'The provider, model and temperature of one agent: `default`, or an agent configured under `agents` (GET /api/v1/llm lists them). No role needed.',
  })
  @ApiOkResponse({ type: AgentEntryDto })
  @ApiNotFoundResponse({
    description: 'Unknown agent (NOT_FOUND); the message names the valid agents',
    type: ErrorBody,
  })
  getLlm(@Param('agent') agent: string): AgentEntry {
    return this.llm.get(agent);
  }
}
