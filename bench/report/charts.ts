import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

import type { BenchOptions } from '../bench-options.js';
import type { RoundResult } from '../runner/load.js';
import { type Comparison, type ComparisonId, comparisonOf, COMPARISONS } from '../scenarios.js';
import { cpuPerRequest, pairRatios, type ScalingRow, type ScenarioResult } from './bench-report.js';

// The bench's charts, drawn as plain SVG text from a results file (bench/results/*.json): the
// ratios of every scenario against the hand-written controller, those of the conditional GETs (our
// 304 against our full answer), and the list's latency by table size. `npm run bench` writes them next to its JSON; this file's command redraws them:
//
//   node .build/bench/report/charts.js <results.json>...                  each file's charts, next to it
//   node .build/bench/report/charts.js --compare <out.svg> <results.json>...  the files' ratios side by side

/**
 * What the charts read of a results file; files written before `noDb`, `tracing` and `comparison`
 * existed lack them (their scenarios are all against the hand-written controller).
 */
export interface ChartResults {
  startedAt: string;
  options: Pick<BenchOptions, 'db' | 'platform' | 'rounds'> & Partial<Pick<BenchOptions, 'noDb' | 'tracing'>>;
  scenarios: readonly (Pick<ScenarioResult, 'id' | 'title' | 'ratio' | 'ratioRange' | 'cpuRatio'> &
    Partial<Pick<ScenarioResult, 'comparison'>> & {
      ours: { rounds: readonly RoundResult[] };
      baseline: { rounds: readonly RoundResult[] };
    })[];
  scaling: readonly ScalingRow[];
}

type ChartScenario = ChartResults['scenarios'][number];

/** A median ratio and the lowest and highest of the round ratios it is the median of. */
interface RatioMark {
  value: number;
  low: number;
  high: number;
}

const DATABASE_NAMES: Record<BenchOptions['db'], string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  mariadb: 'MariaDB',
};

const PLATFORM_NAMES: Record<BenchOptions['platform'], string> = { express: 'Express', fastify: 'Fastify' };

/** Colours that stay apart for the common kinds of colour blindness (Okabe-Ito). */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
const colour = (index: number) => PALETTE[index % PALETTE.length]!;

const FONT = "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif";

/** "SQLite on Express, no database": what a run measured, as a legend names it. */
function runLabel({ options }: ChartResults): string {
  return (
    `${DATABASE_NAMES[options.db]} on ${PLATFORM_NAMES[options.platform]}` +
    `${options.noDb ? ', no database' : ''}${options.tracing ? ', ours traced' : ''}`
  );
}

const runDetail = (results: ChartResults) =>
  `${results.startedAt.slice(0, 10)}, ${results.options.rounds} rounds per side`;

/** The throughput ratio with its round spread as stored, and the CPU ratio with the spread of its paired rounds. */
function scenarioMarks(scenario: ChartScenario): { throughput: RatioMark; cpu: RatioMark } {
  const cpu = pairRatios({ ours: scenario.ours.rounds, baseline: scenario.baseline.rounds }, cpuPerRequest);
  return {
    throughput: { value: scenario.ratio, low: scenario.ratioRange[0], high: scenario.ratioRange[1] },
    cpu: { value: scenario.cpuRatio, low: cpu[0] ?? scenario.cpuRatio, high: cpu.at(-1) ?? scenario.cpuRatio },
  };
}

const ratioPanels = ({ ours, baseline }: Comparison['chart']) =>
  [
    {
      key: 'throughput',
      heading: 'Throughput ratio',
      axis: `${ours} / ${baseline} req/s (higher: ${ours} faster)`,
      name: 'ratio',
    },
    {
      key: 'cpu',
      heading: 'CPU ratio',
      axis: `${ours} / ${baseline} CPU µs per request (lower: ${ours} cheaper)`,
      name: 'CPU ratio',
    },
  ] as const;

const RATIO_KEY =
  'Dot: median of the paired round ratios; bar: lowest to highest round (an arrow: beyond the axis); dashed line: level (1.00).';

const LABEL_WIDTH = 320;
const PANEL_WIDTH = 330;
const PANEL_GAP = 30;
/** Room right of a panel's scale for the value written after each mark. */
const VALUE_ROOM = 40;
const SUB_ROW = 16;
const ROW_PADDING = 8;
const LEGEND_TOP = 64;
const LEGEND_LINE = 18;

