/**
 * The one redaction where engine text leaves the engine. Every run event passes here before it
 * reaches its subscriber (RunEventEmitter, whose table says how each event is redacted), and the
 * response of `POST /query`, `engine.run()`, the CLI and the MCP tools is the `run.finished`
 * event's result, so all of them carry the same text. Every string is redacted (the secrets the
 * process resolved: API keys of every agent, datasource passwords, header values; and the
 * patterns of secrets it never saw), whoever wrote it: the engine, a model (a reason, a summary,
 * an intent), a provider's error, a database's error. The cells of a result are data: only exact
 * known secrets are masked in them, since a pattern would change values that merely look like one.
 */
import { maskKnownSecrets, redactDeep } from '../../config/redact';
import { StreamRedactor } from './stream-redactor';

/** How an event's data is redacted: as a whole, as pieces of a streamed text, or as a run's result. */
export type RedactionKind = 'whole' | 'pieces' | 'result';

export interface TextPiece<F extends string = string> {
  readonly field: F;
  readonly text: string;
}

/** One run's streamed texts: holds the end of each until it is safe to send. */
export class OutgoingPieces<F extends string = string> {
  private readonly streams = new Map<F, StreamRedactor>();

  /** The pieces to send now for one received piece (what other fields held comes first). */
  push(piece: TextPiece<F>): TextPiece<F>[] {
    const out = this.flush(piece.field);
    let stream = this.streams.get(piece.field);
    if (!stream) this.streams.set(piece.field, (stream = new StreamRedactor()));
    const text = stream.push(piece.text);
    if (text) out.push({ field: piece.field, text });
    return out;
  }

  /** What the streams (but `except`) still hold: sent before any other event, since they ended. */
  flush(except?: F): TextPiece<F>[] {
    const out: TextPiece<F>[] = [];
    for (const [field, stream] of this.streams) {
      if (field === except || !stream.holding) continue;
      const text = stream.flush();
      if (text) out.push({ field, text });
    }
    return out;
  }
}

/** An event's data redacted as a whole or as a run's result (pieces go through OutgoingPieces). */
export function redactEventData<T>(data: T, kind: Exclude<RedactionKind, 'pieces'>): T {
  if (kind === 'whole' || !isRecord(data)) return redactDeep(data);
  const { result, ...rest } = data;
  return { ...redactDeep(rest), result: redactResult(result) } as T;
}

/** A QueryResponse: every string redacted, the cells of each row sample masked of known secrets only. */
export function redactResult(result: unknown): unknown {
  if (!isRecord(result) || !Array.isArray(result.sub_queries)) return redactDeep(result);
  const { sub_queries, ...rest } = result;
  return { ...redactDeep(rest), sub_queries: sub_queries.map(redactSubQuery) };
}

function redactSubQuery(sq: unknown): unknown {
  if (!isRecord(sq) || !isRecord(sq.rows)) return redactDeep(sq);
  const { rows, ...other } = sq;
  const { rows: cells, ...sample } = rows;
  return {
    ...redactDeep(other),
    rows: {
      ...redactDeep(sample),
      rows: Array.isArray(cells)
        ? cells.map((r: unknown) => (Array.isArray(r) ? r.map(maskCell) : r))
        : cells,
    },
  };
}

function maskCell(cell: unknown): unknown {
  return typeof cell === 'string' ? maskKnownSecrets(cell) : cell;
}

function isRecord(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
