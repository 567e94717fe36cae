import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { describe, expect, it } from '@jest/globals';

import { pairedRatio, type ScalingRow } from '../../bench/report/bench-report.js';
import {
  type ChartResults,
  formatCount,
  linearTicks,
  logTicks,
  ratioChart,
  scalingChart,
  writeResultCharts,
} from '../../bench/report/charts.js';
import type { RoundResult } from '../../bench/runner/load.js';

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (value: string) => value.replace(/&(\w+);/g, (_, name: string) => ENTITIES[name]!);

/**
 * A small XML well-formedness check, enough for the SVG the charts write (no XML parser is a
 * dependency): one root, tags nest and close, attributes quoted and not repeated, `&` only in one
 * of XML's five entities. Answers the elements in document order, their text decoded.
 */
function parseXml(xml: string): XmlElement[] {
  const body = xml.trim();
  const token = /<(\/?)([A-Za-z][\w.:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  const checkEntities = (value: string) => {
    if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(value)) throw new Error(`bare & in ${value}`);
  };
  while (token.lastIndex < body.length) {
    const at = token.lastIndex;
    const match = token.exec(body);
    if (!match) throw new Error(`not well-formed at ${at}: ${body.slice(at, at + 60)}`);
    const [, closing, name, attributes, selfClosing, text] = match;
    if (text !== undefined) {
      if (!open.length) throw new Error(`text outside the root: ${text}`);
      checkEntities(text);
      open.at(-1)!.text += decode(text);
    } else if (closing) {
      if (open.pop()?.name !== name) throw new Error(`</${name}> closes another element`);
    } else {
      if (!open.length && elements.length) throw new Error(`a second root <${name}>`);
      checkEntities(attributes!);
      const element: XmlElement = { name: name!, attributes: {}, text: '' };
      for (const [, key, value] of attributes!.matchAll(/([\w:-]+)="([^"]*)"/g)) {
        if (key! in element.attributes) throw new Error(`${key} twice on <${name}>`);
        element.attributes[key!] = decode(value!);
      }
      elements.push(element);
      if (!selfClosing) open.push(element);
    }
  }
  if (open.length) throw new Error(`<${open.at(-1)!.name}> is not closed`);
  return elements;
}

const titles = (elements: XmlElement[]) => elements.filter((e) => e.name === 'title').map((e) => e.text);
const texts = (elements: XmlElement[]) => elements.filter((e) => e.name === 'text').map((e) => e.text);

/** A round of `requests` requests at `rps`, costing `cpuPerRequest` µs each. */
const round = (rps: number, cpuPerRequest: number, requests = 1000): RoundResult => ({
  rps,
  p50: 1,
  p99: 2,
  requests,
  errors: 0,
  statuses: { 200: requests },
  serverRequests: requests,
  queries: requests,
  cpuMicros: cpuPerRequest * requests,
});

/** A scenario from its rounds (rps and CPU µs per request, ours and baseline), with the runner's own ratios. */
function scenario(id: string, title: string, ours: [number, number][], baseline: [number, number][]) {
  const rounds = {
    ours: ours.map(([rps, cpu]) => round(rps, cpu)),
    baseline: baseline.map(([rps, cpu]) => round(rps, cpu)),
  };
  return { id, title, ...pairedRatio(rounds), ours: { rounds: rounds.ours }, baseline: { rounds: rounds.baseline } };
}

const side = (p50: number) => ({
  rps: 1000 / p50,
  p50,
  p99: p50 * 3,
  sqlPerRequest: 2,
  cpuPerRequest: 500,
  peakRssMb: 100,
  errors: 0,
});