/**
 * Ratio and CPU ratio of every scenario of one comparison (by default against the hand-written
 * controller), one row per scenario and, within it, one mark per results file: the median of the
 * paired round ratios, a bar from the lowest to the highest round, the 1.00 line where the two
 * sides are level.
 */
export function ratioChart(runs: readonly ChartResults[], comparison: ComparisonId = 'hand-written'): string {
  const { chart } = COMPARISONS[comparison];
  const panels = ratioPanels(chart);
  const compared = runs.flatMap((run) => run.scenarios).filter((s) => comparisonOf(s) === comparison);
  const scenarios = [...new Map(compared.map((s) => [s.id, s.title])).entries()];
  const marks = scenarios.map(([id]) =>
    runs.map((run) => {
      const scenario = run.scenarios.find((s) => s.id === id);
      return scenario && scenarioMarks(scenario);
    }),
  );
  const values = marks.flat().flatMap((mark) => (mark ? [mark.throughput, mark.cpu] : []));
  const ticks = linearTicks(...ratioDomain(values));
  const [first, last] = [ticks[0]!, ticks.at(-1)!];
  const rowHeight = runs.length * SUB_ROW + ROW_PADDING;
  const rowsTop = LEGEND_TOP + runs.length * LEGEND_LINE + 24;
  const rowsBottom = rowsTop + scenarios.length * rowHeight;
  const width = LABEL_WIDTH + 2 * PANEL_WIDTH + PANEL_GAP + 20;
  const height = rowsBottom + 48;
  const scale = (panel: number) => (value: number) =>
    LABEL_WIDTH +
    panel * (PANEL_WIDTH + PANEL_GAP) +
    ((Math.min(Math.max(value, first), last) - first) / (last - first)) * (PANEL_WIDTH - VALUE_ROOM);

  const title = `${chart.title}, by scenario: ${runs.map(runLabel).join(', ')}`;
  const body = [
    text(16, 24, title, { 'font-size': 15, 'font-weight': 'bold' }),
    text(16, 44, RATIO_KEY, { 'font-size': 11, fill: '#444' }),
    legend(
      16,
      LEGEND_TOP,
      runs.map((run, index) => ({ label: `${runLabel(run)} (${runDetail(run)})`, color: colour(index), dot: true })),
    ),
    ...scenarios.map((_, row) =>
      row % 2 === 0
        ? element('rect', { x: 8, y: rowsTop + row * rowHeight, width: width - 16, height: rowHeight, fill: '#f3f5f7' })
        : '',
    ),
    ...panels.flatMap((panel, index) => {
      const x = scale(index);
      const left = x(first);
      return [
        text(left, rowsTop - 10, panel.heading, { 'font-weight': 'bold' }),
        ...ticks.map((tick) =>
          element('line', {
            x1: x(tick),
            x2: x(tick),
            y1: rowsTop,
            y2: rowsBottom,
            stroke: tick === 1 ? '#333' : '#d0d4d9',
            'stroke-dasharray': tick === 1 ? '4 3' : undefined,
          }),
        ),
        element('line', { x1: left, x2: x(last), y1: rowsBottom, y2: rowsBottom, stroke: '#333' }),
        ...ticks.map((tick) =>
          text(x(tick), rowsBottom + 14, tick.toFixed(2), { 'font-size': 10, 'text-anchor': 'middle' }),
        ),
        text(left, rowsBottom + 32, panel.axis, { 'font-size': 11, fill: '#444' }),
      ];
    }),
    ...scenarios.flatMap(([, scenarioTitle], row) => {
      const top = rowsTop + row * rowHeight + ROW_PADDING / 2;
      return [
        text(LABEL_WIDTH - 12, top + (runs.length * SUB_ROW) / 2 + 4, scenarioTitle, { 'text-anchor': 'end' }),
        ...runs.flatMap((run, index) => {
          const y = top + index * SUB_ROW + SUB_ROW / 2;
          return panels.map((panel, panelIndex) => {
            const mark = marks[row]![index]?.[panel.key];
            const x = scale(panelIndex);
            if (!mark)
              return text(x(first), y + 4, `not measured (${runLabel(run)})`, { 'font-size': 10, fill: '#777' });
            return ratioMark(
              mark,
              x,
              [first, last],
              y,
              colour(index),
              `${scenarioTitle}, ${runLabel(run)}: ${panel.name}`,
            );
          });
        }),
      ];
    }),
  ];
  const description =
    `Two panels, throughput ratio and CPU ratio ${chart.description}, ` +
    `for ${scenarios.length} scenarios measured by npm run bench on ${runs.map(runLabel).join(', ')}.`;
  return svgDocument(width, height, title, description, body);
}

