/**
 * The hostile batches of issue 14 (test/service/hostile/collateral.test.ts): bodies every store
 * must refuse, each with the problem the answer must name. The cluster's parity test sends them
 * to `standing serve` and to a gateway alike (test/cluster/parity.test.ts).
 */
import { MAX_ID_LENGTH } from '../../src/events/limits.js';

export const T0 = Date.parse('2026-11-01T00:00:00Z');

export interface Attack {
  readonly name: string;
  readonly body: string;
  readonly contentType?: string;
  /** The problem the answer must name: index (and line for NDJSON), field and reason. */
  readonly problem: { index: number; line?: number; field: string; reason: RegExp };
}

export const valid = (extra: Record<string, unknown> = {}) => ({ type: 'action', time: T0, player: 'attacker', delta: 1, community: 'attacked', ...extra });

function deep(levels: number): string {
  return '{"a":'.repeat(levels) + 'null' + '}'.repeat(levels);
}

const DEEP_FIELD = `x${'/a'.repeat(31)}`;

/** Attacks every store must refuse. */
export const ATTACKS: Attack[] = [
  {
    name: 'an event nested 10,000 deep (JSON array)',
    body: `[${JSON.stringify(valid())},${JSON.stringify(valid()).slice(0, -1)},"x":${deep(10_000)}}]`,
    problem: { index: 1, field: DEEP_FIELD, reason: /deeper than the limit of 32 levels \(maxEventDepth\)/ },
  },
  {
    name: 'an event nested 10,000 deep (NDJSON)',
    body: `${JSON.stringify(valid())}\n\n${JSON.stringify(valid()).slice(0, -1)},"x":${deep(10_000)}}`,
    contentType: 'application/x-ndjson',
    problem: { index: 1, line: 3, field: DEEP_FIELD, reason: /deeper than the limit of 32 levels/ },
  },
  {
    name: 'a NUL in a community name',
    body: JSON.stringify([valid({ community: 'attacked\u0000' })]),
    problem: { index: 0, field: 'community', reason: /NUL character \(U\+0000\)/ },
  },
  {
    name: 'a NUL in an event id',
    body: JSON.stringify([valid(), valid({ id: 'e\u0000' })]),
    problem: { index: 1, field: 'id', reason: /NUL/ },
  },
  {
    name: 'a NUL in an extra field\u2019s key (NDJSON)',
    body: JSON.stringify(valid({ meta: { ['k\u0000']: 1 } })),
    contentType: 'application/x-ndjson',
    problem: { index: 0, line: 1, field: 'meta/k\\u0000', reason: /is a key that contains a NUL/ },
  },
  {
    name: 'a lone surrogate in a community name',
    body: JSON.stringify([valid({ community: 'c\ud800' })]),
    problem: { index: 0, field: 'community', reason: /lone UTF-16 surrogate \(U\+D800\)/ },
  },
  {
    name: 'a lone surrogate in a player id',
    body: JSON.stringify([valid({ player: '\udc01' })]),
    problem: { index: 0, field: 'player', reason: /lone UTF-16 surrogate \(U\+DC01\)/ },
  },
  {
    name: 'a __proto__ key (JSON)',
    body: `[${JSON.stringify(valid()).slice(0, -1)},"__proto__":{"polluted":true}}]`,
    problem: { index: 0, field: '__proto__', reason: /reserved key/ },
  },
  {
    name: 'a __proto__ key (NDJSON)',
    body: `${JSON.stringify(valid()).slice(0, -1)},"__proto__":{"polluted":true}}`,
    contentType: 'application/x-ndjson',
    problem: { index: 0, line: 1, field: '__proto__', reason: /reserved key/ },
  },
  {
    name: 'a player id over the maximum length',
    body: JSON.stringify([valid({ player: 'p'.repeat(MAX_ID_LENGTH + 1) })]),
    problem: { index: 0, field: 'player', reason: /longer than 128 characters/ },
  },
];

