export { ensureDemoDatabase, DEMO_GENERATOR_VERSION } from './demo-database';
export type { DemoBuildResult, DemoRowCounts, EnsureDemoOptions } from './demo-database';
export { DEMO_TABLES, BUILD_INFO_TABLE } from './demo-schema';
export type { DemoTable } from './demo-schema';
export { DEFAULT_DEMO_SIZES, demoSizesForScale } from './demo-sizes';
export type { DemoSizes } from './demo-sizes';
export {
  DEMO_DATASOURCE,
  DEMO_DATASOURCE_ID,
  DEMO_DATABASE_PATH,
  DEMO_SAMPLE_QUESTIONS,
  DEMO_SAMPLE_VERIFIED_QUERIES,
  DEMO_VERIFIED_QUERIES,
} from './demo-datasource';
export { DemoDatabasePreparer } from './demo-preparer';
