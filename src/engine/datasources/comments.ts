/**
 * The database's own comments on tables and columns, as the catalogs read them: text trimmed,
 * an empty comment the same as none, and a very long one cut (a comment documents a name; a
 * PostgreSQL comment may be a whole manual, which no prompt or listing should carry).
 */
import type { Cell } from './adapter';

/** Longest comment kept in a snapshot, in characters. */
export const MAX_COMMENT_CHARS = 2000;

/** `{comment}` when the catalog cell holds a comment, else `{}` (the snapshot omits the key). */
export function commentOf(cell: Cell | undefined): { comment?: string } {
  if (typeof cell !== 'string') return {};
  const text = cell.trim();
  if (!text) return {};
  return { comment: text.length > MAX_COMMENT_CHARS ? `${text.slice(0, MAX_COMMENT_CHARS - 1)}…` : text };
}
