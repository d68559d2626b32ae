/**
 * Part 3: end to end. A generated stream as an NDJSON file in os.tmpdir(), read by the real CLI
 * (`standing rank cqr FILE … --format json --top 10`, built by `npm run build`) with its default
 * parse threads and on the main thread alone, and by two baseline readers that only parse the
 * lines on one thread; each a child process, timed by wall clock and by the CPU time it used
 * (every thread of it), median of a few rounds, the four interleaved in every round. Run on the
 * stream shaped like game sessions and on one of 1,000,000 uniformly random players.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, heading, mebibytes, rate, ratio, seconds, table } from './format.js';
import { DEFAULT_SPEC, MILLION_PLAYERS_SPEC, writeNdjson, type StreamSpec } from './generate.js';
import { median, now } from './measure.js';
import { runNode } from './run-child.js';
import { defaultParseThreads } from '../src/events/ndjson.js';
import { against, ratioTarget, type Figure } from './figures.js';

export const TARGET_RATIO = 1.5;
const ROUNDS = 3;

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const READLINE = fileURLToPath(new URL('./baselines/readline-parse.js', import.meta.url));
const SPLIT = fileURLToPath(new URL('./baselines/split-parse.js', import.meta.url));

interface Contender {
  readonly label: string;
  readonly script: string;
  readonly args: (file: string) => string[];
  /** Baselines print the number of lines they parsed; checked against the file. */
  readonly baseline: boolean;
  readonly env?: Record<string, string>;
  readonly runs: number[];
  readonly cpu: number[];
}

/** Which stream part 3 reads: its spec, the prefix of its figures' ids, and how its title and figures name it. */
export interface EndToEndStream {
  readonly spec: StreamSpec;
  /** `cqr.cli` for the stream shaped like game sessions. */
  readonly id: string;
  /** `1,000,000 uniformly random players`, or '' for the stream of parts 1 and 2. */
  readonly name: string;
}

/** The two files part 3 reads, each held to the target. */
export const END_TO_END_STREAMS: readonly EndToEndStream[] = [
  { spec: DEFAULT_SPEC, id: 'cqr.cli', name: '' },
  { spec: MILLION_PLAYERS_SPEC, id: 'cqr.cli.million-players', name: '1,000,000 uniformly random players' },
];

