/**
 * Tool results: structured content plus a short text rendering for clients that show text; a
 * failure is a tool error (`isError`) that carries the service's `error_code`, never a stack.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isErrorCode, type ErrorCode } from '../../engine/errors';
import { redact } from '../../config/redact';
import { getLogger } from '../../engine/logging/logger';

const log = getLogger('nl2sql.mcp');

export function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

export function toolError(code: ErrorCode, message: string): CallToolResult {
  return {
    isError: true,
    structuredContent: { error_code: code, message },
    content: [{ type: 'text', text: `${code}: ${message}` }],
  };
}

/** Runs a tool body; an engine error becomes a tool error with its code, anything else INTERNAL_ERROR. */
export async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (err instanceof Error && isErrorCode(code)) return toolError(code, redact(err.message));
    log.error('MCP tool failed unexpectedly', {
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    return toolError('INTERNAL_ERROR', 'the tool failed unexpectedly; the server log has the details');
  }
}

/** A small table as text: header, then rows, cells cut at 40 characters. */
export function textTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    return s.length > 40 ? `${s.slice(0, 39)}…` : s;
  };
  return [columns.join(' | '), ...rows.map((r) => r.map(cell).join(' | '))].join('\n');
}
