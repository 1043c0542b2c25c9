/**
 * A lexical check in front of the database's own read-only guards, for the statements those guards
 * do not stop: on MySQL/MariaDB a read-only transaction still lets through server administration
 * (SET GLOBAL, KILL, FLUSH, SHUTDOWN...) and SELECT ... INTO OUTFILE; on PostgreSQL COPY ... TO
 * writes a server file (or runs a program) from a read-only transaction. It is not the guard
 * against writes to data: the database refuses those itself.
 */

/** The statement's first keyword, lower case, after comments; MySQL's executable comment
 * `/*!...*\/` is code, not a comment, and is returned as `/*!`. */
export function firstKeyword(sql: string): string {
  let rest = sql;
  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest.startsWith('/*!')) return '/*!';
    if (rest.startsWith('/*')) {
      const end = rest.indexOf('*/');
      rest = end < 0 ? '' : rest.slice(end + 2);
    } else if (rest.startsWith('--') || rest.startsWith('#')) {
      const end = rest.indexOf('\n');
      rest = end < 0 ? '' : rest.slice(end + 1);
    } else break;
  }
  if (rest.startsWith('(')) return '(';
  return (/^[A-Za-z_]+/.exec(rest)?.[0] ?? rest.slice(0, 1)).toLowerCase();
}

const MYSQL_QUERY_KEYWORDS = new Set([
  'select',
  'with',
  'values',
  'table',
  'show',
  'explain',
  'describe',
  'desc',
  '(',
]);

/** Why the statement may not run, or null when it may. */
export function mysqlRefusal(sql: string): string | null {
  const keyword = firstKeyword(sql);
  if (!MYSQL_QUERY_KEYWORDS.has(keyword))
    return `${keyword.toUpperCase() || 'an empty'} statement does not run here (queries only)`;
  if (/\binto\s+(outfile|dumpfile)\b/i.test(sql))
    return 'SELECT ... INTO OUTFILE/DUMPFILE would write a file on the server';
  return null;
}

export function postgresRefusal(sql: string): string | null {
  return firstKeyword(sql) === 'copy' ? 'COPY does not run here (it reads or writes server files)' : null;
}