/**
 * The scale of the ratio panels: every median and 1.00, and the round spreads up to
 * SPREAD_ROOM beyond them: one disturbed round can reach 20x and would squash every other mark.
 */
function ratioDomain(marks: readonly RatioMark[]): [number, number] {
  const low = Math.min(1, ...marks.map((mark) => mark.value));
  const high = Math.max(1, ...marks.map((mark) => mark.value));
  return [
    Math.max(0, low - SPREAD_ROOM, Math.min(low, ...marks.map((mark) => mark.low))),
    Math.min(high + SPREAD_ROOM, Math.max(high, ...marks.map((mark) => mark.high))),
  ];
}

const SPREAD_ROOM = 0.25;

/** A dot at the median, a bar over the round spread (an arrowhead where the scale cuts it), the median written after it. */
function ratioMark(
  mark: RatioMark,
  x: (value: number) => number,
  [first, last]: readonly number[],
  y: number,
  color: string,
  label: string,
): string {
  const spread = `rounds ${mark.low.toFixed(2)}-${mark.high.toFixed(2)}`;
  const arrow = (tip: number, direction: number) =>
    element('polygon', {
      points: `${round(tip)},${y} ${round(tip - 6 * direction)},${y - 4} ${round(tip - 6 * direction)},${y + 4}`,
      fill: color,
    });
  return element('g', {}, [
    element('title', {}, [escapeXml(`${label} ${mark.value.toFixed(2)}, ${spread}`)]),
    element('line', { x1: x(mark.low), x2: x(mark.high), y1: y, y2: y, stroke: color, 'stroke-width': 2 }),
    mark.low < first! ? arrow(x(first!), -1) : '',
    mark.high > last! ? arrow(x(last!), 1) : '',
    element('circle', { cx: x(mark.value), cy: y, r: 4, fill: color }),
    text(x(mark.high) + 5, y + 4, mark.value.toFixed(2), { 'font-size': 10 }),
  ]);
}

const VARIANT_LABELS: Record<string, string> = {
  none: 'ours, count=none',
  estimated: 'ours, count=estimated',
  cursor: 'ours, cursor page after the middle row',
};

const PLOT = { left: 70, right: 560, top: 76, bottom: 366 };

/**
 * The list page's p50 latency by table size (both axes logarithmic): ours and the hand-written
 * controller with the exact count, and ours under each count strategy and cursor pagination.
 * Undefined when the results hold no scaling table (or only 0 ms latencies, which a log scale cannot place).
 */
