/**
 * Part 2: bytes of CQR state per player. (a) What the store's typed arrays hold (allocated
 * capacity, so it includes the slack of growth by doubling), and (b) the measured heap growth:
 * heapUsed + arrayBuffers after a full GC, before and after building the state, which also counts
 * the id interner (its Map and the id strings). The events are generated on the fly with a fresh
 * id string each, as parsed input would be, so only what the state keeps survives the GC.
 */
import type { CqrParams } from '../src/scorers/cqr/params.js';
import { cqr } from '../src/scorers/cqr/scorer.js';
import { bytes, count, heading, mebibytes, table } from './format.js';
import { forEachAction, playerId, type StreamSpec } from './generate.js';
import { collectGarbage } from './measure.js';
import type { Figure } from './figures.js';

const PARAMETERIZATIONS: readonly { key: string; label: string; input: Partial<CqrParams> }[] = [
  { key: 'default', label: 'T=8,x=10,k=4', input: { T: 8, x: 10, k: 4 } },
  { key: 't-inf', label: 'T=Infinity,x=0,k=Infinity', input: { T: Infinity, x: 0, k: Infinity } },
];

interface Measurement {
  readonly label: string;
  readonly players: number;
  readonly typedBytes: number;
  readonly heapBytes: number;
}

function retainedBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function measure(label: string, params: CqrParams, spec: StreamSpec): Measurement {
  collectGarbage();
  const before = retainedBytes();
  const state = cqr.initialState(params);
  forEachAction(spec, (time, player, delta) => {
    cqr.evolve(state, { type: 'action', time, community: 'default', player: playerId(player), delta });
  });
  collectGarbage();
  const after = retainedBytes();
  const store = state.communities.get('default')!;
  return { label, players: store.size, typedBytes: store.typedArrayBytes(), heapBytes: after - before };
}

export function runMemory(spec: StreamSpec): { text: string; figures: Figure[] } {
  const results = PARAMETERIZATIONS.map(({ label, input }) => measure(label, cqr.params.resolve(input), spec));
  const rows = results.map((m) => [
    m.label,
    count(m.players),
    mebibytes(m.typedBytes),
    bytes(m.typedBytes / m.players),
    mebibytes(m.heapBytes),
    bytes(m.heapBytes / m.players),
    bytes((m.heapBytes - m.typedBytes) / m.players),
  ]);
  const text = [
    heading('2. Bytes of CQR state per player'),
    `State built from ${count(spec.actions)} actions. typed = CqrCommunityStore.typedArrayBytes() (allocated capacity);`,
    'heap = Δ(heapUsed + arrayBuffers) around the build, after full GCs (includes the interner Map and id strings).',
    '',
    table(
      [
        { title: 'parameters' },
        { title: 'players', align: 'right' },
        { title: 'typed total', align: 'right' },
        { title: 'typed/player', align: 'right' },
        { title: 'heap total', align: 'right' },
        { title: 'heap/player', align: 'right' },
        { title: 'non-typed/player', align: 'right' },
      ],
      rows,
    ),
  ].join('\n');
  const figures: Figure[] = results.flatMap((m, i): Figure[] => {
    const key = PARAMETERIZATIONS[i]!.key;
    return [
      { id: `cqr.memory.${key}.typed`, part: 2, what: `cqr state per player, ${m.label}: its typed arrays`, value: m.typedBytes / m.players, unit: 'B' },
      { id: `cqr.memory.${key}.heap`, part: 2, what: `cqr state per player, ${m.label}: measured heap (ids and interner included)`, value: m.heapBytes / m.players, unit: 'B' },
    ];
  });
  return { text, figures };
}
