import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiProperty,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { DatasourceAdmin } from '../../engine/admin/datasource-admin.service';
import { ModelReachability } from '../../engine/lifecycle/model-reachability';

class LivenessBody {
  @ApiProperty({ example: 'ok' }) status!: string;
}

class ReadyDatasource {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['ready', 'failed', 'unchecked'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

class ReadyAgent {
  @ApiProperty({ example: 'default' }) agent!: string;
  @ApiProperty({ example: 'ollama' }) provider!: string;
  @ApiProperty({ example: 'qwen2.5-coder:3b' }) model!: string;
  @ApiProperty({ nullable: true, type: String }) endpoint!: string | null;
  @ApiProperty({ description: 'Whether the endpoint answered at start-up (no model was called)' })
  reachable!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'What to do when it did not' })
  hint!: string | null;
}

class ReadinessBody {
  @ApiProperty({ enum: ['ready', 'not_ready'] }) status!: string;
  @ApiProperty({ type: [ReadyDatasource] }) datasources!: ReadyDatasource[];
  @ApiProperty({
    type: [ReadyAgent],
    description: 'Model agents as found at start-up; an unreachable model never makes the service unready',
  })
  agents!: ReadyAgent[];
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly datasources: DatasourceAdmin,
    private readonly models: ModelReachability,
  ) {}

  /** Liveness: the process answers. */
  @Get('health')
  @ApiOperation({
    summary: 'Liveness',
    description: 'The process answers. No role needed.',
  })
  @ApiOkResponse({ type: LivenessBody })
  health(): LivenessBody {
    return { status: 'ok' };
  }

  /** Readiness: at least one datasource is ready; each datasource's status is listed. */
  @Get('ready')
  @ApiOperation({
    summary: 'Readiness',
    description:
      "200 when at least one datasource is ready, else 503; each datasource's status and reason is listed. No role needed.",
  })
  @ApiOkResponse({ type: ReadinessBody })
  @ApiServiceUnavailableResponse({ type: ReadinessBody })
  ready(@Res({ passthrough: true }) res: Response): ReadinessBody {
    const datasources = this.datasources
      .list()
      .map((d) => ({ id: d.id, status: d.status, reason: d.reason }));
    const ok = datasources.some((d) => d.status === 'ready');
    if (!ok) res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { status: ok ? 'ready' : 'not_ready', datasources, agents: [...this.models.agents()] };
  }
}
