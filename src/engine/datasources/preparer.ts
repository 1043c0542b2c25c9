/**
 * A step that readies datasource files before the engine first connects to them (the demo database
 * is built this way). The engine knows only this port; what a preparer does is the caller's choice,
 * wired by configuration when the engine module is built.
 */
import type { DatasourceConfig } from '../../config/schema';

export abstract class DatasourcePreparer {
  abstract prepare(datasources: readonly DatasourceConfig[]): Promise<void>;
}

export const DATASOURCE_PREPARERS = Symbol('nl2sql.datasource-preparers');