export function scalingChart(results: ChartResults): string | undefined {
  const rows = results.scaling;
  const variants = [...new Set(rows.flatMap((row) => Object.keys(row.variants)))];
  const lines = [
    { label: 'ours, count=exact (default)', pick: (row: ScalingRow) => row.ours, dashed: false },
    { label: 'hand-written, exact count', pick: (row: ScalingRow) => row.baseline, dashed: true },
    ...variants.map((variant) => ({
      label: VARIANT_LABELS[variant] ?? `ours, ${variant}`,
      pick: (row: ScalingRow) => row.variants[variant],
      dashed: false,
    })),
  ].map((line, index) => ({
    ...line,
    color: line.dashed ? '#555' : colour(index),
    points: rows.flatMap((row) => {
      const side = line.pick(row);
      // A log scale has no place for 0 ms (or a variant the run did not measure).
      return side && side.p50 > 0 ? [{ rows: row.rows, p50: side.p50, p99: side.p99 }] : [];
    }),
  }));
  const latencies = lines.flatMap((line) => line.points.map((point) => point.p50));
  if (latencies.length === 0) return undefined;
  const yTicks = logTicks(Math.min(...latencies), Math.max(...latencies));
  const sizes = rows.map((row) => row.rows);
  const [minRows, maxRows] = [Math.min(...sizes), Math.max(...sizes)];
  const x = (count: number) =>
    minRows === maxRows
      ? (PLOT.left + PLOT.right) / 2
      : PLOT.left + 20 + (Math.log(count / minRows) / Math.log(maxRows / minRows)) * (PLOT.right - PLOT.left - 40);
  const y = (ms: number) =>
    PLOT.bottom - (Math.log(ms / yTicks[0]!) / Math.log(yTicks.at(-1)! / yTicks[0]!)) * (PLOT.bottom - PLOT.top);

  const title = `REST list page of 20 by table size: ${runLabel(results)}, ${results.startedAt.slice(0, 10)}`;
  const body = [
    text(16, 24, title, { 'font-size': 15, 'font-weight': 'bold' }),
    text(16, 44, 'p50 latency of one request; a flat line costs the same at every table size.', {
      'font-size': 11,
      fill: '#444',
    }),
    ...yTicks.flatMap((tick) => [
      element('line', { x1: PLOT.left, x2: PLOT.right, y1: y(tick), y2: y(tick), stroke: '#d0d4d9' }),
      text(PLOT.left - 6, y(tick) + 4, formatNumber(tick), { 'font-size': 10, 'text-anchor': 'end' }),
    ]),
    ...sizes.flatMap((size) => [
      element('line', { x1: x(size), x2: x(size), y1: PLOT.bottom, y2: PLOT.bottom + 5, stroke: '#333' }),
      text(x(size), PLOT.bottom + 18, formatCount(size), { 'font-size': 10, 'text-anchor': 'middle' }),
    ]),
    element('line', { x1: PLOT.left, x2: PLOT.right, y1: PLOT.bottom, y2: PLOT.bottom, stroke: '#333' }),
    element('line', { x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: PLOT.bottom, stroke: '#333' }),
    text((PLOT.left + PLOT.right) / 2, PLOT.bottom + 38, 'posts in the table (log scale)', {
      'font-size': 11,
      'text-anchor': 'middle',
      fill: '#444',
    }),
    text(0, 0, 'p50 latency, ms (log scale)', {
      'font-size': 11,
      'text-anchor': 'middle',
      fill: '#444',
      transform: `translate(22 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)`,
    }),
    ...lines.map((line) =>
      element('g', {}, [
        element('polyline', {
          points: line.points.map((point) => `${round(x(point.rows))},${round(y(point.p50))}`).join(' '),
          fill: 'none',
          stroke: line.color,
          'stroke-width': 2,
          'stroke-dasharray': line.dashed ? '6 4' : undefined,
        }),
        ...line.points.map((point) =>
          element('circle', { cx: x(point.rows), cy: y(point.p50), r: 3.5, fill: line.color }, [
            element('title', {}, [
              escapeXml(
                `${line.label}: ${point.rows.toLocaleString('en-US')} posts, p50 ${point.p50.toFixed(1)} ms, p99 ${point.p99.toFixed(1)} ms`,
              ),
            ]),
          ]),
        ),
      ]),
    ),
    legend(
      PLOT.right + 20,
      PLOT.top + 10,
      lines.map((line) => ({ label: line.label, color: line.color, dashed: line.dashed })),
    ),
  ];
  const description =
    `Line chart of the p50 latency in milliseconds of a REST list page of 20 posts against the number of posts ` +
    `(${sizes.map(formatCount).join(', ')}), one line per request mode: ${lines.map((line) => line.label).join('; ')}.`;
  return svgDocument(870, PLOT.bottom + 56, title, description, body);
}

interface LegendEntry {
  label: string;
  color: string;
  dot?: boolean;
  dashed?: boolean;
}

/** Swatches with their labels, one a line. */
function legend(x: number, y: number, entries: readonly LegendEntry[]): string {
  return element(
    'g',
    { 'font-size': 11 },
    entries.map((entry, index) => {
      const [left, top] = [x, y + index * LEGEND_LINE];
      const swatch = entry.dot
        ? element('circle', { cx: left + 8, cy: top, r: 4, fill: entry.color })
        : element('line', {
            x1: left,
            x2: left + 24,
            y1: top,
            y2: top,
            stroke: entry.color,
            'stroke-width': 2,
            'stroke-dasharray': entry.dashed ? '6 4' : undefined,
          });
      return swatch + text(left + (entry.dot ? 18 : 30), top + 4, entry.label);
    }),
  );
}

/** Round tick values 1, 2, 2.5 or 5 times a power of ten apart, from at or below `low` to at or above `high`. */
export function linearTicks(low: number, high: number, target = 6): number[] {
  const raw = (high - low) / target || 0.1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((multiple) => multiple * magnitude).find((candidate) => candidate >= raw)!;
  const first = Math.floor(low / step);
  const last = Math.ceil(high / step);
  return Array.from({ length: last - first + 1 }, (_, index) => Number(((first + index) * step).toFixed(10)));
}

