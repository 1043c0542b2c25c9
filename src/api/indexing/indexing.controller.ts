import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
  ApiOperation,
} from '@nestjs/swagger';
import { IndexAdmin } from '../../engine/admin/index-admin.service';
import type { ClearIndexResult, IndexAllResult, IndexStatus, IndexingStats } from '../../engine/index';
import { ErrorBody } from '../common/error-body.dto';
import { AdminOnly } from '../common/roles.guard';

const obj = { type: 'object', additionalProperties: true } as const;

class IndexDatasourceResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty() datasource_id!: string;
  @ApiProperty({ ...obj, description: 'Entries by kind, index_version, built_at, schema_version, seconds' })
  indexing_stats!: IndexingStats;
  @ApiProperty() message!: string;
}

class IndexingResults {
  @ApiProperty({ type: 'array', items: obj }) stats!: unknown[];
  @ApiProperty({ type: 'array', items: obj }) empty!: unknown[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object', properties: { datasource_id: { type: 'string' }, error: { type: 'string' } } },
  })
  errors!: unknown[];
}

class IndexAllResponse {
  @ApiProperty({ description: 'True when every datasource indexed' }) success!: boolean;
  @ApiProperty({ type: IndexingResults }) indexing_results!: IndexAllResult;
  @ApiProperty() message!: string;
}

class ClearIndexResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty() message!: string;
  @ApiProperty({ ...obj, description: 'namespace, removed_entries, removed_builds, per-datasource counts' })
  removed!: ClearIndexResult;
}

class IndexedDatasourceDto {
  @ApiProperty() datasource_id!: string;
  @ApiProperty() entries!: number;
  @ApiProperty() index_version!: number;
  @ApiProperty() built_at!: string;
  @ApiProperty() schema_version!: string;
}

class IndexProblemDto {
  @ApiProperty({
    enum: [
      'INDEX_UNAVAILABLE',
      'NOT_BUILT',
      'MODEL_CHANGED',
      'DATASOURCE_NOT_INDEXED',
      'DATASOURCE_REMOVED',
      'SCHEMA_CHANGED',
      'NO_TABLES',
      'NO_DATASOURCES',
      'VERIFIED_QUERY_DISABLED',
    ],
  })
  code!: string;
  @ApiProperty({ nullable: true, type: String }) datasource_id!: string | null;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'What to do about it' }) fix!: string;
}

class IndexStatusDto {
  @ApiProperty({ enum: ['ok', 'empty', 'stale', 'missing'] }) status!: string;
  @ApiProperty() total!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } }) counts!: Record<string, number>;
  @ApiProperty({ nullable: true, type: String }) built_at!: string | null;
  @ApiProperty() embedding_model!: string;
  @ApiProperty() namespace!: string;
  @ApiProperty({ type: [IndexedDatasourceDto] }) datasources!: IndexedDatasourceDto[];
  @ApiProperty({ type: [IndexProblemDto] }) problems!: IndexProblemDto[];
}

@ApiTags('indexing')
@Controller('api/v1')
export class IndexingController {
  constructor(private readonly index: IndexAdmin) {}

  /** Builds one datasource's schema index (no enrichment model call). Admin only. */
  @Post('index/:datasource_id')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary: 'Index one datasource',
    description:
      "Builds one datasource's schema index (tables, columns, relationships, sample questions; no model call). Admin only. An unknown datasource is a 404; a datasource that fails to index is a 500 whose detail names the reason.",
  })
  @ApiOkResponse({ type: IndexDatasourceResponse })
  @ApiNotFoundResponse({ description: 'Unknown datasource (NOT_FOUND)', type: ErrorBody })
  @ApiInternalServerErrorResponse({
    description: 'The datasource failed to index; the detail names the reason',
    type: ErrorBody,
  })
  async indexDatasource(@Param('datasource_id') id: string): Promise<IndexDatasourceResponse> {
    const stats = await this.index.indexDatasource(id);
    return {
      success: true,
      datasource_id: id,
      indexing_stats: stats,
      message: `indexed '${id}': ${stats.entries} entries`,
    };
  }

  /** Builds every configured datasource; a failing one is listed in `errors` and keeps its entries. Admin only. */
  @Post('index-all')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary: 'Index every datasource',
    description:
      'Builds the index of every configured datasource; a failing one is listed in `errors` and keeps its entries. Admin only.',
  })
  @ApiOkResponse({ type: IndexAllResponse })
  async indexAll(): Promise<IndexAllResponse> {
    const results = await this.index.indexAll();
    const ok = results.errors.length === 0;
    return {
      success: ok,
      indexing_results: results,
      message: ok
        ? `indexed ${results.stats.length} datasource(s)`
        : `indexed ${results.stats.length} datasource(s); ${results.errors.length} failed: ${results.errors.map((e) => e.datasource_id).join(', ')}`,
    };
  }

  /** Clears the index and says what it removed. Admin only. */
  @Delete('index')
  @AdminOnly()
  @ApiOperation({
    summary: 'Clear the index',
    description: 'Removes every entry of the index namespace and says what it removed. Admin only.',
  })
  @ApiOkResponse({ type: ClearIndexResponse })
  async clearIndex(): Promise<ClearIndexResponse> {
    const removed = await this.index.clear();
    return { success: true, message: `removed ${removed.removed_entries} entries`, removed };
  }

  @Get('index/status')
  @ApiOperation({
    summary: 'Index status',
    description:
      'Whether the index is `ok`, `empty`, `stale` or `missing`, its entries by kind and per datasource, and what to fix. No role needed.',
  })
  @ApiOkResponse({ type: IndexStatusDto })
  indexStatus(): Promise<IndexStatus> {
    return this.index.status();
  }
}
