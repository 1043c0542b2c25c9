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

class LivenessBody {
  @ApiProperty({ example: 'ok' }) status!: string;
}

class ReadyDatasource {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['ready', 'failed', 'unchecked'] }) status!: string;
  @ApiProperty({ nullable: true, type: String }) reason!: string | null;
}

class ReadinessBody {
  @ApiProperty({ enum: ['ready', 'not_ready'] }) status!: string;
  @ApiProperty({ type: [ReadyDatasource] }) datasources!: ReadyDatasource[];
}

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly datasources: DatasourceAdmin) {}

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
    return { status: ok ? 'ready' : 'not_ready', datasources };
  }
}
