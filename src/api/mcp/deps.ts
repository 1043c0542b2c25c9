/**
 * What the MCP tools use of the engine, and who calls: the roles come from the same sources as
 * HTTP (role header, static role) or, on stdio, from the process's `--role`.
 */
import type { ResultsService } from '../../engine/admin/results.service';
import type { DatasourceRegistry } from '../../engine/datasources/registry';
import type { EngineConfig } from '../../engine/engine-config';
import type { RunService } from '../../engine/run/run-service';
import type { Caller } from '../../engine/run/run-state';
import type { VerifiedQueries } from '../../engine/verified/verified-queries';

export interface McpDeps {
  readonly runs: RunService;
  readonly datasources: DatasourceRegistry;
  readonly results: ResultsService;
  readonly verified: VerifiedQueries;
  readonly config: EngineConfig;
}

export type { Caller };
