/**
 * The whole saved result of one sub-query, paged through GET /api/v1/query/{request_id}/results/
 * {result_id}, with the CSV and Arrow routes as download links.
 */
import { ApiError, type Api } from './api';
import { cellText, h } from './dom';
import type { ResultPage } from './wire';

export const PAGE_SIZE = 25;

export function resultPath(requestId: string, resultId: string): string {
  return `/api/v1/query/${encodeURIComponent(requestId)}/results/${encodeURIComponent(resultId)}`;
}

export function table(columns: string[], rows: unknown[][], firstRow = 0): HTMLTableElement {
  return h(
    'table',
    { class: 'rows' },
    h('thead', {}, h('tr', {}, h('th', { class: 'n' }, '#'), ...columns.map((c) => h('th', {}, c)))),
    h(
      'tbody',
      {},
      ...rows.map((r, i) =>
        h(
          'tr',
          {},
          h('td', { class: 'n' }, firstRow + i + 1),
          ...r.map((v) =>
            h(
              'td',
              { class: v === null || v === undefined ? 'null' : typeof v === 'number' ? 'num' : '' },
              cellText(v),
            ),
          ),
        ),
      ),
    ),
  );
}

export class ResultTable {
  readonly el = h('div', { class: 'result-table' });
  private readonly body = h('div', { class: 'table-wrap' });
  private readonly info = h('span', { class: 'pager-info' });
  private readonly prev = h(
    'button',
    { type: 'button', class: 'pager-prev', onclick: () => void this.load(this.offset - PAGE_SIZE) },
    '‹ Previous',
  );
  private readonly next = h(
    'button',
    { type: 'button', class: 'pager-next', onclick: () => void this.load(this.offset + PAGE_SIZE) },
    'Next ›',
  );
  private offset = 0;

  constructor(
    private readonly api: Api,
    private readonly requestId: string,
    private readonly resultId: string,
  ) {
    const csv = this.download('csv', '.csv', 'Download CSV', 'text/csv');
    // For pandas, Polars, DuckDB or R: the typed columnar stream (`.arrows`, the IPC stream format).
    const arrow = this.download(
      'arrow',
      '.arrow',
      'Download Arrow',
      'application/vnd.apache.arrow.stream',
      '.arrows',
    );
    this.el.append(this.body, h('div', { class: 'pager' }, this.prev, this.info, this.next, csv, arrow));
  }

  private download(
    kind: string,
    route: string,
    label: string,
    accept: string,
    saveAs = route,
  ): HTMLAnchorElement {
    const link = h(
      'a',
      {
        class: kind,
        href: `${resultPath(this.requestId, this.resultId)}${route}`,
        download: `${this.requestId}_${this.resultId}${saveAs}`,
        'data-accept': accept,
      },
      label,
    );
    link.addEventListener('click', (event) => {
      // A plain link cannot carry the role header; then the file is fetched with it and saved from memory.
      if (!this.api.roleHeader) return;
      event.preventDefault();
      void this.downloadWithHeaders(link);
    });
    return link;
  }

  async load(offset: number): Promise<ResultPage | null> {
    const target = Math.max(0, offset);
    this.prev.disabled = this.next.disabled = true;
    this.info.textContent = 'loading…';
    try {
      const page = await this.api.get<ResultPage>(
        `${resultPath(this.requestId, this.resultId)}?offset=${target}&limit=${PAGE_SIZE}`,
      );
      this.offset = page.offset;
      this.body.replaceChildren(table(page.columns, page.rows, page.offset));
      const last = page.offset + page.rows.length;
      this.info.textContent = page.total_rows
        ? `rows ${page.offset + 1}–${last} of ${page.total_rows}`
        : 'no rows';
      this.prev.disabled = page.offset === 0;
      this.next.disabled = page.next_offset === null;
      return page;
    } catch (err) {
      this.info.textContent = '';
      this.body.replaceChildren(
        h(
          'p',
          { class: 'error' },
          err instanceof ApiError ? `${err.code ?? err.status}: ${err.message}` : String(err),
        ),
      );
      return null;
    }
  }

  private async downloadWithHeaders(link: HTMLAnchorElement): Promise<void> {
    const res = await fetch(link.href, {
      headers: this.api.headers({ Accept: link.dataset.accept ?? '*/*' }),
    });
    if (!res.ok) {
      const err = await ApiError.from(res);
      this.info.textContent = `${link.textContent}: ${err.message}`;
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const save = h('a', { href: url, download: link.getAttribute('download') ?? 'result' });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