function results(overrides: Partial<ChartResults> & { db?: ChartResults['options']['db'] } = {}): ChartResults {
  const { db = 'sqlite', ...rest } = overrides;
  return {
    startedAt: '2026-11-24T22:53:27.562Z',
    options: { db, platform: 'express', rounds: 2, noDb: false, tracing: false },
    scenarios: [
      scenario(
        'rest-fetch',
        'REST GET /post/:id',
        [
          [900, 110],
          [1100, 90],
        ],
        [
          [1000, 100],
          [1000, 100],
        ],
      ),
      scenario(
        'rest-list',
        'REST list <page> & sort',
        [
          [1200, 80],
          [1300, 80],
        ],
        [
          [1000, 100],
          [1000, 100],
        ],
      ),
    ],
    scaling: [],
    ...rest,
  };
}

describe('bench ratio chart', () => {
  it('is well-formed SVG with an accessible title, the scenarios and the legend', () => {
    const elements = parseXml(ratioChart([results()]));
    expect(elements[0]).toMatchObject({
      name: 'svg',
      attributes: { role: 'img', xmlns: 'http://www.w3.org/2000/svg' },
    });
    expect(elements[1]).toMatchObject({ name: 'title', attributes: { id: 'chart-title' } });
    expect(elements[1]!.text).toContain('SQLite on Express');
    expect(texts(elements)).toEqual(
      expect.arrayContaining([
        'REST GET /post/:id',
        // Escaped in the file, the same text once read.
        'REST list <page> & sort',
        'SQLite on Express (2026-11-24, 2 rounds per side)',
        'Throughput ratio',
        'CPU ratio',
      ]),
    );
  });

  it('marks each scenario with its median ratio and round spread, throughput and CPU', () => {
    const elements = parseXml(ratioChart([results()]));
    // Throughput: rounds 0.90 and 1.10, median 1.00; CPU per request: 1.10 and 0.90 of the baseline's.
    // The second scenario: 1.20 and 1.30 (median 1.25), CPU 0.80 in both rounds.
    expect(titles(elements)).toEqual(
      expect.arrayContaining([
        'REST GET /post/:id, SQLite on Express: ratio 1.00, rounds 0.90-1.10',
        'REST GET /post/:id, SQLite on Express: CPU ratio 1.00, rounds 0.90-1.10',
        'REST list <page> & sort, SQLite on Express: ratio 1.25, rounds 1.20-1.30',
        'REST list <page> & sort, SQLite on Express: CPU ratio 0.80, rounds 0.80-0.80',
      ]),
    );
    expect(texts(elements)).toEqual(expect.arrayContaining(['1.00', '1.25', '0.80']));
    // Two marks per scenario, plus the legend's dot.
    expect(elements.filter((e) => e.name === 'circle')).toHaveLength(2 * 2 + 1);
  });

  it('draws the axis with round ticks and the 1.00 line dashed', () => {
    const elements = parseXml(ratioChart([results()]));
    const tickLabels = texts(elements).filter((text) => /^\d\.\d\d$/.test(text));
    expect(tickLabels).toEqual(expect.arrayContaining(['0.80', '1.00', '1.20']));
    expect(elements.filter((e) => e.name === 'line' && e.attributes['stroke-dasharray'])).toHaveLength(2);
  });

  it('cuts a wild round at the end of the axis with an arrow, keeping the true spread in the mark title', () => {
    const wild = scenario(
      'rest-create',
      'REST POST /post',
      [
        [1000, 100],
        [1000, 2000],
      ],
      [
        [1000, 100],
        [1000, 100],
      ],
    );
    const elements = parseXml(ratioChart([results({ scenarios: [wild] })]));
    expect(titles(elements)).toContain('REST POST /post, SQLite on Express: CPU ratio 10.50, rounds 1.00-20.00');
    expect(elements.filter((e) => e.name === 'polygon')).toHaveLength(1);
    const ticks = texts(elements).filter((text) => /^\d+\.\d\d$/.test(text) && text !== '10.50');
    expect(Math.max(...ticks.map(Number))).toBeLessThan(20);
  });

  it('puts several results files side by side, saying where a scenario was not measured', () => {
    const postgres = results({ db: 'postgres', scenarios: results().scenarios.slice(0, 1) });
    const mariadb = results({ db: 'mariadb' });
    const elements = parseXml(ratioChart([results(), postgres, mariadb]));
    expect(elements[1]!.text).toBe(
      'Ours / fastest careful controller, by scenario: SQLite on Express, PostgreSQL on Express, MariaDB on Express',
    );
    expect(titles(elements)).toEqual(
      expect.arrayContaining([
        'REST GET /post/:id, PostgreSQL on Express: ratio 1.00, rounds 0.90-1.10',
        'REST GET /post/:id, MariaDB on Express: CPU ratio 1.00, rounds 0.90-1.10',
      ]),
    );
    expect(texts(elements).filter((text) => text === 'not measured (PostgreSQL on Express)')).toHaveLength(2);
    // Each file's marks in its own colour, the same in both panels and in the legend.
    const fills = elements.filter((e) => e.name === 'circle').map((e) => e.attributes.fill);
    expect(new Set(fills).size).toBe(3);
  });

  it('names runs without the database, traced, and on Fastify', () => {
    const run = results();
    const label = titles(
      parseXml(ratioChart([{ ...run, options: { ...run.options, platform: 'fastify', noDb: true, tracing: true } }])),
    )[0];
    expect(label).toContain('SQLite on Fastify, no database, ours traced');
  });
});

