/** Draws a ChartSpec with Chart.js (bundled locally; no CDN), pt-BR axes and tooltips. */
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  ChartConfiguration,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Plugin,
  Tooltip,
} from 'chart.js';
import { ChartSpec } from '../lib/charts';
import { formatAxisLabel, formatDate, formatMonthLong, formatTick, formatValue } from '../lib/format';
import { h } from './dom';

Chart.register(LineController, BarController, DoughnutController, LineElement, PointElement, BarElement, ArcElement, CategoryScale, LinearScale, Tooltip, Legend, Filler);
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.color = '#475467';

const PALETTE = ['#0f766e', '#d97706', '#4f46e5', '#e11d48', '#0284c7', '#65a30d', '#9333ea', '#64748b'];

function alpha(hex: string, a: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Narrower than this, a chart uses fewer axis labels and puts its legend below. */
const NARROW_PX = 520;

/** The figure (caption + canvas with an aria-label) and the chart drawn in it. */
export function chartFigure(spec: ChartSpec): HTMLElement {
  const canvas = h('canvas', { role: 'img', 'aria-label': spec.ariaLabel });
  canvas.textContent = spec.ariaLabel;
  const box = h('div', { class: `chart-box ${spec.type}` }, canvas);
  const fig = h('figure', { class: 'chart', 'data-chart-type': spec.type, 'data-points': String(spec.points), 'data-unit': spec.unit }, h('figcaption', {}, spec.title), box);
  // Drawn once the figure is in the page (Chart.js measures its box).
  requestAnimationFrame(() => draw(canvas, spec, box.clientWidth < NARROW_PX));
  return fig;
}

/**
 * After each render, the figure records how its labels were laid out (the browser test reads it):
 * `data-x-label-gap`, the smallest space in px between two neighbouring x-axis labels (negative when
 * they overlap), `data-x-label-clipped` and `data-legend-clipped`, how many labels or legend items
 * fall outside the canvas.
 */
const geometry: Plugin = {
  id: 'cotaGeometry',
  afterRender(chart) {
    const fig = chart.canvas.closest('figure');
    if (!fig) return;
    const x = chart.scales.x;
    const tickOptions = (x?.options as { ticks?: { display?: boolean; font?: { size?: number; family?: string } } } | undefined)?.ticks;
    if (x && tickOptions?.display !== false) {
      const ctx = chart.ctx;
      ctx.save();
      const font = tickOptions?.font;
      ctx.font = `${font?.size ?? Chart.defaults.font.size}px ${font?.family ?? Chart.defaults.font.family}`;
      const boxes = x.ticks.map((t, i) => {
        const w = ctx.measureText(String(Array.isArray(t.label) ? t.label.join(' ') : (t.label ?? ''))).width;
        const at = x.getPixelForTick(i);
        return { left: at - w / 2, right: at + w / 2 };
      });
      ctx.restore();
      let gap = Infinity;
      for (let i = 1; i < boxes.length; i++) gap = Math.min(gap, boxes[i].left - boxes[i - 1].right);
      fig.dataset.xLabels = String(boxes.length);
      fig.dataset.xLabelGap = String(Number.isFinite(gap) ? Math.floor(gap) : 999);
      fig.dataset.xLabelClipped = String(boxes.filter((b) => b.left < -1 || b.right > chart.width + 1).length);
    }
    const items = (chart.legend as unknown as { legendHitBoxes?: Array<{ left: number; top: number; width: number; height: number }> } | undefined)?.legendHitBoxes ?? [];
    if (chart.options.plugins?.legend?.display !== false) {
      fig.dataset.legendItems = String(items.length);
      fig.dataset.legendClipped = String(items.filter((b) => b.left < -1 || b.top < -1 || b.left + b.width > chart.width + 1 || b.top + b.height > chart.height + 1).length);
    }
  },
};

function fullLabel(spec: ChartSpec, key: string): string {
  return spec.x === 'date' ? formatDate(key) : spec.x === 'month' ? formatMonthLong(key) : key;
}

type Animation = false | { duration: number };

/** A share chart: one color per slice, the legend on the right with each slice's value. */
function doughnutConfig(spec: ChartSpec, animation: Animation, narrow: boolean): ChartConfiguration<'doughnut'> {
  const colors = spec.labels.map((_, i) => PALETTE[i % PALETTE.length]);
  return {
    type: 'doughnut',
    data: {
      labels: spec.labels,
      datasets: [{ label: spec.series[0].label, data: spec.series[0].values as number[], backgroundColor: colors, borderColor: '#fff', borderWidth: 2 }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation,
      cutout: '58%',
      plugins: {
        legend: {
          position: narrow ? 'bottom' : 'right',
          labels: {
            boxWidth: 14,
            generateLabels: (chart) =>
              (chart.data.labels as string[]).map((l, i) => ({
                text: `${l}  ${formatValue(spec.unit, spec.series[0].values[i])}`,
                fillStyle: colors[i],
                strokeStyle: colors[i],
                lineWidth: 0,
                hidden: false,
                index: i,
              })),
          },
        },
        tooltip: { callbacks: { label: (ctx) => `${ctx.label}: ${formatValue(spec.unit, ctx.parsed as number)}` } },
      },
    },
  };
}

/** One dataset per series, colored in palette order; long series drop their point markers. */
function seriesDatasets(spec: ChartSpec) {
  const many = spec.labels.length > 40;
  return spec.series.map((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    return {
      label: s.label,
      data: s.values,
      borderColor: color,
      backgroundColor: spec.type === 'bar' ? alpha(color, 0.8) : alpha(color, 0.12),
      fill: spec.type === 'line' && spec.series.length === 1,
      tension: 0.2,
      pointRadius: many ? 0 : 3,
      pointHoverRadius: 4,
      borderWidth: 2,
      borderRadius: 4,
      spanGaps: true,
      maxBarThickness: 42,
    };
  });
}

/** Axes in pt-BR: short x labels (few ticks), y ticks in the chart's unit with decimals only when needed. */
function cartesianScales(spec: ChartSpec, narrow: boolean) {
  return {
    x: {
      grid: { display: false },
      ticks: {
        autoSkip: true,
        autoSkipPadding: 12,
        maxTicksLimit: spec.x === 'category' ? (narrow ? 6 : 12) : narrow ? 4 : 7,
        maxRotation: 0,
        callback: (_v: unknown, i: number) => formatAxisLabel(spec.x, spec.labels[i] ?? ''),
      },
    },
    y: {
      beginAtZero: spec.type === 'bar',
      grid: { color: '#eef2f6' },
      ticks: {
        maxTicksLimit: 6,
        callback: (v: unknown, _i: number, ticks: Array<{ value: number }>) =>
          formatTick(
            spec.unit,
            Number(v),
            ticks.some((t) => Math.abs(t.value - Math.round(t.value)) > 1e-9),
          ),
      },
    },
  };
}

/** Line and bar charts: the tooltip shows the full date or month and each series' value. */
function cartesianConfig(spec: ChartSpec, animation: Animation, narrow: boolean) {
  return {
    type: spec.type,
    data: { labels: spec.labels, datasets: seriesDatasets(spec) },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation,
      interaction: { mode: 'index' as const, intersect: false },
      scales: cartesianScales(spec, narrow),
      plugins: {
        legend: { display: spec.series.length > 1, position: 'bottom' as const },
        tooltip: {
          callbacks: {
            title: (items: Array<{ dataIndex: number }>) => (items[0] ? fullLabel(spec, spec.labels[items[0].dataIndex]) : ''),
            label: (ctx: { dataset: { label?: string }; parsed: { y: number } }) => `${ctx.dataset.label ?? ''}: ${formatValue(spec.unit, ctx.parsed.y)}`,
          },
        },
      },
    },
  };
}

function draw(canvas: HTMLCanvasElement, spec: ChartSpec, narrow: boolean): void {
  const animation = reducedMotion() ? false : { duration: 250 };
  const config = (spec.type === 'doughnut' ? doughnutConfig(spec, animation, narrow) : cartesianConfig(spec, animation, narrow)) as unknown as ChartConfiguration;
  new Chart(canvas, { ...config, plugins: [geometry] });
}
