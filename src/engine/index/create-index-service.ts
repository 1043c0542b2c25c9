/** Builds the index service from the config's embeddings and storage sections. */
import { join } from 'node:path';
import type { EmbeddingsConfig, StorageConfig } from '../../config/schema';
import { SecretManager } from '../../config/secrets';
import { createEmbedder } from './embedders/create-embedder';
import { IndexService, type IndexLogger } from './index-service';
import { DuckDbIndexStore } from './store/duckdb-index-store';

import { DEFAULT_INDEX_PATH } from '../../config/schema';

export { DEFAULT_INDEX_PATH };
export const INDEX_FILE = 'index.duckdb';

export function createIndexService(
  config: { readonly embeddings?: EmbeddingsConfig; readonly storage?: StorageConfig },
  deps: { readonly secrets?: SecretManager; readonly logger?: IndexLogger } = {},
): IndexService {
  const dir = config.storage?.index?.path ?? DEFAULT_INDEX_PATH;
  return new IndexService({
    store: new DuckDbIndexStore(join(dir, INDEX_FILE)),
    embedder: createEmbedder(config.embeddings, deps.secrets),
    namespace: config.storage?.index?.namespace,
    logger: deps.logger,
  });
}