describe('bench scaling chart', () => {
  const scaling: ScalingRow[] = [1000, 10000, 1000000].map((rows) => ({
    rows,
    ours: side(rows / 1000),
    baseline: side(rows / 900),
    variants: { none: side(6), cursor: side(7) },
  }));

  it('is absent when the run measured no scaling table', () => {
    expect(scalingChart(results())).toBeUndefined();
  });

  it('draws one line per request mode over the table sizes, on log axes', () => {
    const elements = parseXml(scalingChart(results({ scaling }))!);
    expect(elements[1]!.text).toBe('REST list page of 20 by table size: SQLite on Express, 2026-11-24');
    expect(elements.filter((e) => e.name === 'polyline')).toHaveLength(4);
    expect(texts(elements)).toEqual(
      expect.arrayContaining([
        '1k',
        '10k',
        '1M',
        'ours, count=exact (default)',
        'hand-written, exact count',
        'ours, count=none',
        'ours, cursor page after the middle row',
        'posts in the table (log scale)',
      ]),
    );
    expect(titles(elements)).toEqual(
      expect.arrayContaining([
        'ours, count=exact (default): 1,000,000 posts, p50 1000.0 ms, p99 3000.0 ms',
        'ours, count=none: 10,000 posts, p50 6.0 ms, p99 18.0 ms',
      ]),
    );
    // Log ticks from below the fastest (1 ms) to above the slowest (1111 ms).
    expect(texts(elements)).toEqual(expect.arrayContaining(['1', '10', '100', '1000', '2000']));
  });

  it('draws the exact and cursor lines flat and rising where the values say so', () => {
    const elements = parseXml(scalingChart(results({ scaling }))!);
    const [exact, , , cursor] = elements
      .filter((e) => e.name === 'polyline')
      .map((e) => e.attributes.points!.split(' ').map((point) => Number(point.split(',')[1])));
    // SVG y grows downwards: a slower request sits higher, at a smaller y.
    expect(exact![0]).toBeGreaterThan(exact![2]!);
    expect(new Set(cursor).size).toBe(1);
  });
});

