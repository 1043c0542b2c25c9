/** SQL highlighted by highlight.js with only its SQL grammar bundled (its output escapes the text). */
import hljs from 'highlight.js/lib/core';
import sql from 'highlight.js/lib/languages/sql';
import { h } from './dom';

hljs.registerLanguage('sql', sql);

export function sqlBlock(code: string): HTMLElement {
  const el = h('code', { class: 'hljs language-sql' });
  el.innerHTML = hljs.highlight(code, { language: 'sql', ignoreIllegals: true }).value;
  return h('pre', { class: 'sql' }, el);
}