/** 1, 2, 5 times powers of ten, from the last at or below `low` to the first at or above `high`. */
export function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let decade = Math.floor(Math.log10(low)); ticks.at(-1) === undefined || ticks.at(-1)! < high; decade++) {
    for (const multiple of [1, 2, 5]) ticks.push(Number((multiple * 10 ** decade).toFixed(10)));
  }
  const first = ticks.findLastIndex((tick) => tick <= low);
  const last = ticks.findIndex((tick) => tick >= high);
  return ticks.slice(first, last + 1);
}

/** 1000 → 1k, 1000000 → 1M. */
export function formatCount(count: number): string {
  if (count >= 1e6 && count % 1e5 === 0) return `${count / 1e6}M`;
  if (count >= 1e3 && count % 100 === 0) return `${count / 1e3}k`;
  return String(count);
}

const formatNumber = (value: number) => (value >= 1 ? String(value) : value.toPrecision(1));

const round = (value: number) => Math.round(value * 10) / 10;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

const escapeXml = (value: string) => value.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]!);

/** One element; numbers are rounded to 0.1 px, undefined attributes left out, no children makes it empty. */
function element(name: string, attributes: Record<string, string | number | undefined>, children: string[] = []) {
  const written = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${typeof value === 'number' ? round(value) : escapeXml(value!)}"`)
    .join('');
  return children.length ? `<${name}${written}>${children.join('')}</${name}>` : `<${name}${written}/>`;
}

function text(x: number, y: number, content: string, attributes: Record<string, string | number | undefined> = {}) {
  return element('text', { x, y, ...attributes }, [escapeXml(content)]);
}

function svgDocument(width: number, height: number, title: string, description: string, body: string[]): string {
  return `${element(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width,
      height,
      viewBox: `0 0 ${round(width)} ${round(height)}`,
      role: 'img',
      'aria-labelledby': 'chart-title chart-description',
      'font-family': FONT,
      'font-size': 12,
      fill: '#111',
    },
    [
      element('title', { id: 'chart-title' }, [escapeXml(title)]),
      element('desc', { id: 'chart-description' }, [escapeXml(description)]),
      element('rect', { width, height, fill: '#fff' }),
      ...body.filter(Boolean),
    ],
  )}\n`;
}

/**
 * Writes `<file>-ratios.svg` (against the fastest careful controller), `<file>-nest-team.svg` (against
 * the Nest-team one), `<file>-conditional.svg` (the
 * conditional GETs) and `<file>-scaling.svg`, each when the results hold what it draws; answers their paths.
 */
export async function writeResultCharts(file: string, results: ChartResults): Promise<string[]> {
  const base = file.replace(/\.json$/, '');
  const has = (comparison: ComparisonId) => results.scenarios.some((s) => comparisonOf(s) === comparison);
  const charts: [string, string | undefined][] = [
    [`${base}-ratios.svg`, has('hand-written') ? ratioChart([results]) : undefined],
    [`${base}-nest-team.svg`, has('nest-team') ? ratioChart([results], 'nest-team') : undefined],
    [`${base}-conditional.svg`, has('conditional') ? ratioChart([results], 'conditional') : undefined],
    [`${base}-scaling.svg`, scalingChart(results)],
  ];
  const written = charts.filter((chart): chart is [string, string] => chart[1] !== undefined);
  await Promise.all(written.map(([chartFile, svg]) => writeFile(chartFile, svg)));
  return written.map(([chartFile]) => chartFile);
}

async function readResults(file: string): Promise<ChartResults> {
  const results = JSON.parse(await readFile(file, 'utf8')) as ChartResults;
  if (!Array.isArray(results.scenarios)) throw new Error(`${file} holds no scenarios (a soak result?)`);
  return results;
}

const USAGE = `usage: charts <results.json>...                      each file's charts, written next to it
       charts --compare <out.svg> <results.json>...  one chart of the files' ratios side by side`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { compare: { type: 'string' } } });
  if (positionals.length === 0) throw new Error(USAGE);
  const runs = await Promise.all(positionals.map(readResults));
  if (values.compare) {
    await writeFile(values.compare, ratioChart(runs));
    console.log(values.compare);
    return;
  }
  for (const [index, file] of positionals.entries()) {
    for (const chart of await writeResultCharts(file, runs[index]!)) console.log(chart);
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
