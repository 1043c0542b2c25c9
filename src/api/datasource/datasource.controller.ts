import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import {
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { DatasourceAdmin, type ListingViewer } from '../../engine/admin/datasource-admin.service';
import { ENGINE_CONFIG, type EngineConfig } from '../../engine/engine-config';
import { resolveRoles } from '../common/role-resolver';
import { ErrorBody } from '../common/error-body.dto';
import { AdminOnly, type RequestWithRoles } from '../common/roles.guard';
import { DatasourceList, DatasourceRequest, DatasourceResponse, ListedDatasourceDto } from './datasource.dto';

@ApiTags('datasource')
@Controller('api/v1/datasource')
export class DatasourceController {
  constructor(
    private readonly datasources: DatasourceAdmin,
    @Inject(ENGINE_CONFIG) private readonly config: EngineConfig,
  ) {}

  /** The listings need no role; the roles a request does carry decide which comments it sees. */
  private viewer(req: RequestWithRoles): ListingViewer {
    return { roles: resolveRoles(this.config.api, req).roles ?? [] };
  }

  /** Adds a datasource to the running engine (built, not connected, not indexed). Admin only. */
  @Post()
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary: 'Add a datasource',
    description:
      'Adds one datasource, in the shape of a `datasources` entry of the config file, to the running engine: built, not connected, not indexed; nothing is written to config files. Admin only. A failure to add is a 500 with a generic message (the cause may hold a connection string; it is logged on the server).',
  })
  @ApiOkResponse({ type: DatasourceResponse })
  @ApiUnprocessableEntityResponse({
    description: 'The config is not a valid datasource entry',
    type: ErrorBody,
  })
  @ApiInternalServerErrorResponse({
    description: 'Adding failed (DATASOURCE_ADD_FAILED); generic detail, the cause is in the server log',
    type: ErrorBody,
  })
  addDatasource(@Body() body: DatasourceRequest, @Req() req: RequestWithRoles): DatasourceResponse {
    const added = this.datasources.add(body.config, { roles: req.caller?.roles ?? [] });
    return {
      success: true,
      message: `datasource '${added.id}' added (not connected, not indexed)`,
      datasource_id: added.id,
    };
  }

  /** Every datasource with its status; connection secrets masked. */
  @Get()
  @ApiOperation({
    summary: 'List datasources',
    description:
      'Every datasource with its status (`ready`, `failed`, `unchecked`) and connection, secrets masked as `***`, and the ' +
      "database's comments on the tables and columns the request's roles may read. No role needed (without one, a " +
      'config with role policies shows no comments).',
  })
  @ApiOkResponse({ type: DatasourceList })
  listDatasources(@Req() req: RequestWithRoles): DatasourceList {
    return { datasources: this.datasources.list(this.viewer(req)) };
  }

  @Get(':datasource_id')
  @ApiOperation({
    summary: 'Get a datasource',
    description:
      "One datasource with its status, masked connection and the database's comments the request's roles may read. No role needed.",
  })
  @ApiOkResponse({ type: ListedDatasourceDto })
  @ApiNotFoundResponse({ description: 'Unknown datasource (NOT_FOUND)', type: ErrorBody })
  getDatasource(@Param('datasource_id') id: string, @Req() req: RequestWithRoles): ListedDatasourceDto {
    return this.datasources.describe(id, this.viewer(req));
  }

  /** Removes the datasource from routing and closes its pool. Admin only. */
  @Delete(':datasource_id')
  @AdminOnly()
  @ApiOperation({
    summary: 'Remove a datasource',
    description: 'Removes the datasource from routing and closes its pool. Admin only.',
  })
  @ApiOkResponse({ type: DatasourceResponse })
  @ApiNotFoundResponse({ description: 'Unknown datasource (NOT_FOUND)', type: ErrorBody })
  @ApiInternalServerErrorResponse({ description: 'Closing its pool failed; generic detail', type: ErrorBody })
  async deleteDatasource(
    @Param('datasource_id') id: string,
    @Req() req: RequestWithRoles,
  ): Promise<DatasourceResponse> {
    await this.datasources.remove(id, { roles: req.caller?.roles ?? [] });
    return { success: true, message: `datasource '${id}' removed`, datasource_id: id };
  }
}
