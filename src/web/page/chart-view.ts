/**
 * The result's chart with Chart.js (bars and lines only, so only those parts are registered and
 * bundled). The shape decides the kind; a checkbox switches charts off, remembered in the browser.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { chartShape, numberOf } from './chart-shape';
import { cellText, h } from './dom';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);

const PALETTE = ['#2f6fdf', '#e0793a', '#2f9e6e', '#b0479b', '#c9a227', '#5a6b7b'];
const PREFERENCE = 'nl2sql.playground.charts';

export function chartsWanted(): boolean {
  return localStorage.getItem(PREFERENCE) !== 'off';
}

export function setChartsWanted(on: boolean): void {
  localStorage.setItem(PREFERENCE, on ? 'on' : 'off');
}

/**
 * Draws the chart in `parent` (attached first: Chart.js sizes the canvas from its container), or
 * returns null when the rows have no chartable shape.
 */
export function drawChart(
  parent: HTMLElement,
  columns: string[],
  rows: unknown[][],
): { destroy(): void } | null {
  const shape = chartShape(columns, rows);
  if (!shape) return null;
  const canvas = h('canvas', { role: 'img' });
  const el = h('div', { class: 'chart', 'data-kind': shape.kind }, canvas);
  parent.replaceChildren(el);
  const label = (v: unknown) => cellText(v).replace(/T00:00:00(\.0+)?Z?$/, '');
  let chart: Chart;
  if (shape.kind === 'bar') {
    canvas.setAttribute('aria-label', `Bar chart of ${columns[shape.value]} by ${columns[shape.label]}`);
    chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: rows.map((r) => label(r[shape.label])),
        datasets: [
          {
            label: columns[shape.value] ?? '',
            data: rows.map((r) => numberOf(r[shape.value])),
            backgroundColor: PALETTE[0],
            borderRadius: 3,
          },
        ],
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: { legend: { display: false } },
      },
    });
  } else {
    canvas.setAttribute(
      'aria-label',
      `Line chart of ${shape.series.map((i) => columns[i]).join(', ')} over ${columns[shape.x]}`,
    );
    chart = new Chart(canvas, {
      type: 'line',
      data: {
        labels: rows.map((r) => label(r[shape.x])),
        datasets: shape.series.map((i, n) => ({
          label: columns[i] ?? '',
          data: rows.map((r) => numberOf(r[i])),
          borderColor: PALETTE[n % PALETTE.length],
          backgroundColor: PALETTE[n % PALETTE.length],
          pointRadius: rows.length > 60 ? 0 : 2,
          borderWidth: 2,
          tension: 0.2,
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
      },
    });
  }
  return { destroy: () => chart.destroy() };
}