export async function runEndToEnd({ spec, id, name }: EndToEndStream): Promise<{ text: string; figures: Figure[] }> {
  const file = join(tmpdir(), `standing-bench-${process.pid}.ndjson`);
  try {
    const writeStart = now();
    const written = writeNdjson(file, spec);
    const writeTime = now() - writeStart;

    const rank = (f: string) => ['rank', 'cqr', f, '--set', 'T=8', '--set', 'x=10', '--set', 'k=4', '--format', 'json', '--top', '10'];
    const threads = defaultParseThreads(written.bytes);
    const contenders: Contender[] = [
      {
        label: `standing rank cqr (T=8,x=10,k=4; ${threads === 0 ? 'main thread' : `main + ${threads} parse thread${threads > 1 ? 's' : ''}`}, the default)`,
        script: CLI,
        args: rank,
        baseline: false,
        runs: [],
        cpu: [],
      },
      { label: '  the same, parsed on the main thread alone', script: CLI, args: rank, baseline: false, runs: [], cpu: [], env: { STANDING_PARSE_THREADS: '0' } },
      { label: 'baseline: readline + JSON.parse', script: READLINE, args: (f) => [f], baseline: true, runs: [], cpu: [] },
      { label: 'baseline: chunk split + JSON.parse', script: SPLIT, args: (f) => [f], baseline: true, runs: [], cpu: [] },
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const contender of contenders) {
        const run = await runNode(contender.script, contender.args(file), contender.baseline, contender.env);
        if (contender.baseline && Number(run.stdout.trim()) !== written.lines) {
          throw new Error(`${contender.label} parsed ${run.stdout.trim()} lines, expected ${written.lines}`);
        }
        contender.runs.push(run.seconds);
        contender.cpu.push(run.cpuSeconds);
      }
    }

    const [standing, serial] = contenders as [Contender, Contender, ...Contender[]];
    const split = contenders.find((c) => c.script === SPLIT)!;
    const readline = contenders.find((c) => c.script === READLINE)!;
    const splitTime = median(split.runs);
    const splitCpu = median(split.cpu);
    const standingTime = median(standing.runs);
    const serialTime = median(serial.runs);
    /** CPU µs per line of the file. */
    const perLine = (cpu: number) => (cpu / written.lines) * 1e6;
    const rows = contenders.map((c) => {
      const t = median(c.runs);
      const cpu = median(c.cpu);
      const vs = c === standing ? '—' : c === serial ? `${ratio(standingTime / t)} (÷ split: ${ratio(t / splitTime)})` : ratio(standingTime / t);
      const ok = !c.baseline ? '—' : standingTime / t <= TARGET_RATIO ? 'yes' : 'NO';
      return [c.label, seconds(t), rate(written.lines / t, 'lines'), c.runs.map((r) => r.toFixed(2)).join(' / '), vs, ok, `${perLine(cpu).toFixed(2)} µs`, ratio(cpu / splitCpu)];
    });
    const title = name === '' ? '' : `, ${name}`;
    const text = [
      heading(`3. End to end: NDJSON file → real CLI (child processes, wall clock and CPU)${title}`),
      `${file}: ${count(written.lines)} lines (${count(spec.players)} players), ${mebibytes(written.bytes)}, written in ${seconds(writeTime)}.`,
      `CLI: node dist/cli/main.js rank cqr FILE --set T=8 --set x=10 --set k=4 --format json --top 10 (stdout discarded).`,
      `Median of ${ROUNDS} rounds, contenders interleaved; each time includes node start-up. CPU: user + system time of the`,
      'child, all its threads, per line of the file, and over the chunk split baseline’s in the same run.',
      '',
      table(
        [
          { title: 'contender' },
          { title: 'median', align: 'right' },
          { title: 'throughput', align: 'right' },
          { title: 'runs (s)', align: 'right' },
          { title: 'standing ÷ this', align: 'right' },
          { title: '≤ 1.5×' },
          { title: 'CPU per line', align: 'right' },
          { title: 'CPU ÷ split', align: 'right' },
        ],
        rows,
      ),
    ].join('\n');
    const vs = (c: Contender, time: number) => against(c.label.replace('baseline: ', ''), median(c.runs), 's', time / median(c.runs));
    const held = (c: Contender) => ratioTarget('<=', TARGET_RATIO, "× the baseline's time", standingTime / median(c.runs) <= TARGET_RATIO);
    const what = `standing rank cqr on a ${count(written.lines)}-line NDJSON file${title}, end to end`;
    const standingCpu = median(standing.cpu);
    const figures: Figure[] = [
      { id, part: 3, what: `${what} (default parse threads)`, value: standingTime, unit: 's', ...vs(split, standingTime), ...held(split) },
      { id: `${id}.readline`, part: 3, what: `${what} (default parse threads)`, value: standingTime, unit: 's', ...vs(readline, standingTime), ...held(readline) },
      {
        id: `${id}.cpu`,
        part: 3,
        what: `${what} (default parse threads): CPU per line, all threads`,
        value: perLine(standingCpu),
        unit: 'µs',
        ...against('chunk split + JSON.parse', perLine(splitCpu), 'µs', standingCpu / splitCpu, "× the baseline's CPU"),
      },
      { id: `${id}.main-thread`, part: 3, what: `${what}, parsed on the main thread alone`, value: serialTime, unit: 's', ...vs(split, serialTime) },
    ];
    return { text, figures };
  } finally {
    rmSync(file, { force: true });
  }
}
