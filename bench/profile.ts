// Summarises a V8 .cpuprofile (what `node --cpu-prof` writes): self time per function and per
// package, so that a run says where the server's CPU went without opening DevTools.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  /** Samples per source line (1-based) while this node was on top of the stack. */
  positionTicks?: { line: number; ticks: number }[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  /** Node id on top of the stack at each sample. */
  samples: number[];
  /** Microseconds since the previous sample; the first is since startTime. */
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Where: a repository-relative path and line, "node:…", or empty for V8 and native code. */
  location: string;
  self_ms: number;
  /** Share of the time the server was busy (idle excluded). */
  busy_share: number;
}

export interface ProfileSummary {
  path: string;
  /** Whether only the measured window was summarised (else the whole process life: start-up, set-up, warm-up). */
  measured_window_only: boolean;
  profile_ms: number;
  idle_ms: number;
  busy_ms: number;
  functions: SelfTime[];
  /** The same self time summed by package or source folder: which layer costs what. */
  packages: SelfTime[];
  /**
   * The hottest lines of billvend's own code (dist/). Native calls such as uWS's getHeader or
   * writeHeader have no frame of their own: their time shows as the calling line. Over the whole
   * process, as line samples carry no time stamps.
   */
  hot_lines: HotLine[];
}

export interface HotLine {
  location: string;
  code: string;
  samples: number;
  /** Share of all samples that were not idle. */
  busy_share: number;
}

/** Longest source text shown for a hot line. */
const line_text_max = 90;

/** A URL in the profile (or a path), shortened to what a reader of this repository recognises. */
function short_location(url: string, repo_root: string): string {
  let path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  if (path.startsWith(repo_root + '/')) path = path.slice(repo_root.length + 1);
  return path;
}

/** node_modules/pino/lib/tools.js → pino; dist/front/auth.js → dist/front; node:internal/… → node core. */
function package_of(location: string, name: string): string {
  const modules = location.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = location.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (location.startsWith('dist/')) {
    const parts = location.split('/');
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : 'dist';
  }
  if (location.startsWith('node:')) return 'node core';
  if (location === '') return name.startsWith('(') ? name : 'V8 builtins and native';
  return location;
}

/**
 * Self time per function and per package. With a window (CLOCK_MONOTONIC µs, which is what the
 * profile's timestamps are on Linux) only the samples inside it count, so that start-up, set-up and
 * warm-up do not dilute the request path; a window the profile does not overlap is ignored.
 */
export function summarize_profile(path: string, repo_root: string, top_max: number, window_us: { start: number; end: number } | null): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  if (profile.samples.length !== profile.timeDeltas.length) throw new Error(`${path}: samples and timeDeltas differ in length`);
  const by_id = new Map<number, ProfileNode>();
  for (const node of profile.nodes) by_id.set(node.id, node);

  // A sample's time is the gap to the next sample (how Chrome DevTools attributes it).
  const attribute = (from_us: number, to_us: number) => {
    const self_us = new Map<number, number>();
    let at_us = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      at_us += profile.timeDeltas[i];
      if (at_us < from_us || at_us >= to_us) continue;
      const gap_us = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
      self_us.set(profile.samples[i], (self_us.get(profile.samples[i]) ?? 0) + gap_us);
    }
    return self_us;
  };
  let self_us = window_us === null ? new Map<number, number>() : attribute(window_us.start, window_us.end);
  const measured_window_only = self_us.size > 0;
  if (!measured_window_only) self_us = attribute(-Infinity, Infinity);

  // A function is its name, file and line: one function reached through many stacks counts once,
  // and two anonymous functions of one file stay apart.
  const functions = new Map<string, { name: string; location: string; us: number }>();
  const packages = new Map<string, number>();
  let idle_us = 0;
  let total_us = 0;
  for (const [id, us] of self_us) {
    const frame = by_id.get(id)!.callFrame;
    total_us += us;
    if (frame.functionName === '(idle)') {
      idle_us += us;
      continue;
    }
    const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
    const file = short_location(frame.url, repo_root);
    const location = file === '' ? '' : `${file}:${frame.lineNumber + 1}`;
    const key = `${name}\u0000${location}`;
    const entry = functions.get(key) ?? { name, location, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    const pkg = package_of(file, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }

  const busy_us = total_us - idle_us;

  const line_samples = new Map<string, { file: string; line: number; samples: number }>();
  let busy_samples = 0;
  const idle_ids = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  for (const id of profile.samples) if (!idle_ids.has(id)) busy_samples++;
  for (const node of profile.nodes) {
    const file = short_location(node.callFrame.url, repo_root);
    if (!file.startsWith('dist/') || node.positionTicks === undefined) continue;
    for (const { line, ticks } of node.positionTicks) {
      const key = `${file}:${line}`;
      const entry = line_samples.get(key) ?? { file, line, samples: 0 };
      entry.samples += ticks;
      line_samples.set(key, entry);
    }
  }
  const sources = new Map<string, string[]>();
  const source_line = (file: string, line: number): string => {
    if (!sources.has(file)) {
      try {
        sources.set(file, readFileSync(`${repo_root}/${file}`, 'utf8').split('\n'));
      } catch {
        sources.set(file, []);
      }
    }
    const text = (sources.get(file)![line - 1] ?? '').trim();
    return text.length > line_text_max ? text.slice(0, line_text_max - 1) + '…' : text;
  };
  const hot_lines = [...line_samples.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, top_max)
    .map((l) => ({ location: `${l.file}:${l.line}`, code: source_line(l.file, l.line), samples: l.samples, busy_share: busy_samples === 0 ? 0 : l.samples / busy_samples }));
  const share = (us: number) => (busy_us === 0 ? 0 : us / busy_us);
  return {
    path: short_location(path, repo_root),
    measured_window_only,
    profile_ms: total_us / 1000,
    idle_ms: idle_us / 1000,
    busy_ms: busy_us / 1000,
    functions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top_max)
      .map((f) => ({ name: f.name, location: f.location, self_ms: f.us / 1000, busy_share: share(f.us) })),
    packages: [...packages.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top_max)
      .map(([name, us]) => ({ name, location: '', self_ms: us / 1000, busy_share: share(us) })),
    hot_lines,
  };
}
