/**
 * The no-model path of a verified query: a question close enough to the verified question or a
 * paraphrase (the schema index embedder's cosine, `settings.pipeline.verified_direct_threshold`,
 * with the parameters' values masked on both sides) whose every parameter can be read from the
 * question without a guess is answered by the query with no model call at all.
 */
import type { SchemaSnapshot } from '../datasources/schema';
import type { SchemaIndex } from '../index';
import { combinedLookup, fillParams, maskValues, snapshotLookup, valueIndexLookup } from './param-filling';
import type { CheckedVerifiedQuery, ParamValue } from './verified-queries';

export interface DirectMatch {
  readonly params: Record<string, ParamValue>;
  readonly similarity: number;
}

/** The parameters and similarity when `question` may be answered by `vq` with no model call, else null. */
export async function directMatch(
  vq: CheckedVerifiedQuery,
  question: string,
  where: { readonly datasourceId: string; readonly snapshot: SchemaSnapshot | null },
  index: SchemaIndex,
  threshold: number | null,
): Promise<DirectMatch | null> {
  if (threshold === null) return null;
  // The value index, when built, knows every stored value of the column, not only the sampled few.
  const values = index.live()?.values();
  const lookup = values
    ? combinedLookup(snapshotLookup(where.snapshot), valueIndexLookup(values, where.datasourceId))
    : snapshotLookup(where.snapshot);
  const params = await fillParams(vq, question, lookup);
  if (!params) return null;
  const masked = await maskValues(question, vq, lookup);
  const known = await Promise.all(
    [vq.question, ...(vq.paraphrases ?? [])].map((t) => maskValues(t, vq, lookup)),
  );
  const similarity = await index.similarity(masked, known);
  return similarity !== null && similarity >= threshold ? { params, similarity } : null;
}
