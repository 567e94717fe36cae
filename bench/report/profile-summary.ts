import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { markdownTable } from './bench-report.js';

// `node .build/bench/report/profile-summary.js <file.cpuprofile> [top]`: the functions with the
// most self time in a V8 CPU profile (written by `npm run bench -- --cpu-prof <dir>`).

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  location: string;
  ms: number;
  share: number;
}

/** Self time by function (name and source location), largest first. */
export function selfTimes(profile: CpuProfile, root = process.cwd()): SelfTime[] {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, SelfTime>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const frame = byNode.get(id)!.callFrame;
    const file = frame.url.startsWith('file://') ? path.relative(root, new URL(frame.url).pathname) : frame.url;
    const location = file ? `${file}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName}@${location}`;
    const entry = totals.get(key) ?? { name: frame.functionName || '(anonymous)', location, ms: 0, share: 0 };
    entry.ms += micros / 1000;
    all += micros / 1000;
    totals.set(key, entry);
  });
  return [...totals.values()]
    .map((entry) => ({ ...entry, share: all > 0 ? entry.ms / all : 0 }))
    .sort((a, b) => b.ms - a.ms);
}

/** The same, summed by package or source folder: where the time goes at a glance. */
export function selfTimesByArea(times: readonly SelfTime[]): [string, number][] {
  const areas = new Map<string, number>();
  for (const time of times) {
    const area = areaOf(time);
    areas.set(area, (areas.get(area) ?? 0) + time.share);
  }
  return [...areas.entries()].sort((a, b) => b[1] - a[1]);
}

function areaOf({ name, location }: SelfTime): string {
  if (!location) return name.startsWith('(') ? name : '(native)';
  const modules = location.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (modules) return modules[1]!;
  if (location.startsWith('node:')) return 'node core';
  return path.dirname(location.split(':')[0]!);
}

async function main(): Promise<void> {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const times = selfTimes(JSON.parse(await readFile(file, 'utf8')) as CpuProfile);
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
  console.log(
    markdownTable(
      ['area', 'self'],
      selfTimesByArea(times)
        .slice(0, 12)
        .map(([area, share]) => [area, percent(share)]),
    ),
  );
  console.log();
  console.log(
    markdownTable(
      ['function', 'location', 'self ms', 'self'],
      times.slice(0, Number(top)).map((time) => [time.name, time.location, time.ms.toFixed(0), percent(time.share)]),
    ),
  );
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
