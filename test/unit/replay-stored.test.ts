/**
 * Replaying a stored log (engine/replay.ts: replayStored), the one loop behind restart, erasure,
 * history and the quality stage's rebuild: events the live engine left out (a domain action its
 * domain refuses, an event a scorer throws on) are left out and reported, everything else is
 * applied in order, and `before` can end the replay without reading further.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_DOMAINS, cqr, Engine, EventConflictError, instantiate, QualityStage, type AnyScorer, type StandingEvent } from '../../src/index.js';
import { replayStored, type SequencedEvent } from '../../src/engine/replay.js';
import { fragile } from '../support/fragile-scorer.js';

const action = (time: number, player: string, extra: Record<string, unknown> = { delta: time }): StandingEvent =>
  ({ type: 'action', time, community: 'g', player, ...extra }) as StandingEvent;

/** A stored log with gaps (as after an erasure), one refused domain action and one event the scorer throws on. */
const LOG: SequencedEvent[] = [
  { sequence: 1, event: action(1, 'ann') },
  { sequence: 2, event: action(2, 'board', { domain: 'clustering', dot: 'a', color: 'black', x: 0, y: 0 }) },
  { sequence: 4, event: action(4, 'bob', { domain: 'clustering', dot: 'ghost', x: 1, y: 1 }) },
  { sequence: 5, event: action(5, 'boom') },
  { sequence: 7, event: action(7, 'bob') },
  { sequence: 8, event: action(8, 'ann') },
];

const engineOf = (scorer: AnyScorer) => new Engine([instantiate(scorer, { T: 8, x: 0, k: 8 })], { quality: new QualityStage({ domains: BUILTIN_DOMAINS }) });

async function* paged(log: readonly SequencedEvent[], read: number[]): AsyncGenerator<SequencedEvent> {
  for (const stored of log) {
    read.push(stored.sequence);
    yield stored;
  }
}

describe('replayStored', () => {
  it('applies a stored log in order, leaving out and reporting what a domain refuses or a scorer throws on', async () => {
    const engine = engineOf(fragile);
    const skipped: [number, unknown][] = [];
    const outcome = await replayStored(engine, LOG, { onSkipped: (sequence, error) => skipped.push([sequence, error]) });

    expect(outcome).toEqual({ events: 6, last: { sequence: 8, time: 8 } });
    expect(skipped.map(([sequence]) => sequence)).toEqual([4, 5]);
    expect(skipped[0]![1]).toBeInstanceOf(EventConflictError);
    expect((skipped[1]![1] as Error).message).toBe('fragile cannot take boom');
    // The scorer saw every other event: what cqr ranks from them alone.
    const alone = engineOf(cqr);
    for (const { sequence, event } of LOG) if (sequence !== 4 && sequence !== 5) alone.apply(event);
    const rank = (e: Engine) => e.instances[0]!.scorer.rank(e.instances[0]!.state);
    expect(rank(engine)).toEqual(rank(alone));
    expect(rank(engine).map((row) => row.player)).toEqual(['ann', 'bob']);
  });

  it('ends where `before` says, with the position of the event before, reading no further', async () => {
    const engine = engineOf(cqr);
    const asked: [number, unknown][] = [];
    const read: number[] = [];
    const outcome = await replayStored(engine, paged(LOG, read), {
      before: (sequence, previous) => {
        asked.push([sequence, previous]);
        return sequence < 7;
      },
    });
    expect(asked).toEqual([
      [1, undefined],
      [2, { sequence: 1, time: 1 }],
      [4, { sequence: 2, time: 2 }],
      [5, { sequence: 4, time: 4 }],
      [7, { sequence: 5, time: 5 }],
    ]);
    expect(outcome).toEqual({ events: 4, last: { sequence: 5, time: 5 } });
    expect(read).toEqual([1, 2, 4, 5, 7]);
  });

  it('reads nothing from an empty log', async () => {
    expect(await replayStored(engineOf(cqr), [])).toEqual({ events: 0, last: undefined });
  });
});