describe('bench chart scales', () => {
  it('ticks a linear axis at round steps covering the values', () => {
    expect(linearTicks(0.83, 1.19)).toEqual([0.8, 0.9, 1, 1.1, 1.2]);
    expect(linearTicks(0.41, 2.82)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    expect(linearTicks(1, 1)).toEqual([1]);
  });

  it('ticks a log axis at 1, 2 and 5 times powers of ten', () => {
    expect(logTicks(5.5, 754.5)).toEqual([5, 10, 20, 50, 100, 200, 500, 1000]);
    expect(logTicks(0.3, 2)).toEqual([0.2, 0.5, 1, 2]);
  });

  it('writes row counts short', () => {
    expect([1000, 10000, 100000, 1000000, 2500000, 250].map(formatCount)).toEqual([
      '1k',
      '10k',
      '100k',
      '1M',
      '2.5M',
      '250',
    ]);
  });
});

describe('bench conditional GET chart', () => {
  const conditional = {
    ...scenario(
      'rest-include-304',
      'REST include, 304 vs 200',
      [
        [1200, 60],
        [1200, 60],
      ],
      [
        [1000, 100],
        [1000, 100],
      ],
    ),
    comparison: 'conditional' as const,
  };

  it('draws the conditional GETs apart, naming the 304 and the full 200 as its sides', () => {
    const run = results({ scenarios: [...results().scenarios, conditional] });
    const elements = parseXml(ratioChart([run], 'conditional'));
    expect(elements[1]!.text).toBe('Conditional GET, our 304 / our full 200, by scenario: SQLite on Express');
    const axes = [
      '304 / full 200 req/s (higher: 304 faster)',
      '304 / full 200 CPU µs per request (lower: 304 cheaper)',
    ];
    expect(texts(elements).filter((text) => axes.includes(text) || text.includes('304 vs 200'))).toEqual([
      ...axes,
      'REST include, 304 vs 200',
    ]);
    expect(titles(elements)).toContain('REST include, 304 vs 200, SQLite on Express: CPU ratio 0.60, rounds 0.60-0.60');
    expect(texts(elements)).not.toContain('REST GET /post/:id');
  });

  it('keeps them out of the chart against the fastest careful controller', () => {
    const run = results({ scenarios: [...results().scenarios, conditional] });
    const elements = parseXml(ratioChart([run]));
    expect(texts(elements)).toContain('REST GET /post/:id');
    expect(texts(elements)).not.toContain('REST include, 304 vs 200');
    expect(texts(elements)).toContain('ours / careful req/s (higher: ours faster)');
  });
});

describe('bench chart files', () => {
  it('writes the ratio chart, and the scaling chart when there is one, next to the results file', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'bench-charts-'));
    try {
      const file = path.join(directory, 'sqlite-express-2026-11-24T22-53-27-562Z.json');
      await writeFile(file, '{}');
      expect(await writeResultCharts(file, results())).toEqual([file.replace('.json', '-ratios.svg')]);
      const withScaling = results({ scaling: [{ rows: 1000, ours: side(5), baseline: side(5), variants: {} }] });
      expect(await writeResultCharts(file, withScaling)).toEqual([
        file.replace('.json', '-ratios.svg'),
        file.replace('.json', '-scaling.svg'),
      ]);
      expect((await readdir(directory)).sort()).toEqual([
        'sqlite-express-2026-11-24T22-53-27-562Z-ratios.svg',
        'sqlite-express-2026-11-24T22-53-27-562Z-scaling.svg',
        'sqlite-express-2026-11-24T22-53-27-562Z.json',
      ]);
      parseXml(await readFile(file.replace('.json', '-scaling.svg'), 'utf8'));
    } finally {
      await rm(directory, { recursive: true });
    }
  });

  it('writes the conditional GET chart when the results hold conditional GETs, and no ratio chart without others', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'bench-charts-'));
    try {
      const file = path.join(directory, 'sqlite-express-2026-11-24T22-53-27-562Z.json');
      const conditionalOnly = results({
        scenarios: results().scenarios.map((s) => ({ ...s, comparison: 'conditional' as const })),
      });
      expect(await writeResultCharts(file, conditionalOnly)).toEqual([file.replace('.json', '-conditional.svg')]);
      parseXml(await readFile(file.replace('.json', '-conditional.svg'), 'utf8'));
    } finally {
      await rm(directory, { recursive: true });
    }
  });
});
