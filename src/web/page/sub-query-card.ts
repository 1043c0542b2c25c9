/**
 * One sub-query of a run: its intent and SQL (highlighted), how it was planned, its checks, the
 * row sample, the whole result paged, and a chart when the result's shape suits one.
 */
import type { Api } from './api';
import { chartShape } from './chart-shape';
import { chartsWanted, drawChart, setChartsWanted } from './chart-view';
import { fill, h } from './dom';
import { ResultTable, resultPath, table } from './result-table';
import { sqlBlock } from './sql-highlight';
import type { ResultPage, ResultSummary, SubQueryResponse } from './wire';

/** The chart reads at most this many rows of the saved result. */
const CHART_ROWS = 500;

export class SubQueryCard {
  readonly el: HTMLElement;
  private readonly title = h('h3', {});
  private readonly meta = h('div', { class: 'meta' });
  private readonly sql = h('div', { class: 'sql-slot' });
  private readonly checks = h('div', { class: 'checks' });
  private readonly sample = h('div', { class: 'sample-slot' });
  private readonly results = h('div', { class: 'results-slot' });
  private readonly chartSlot = h('div', { class: 'chart-slot' });
  private readonly chartToggle = h('input', { type: 'checkbox', class: 'chart-toggle' });
  private chart: { destroy(): void } | null = null;
  private chartRows: { columns: string[]; rows: unknown[][] } | null = null;
  private hasResult = false;

  constructor(
    private readonly api: Api,
    readonly id: string,
    private readonly requestId: string,
  ) {
    this.chartToggle.checked = chartsWanted();
    this.chartToggle.addEventListener('change', () => {
      setChartsWanted(this.chartToggle.checked);
      this.renderChart();
    });
    this.title.textContent = `Sub-query ${id}`;
    this.el = h(
      'section',
      { class: 'card sub-query', 'data-sub-query': id },
      h('header', {}, this.title, this.meta),
      this.sql,
      this.checks,
      h('div', { class: 'chart-head', hidden: true }, h('label', {}, this.chartToggle, ' Chart')),
      this.chartSlot,
      this.results,
      this.sample,
    );
  }

  /** The result was saved (`result.manifest`): its rows can be paged before the run ends. */
  showResult(summary: ResultSummary): void {
    if (this.hasResult) return;
    this.hasResult = true;
    const pager = new ResultTable(this.api, this.requestId, summary.node_id);
    this.results.replaceChildren(
      h('h4', {}, `Result · ${summary.row_count} rows${summary.truncated ? ' (cut at the row limit)' : ''}`),
      pager.el,
    );
    void pager.load(0);
    void this.loadChartRows(summary);
  }

  show(sq: SubQueryResponse): void {
    this.title.textContent = sq.intent || `Sub-query ${sq.id}`;
    fill(
      this.meta,
      badge(sq.status, sq.status),
      badge(`plan: ${sq.plan_source}`, 'plan'),
      sq.datasource_id ? badge(sq.datasource_id, 'ds') : null,
      sq.retry_count ? badge(`${sq.retry_count} retr${sq.retry_count === 1 ? 'y' : 'ies'}`, 'warn') : null,
      sq.truncated ? badge(`cut at ${sq.row_cap} rows`, 'warn') : null,
    );
    this.sql.replaceChildren(
      sq.sql ? sqlBlock(sq.sql) : h('p', { class: 'muted' }, 'No SQL for this sub-query.'),
    );
    const failed = sq.validation.filter((c) => !c.passed);
    this.checks.replaceChildren(
      ...(sq.validation.length
        ? [
            h(
              'details',
              { class: 'validation' },
              h(
                'summary',
                {},
                `Checks: ${sq.validation.length - failed.length} of ${sq.validation.length} passed`,
              ),
              h(
                'ul',
                {},
                ...sq.validation.map((c) =>
                  h(
                    'li',
                    { class: c.passed ? 'ok' : 'bad' },
                    `${c.passed ? '✓' : '✗'} ${c.name}: ${c.message}`,
                  ),
                ),
              ),
            ),
          ]
        : []),
    );
    if (sq.rows) {
      this.sample.replaceChildren(
        h(
          'details',
          { class: 'row-sample', open: !this.hasResult },
          h('summary', {}, `Row sample · ${sq.rows.rows.length} of ${sq.rows.total_rows} rows`),
          h('div', { class: 'table-wrap' }, table(sq.rows.columns, sq.rows.rows)),
        ),
      );
      if (!this.hasResult && !this.chartRows) {
        this.chartRows = { columns: sq.rows.columns, rows: sq.rows.rows };
        this.renderChart();
      }
    }
  }

  private async loadChartRows(summary: ResultSummary): Promise<void> {
    try {
      const page = await this.api.get<ResultPage>(
        `${resultPath(this.requestId, summary.node_id)}?offset=0&limit=${CHART_ROWS}`,
      );
      this.chartRows = { columns: page.columns, rows: page.rows };
      this.renderChart();
    } catch {
      // The table shows the same route's failure.
    }
  }

  private renderChart(): void {
    this.chart?.destroy();
    this.chart = null;
    this.chartSlot.replaceChildren();
    const head = this.el.querySelector<HTMLElement>('.chart-head');
    const rows = this.chartRows;
    const suits = rows !== null && chartShape(rows.columns, rows.rows) !== null;
    if (head) head.hidden = !suits;
    if (suits && this.chartToggle.checked) this.chart = drawChart(this.chartSlot, rows.columns, rows.rows);
  }
}

function badge(text: string, kind: string): HTMLElement {
  return h('span', { class: `badge ${kind}` }, text);
}
