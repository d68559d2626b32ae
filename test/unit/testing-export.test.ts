/**
 * `standing/testing` (issue 15, point 1): the checkpoint properties a scorer of one's own must
 * have, as plain functions, true for standing's scorers and false for scorers broken on purpose;
 * and the event store conformance suite, which a broken store fails.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cqr, SCORERS, type AnyScorer, type StandingEvent } from '../../src/index.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { EventStore } from '../../src/store/types.js';
import { eventStoreConformance, restoresCommunityAlone, restoresExactly, snapshotsRoundTrip } from '../../src/testing/index.js';

const events: StandingEvent[] = Array.from({ length: 20 }, (_, i) => ({ type: 'action', time: i, community: 'c', player: `p${i % 4}`, delta: (i * 7) % 23 - 11 }));

/** cqr, but its snapshot forgets every player but the first it lists: restoring loses state. */
const forgetful: AnyScorer = {
  ...cqr,
  id: 'forgetful',
  snapshot(state, community) {
    const whole = cqr.snapshot(state, community);
    if (whole === undefined) return undefined;
    const fresh = cqr.initialState(cqr.params.resolve({ T: 4, x: 0, k: 4 }));
    cqr.evolve(fresh, { type: 'action', time: 0, community, player: 'p0', delta: 1 });
    return cqr.snapshot(fresh, community);
  },
};

describe('standing/testing: restoresExactly', () => {
  it("holds for cqr at every cut, and fails a scorer whose snapshot loses state", () => {
    for (let at = 0; at <= events.length; at++) expect(restoresExactly(cqr, { T: 4, x: 0, k: 4 }, events, at)).toBe(true);
    const failing = Array.from({ length: events.length + 1 }, (_, at) => restoresExactly(forgetful, { T: 4, x: 0, k: 4 }, events, at)).filter((ok) => !ok);
    expect(failing.length).toBeGreaterThan(0);
  });
});

const player = fc.integer({ min: 0, max: 5 }).map((i) => `p${i}`);
const community = fc.constantFrom('a', 'b', 'c');
/** Events every scorer uses, among three communities, one time unit apart. */
const log: fc.Arbitrary<StandingEvent[]> = fc
  .array(
    fc.oneof(
      fc.record({ type: fc.constant('action' as const), community, player, delta: fc.integer({ min: -20, max: 20 }) }),
      fc.record({ type: fc.constant('match.start' as const), community, match: fc.constantFrom('m0', 'm1'), players: fc.uniqueArray(player, { minLength: 2, maxLength: 2 }) }),
      fc.record({ type: fc.constant('match.end' as const), community, match: fc.constantFrom('m0', 'm1') }),
      fc.record({ type: fc.constant('disconnect' as const), community, player }),
      fc.record({ type: fc.constant('rating' as const), community, from: player, to: player, value: fc.constantFrom(-1, 0.5, 1) }),
      fc.record({ type: fc.constant('report' as const), community, from: player, to: player }),
      fc.record({ type: fc.constant('played' as const), community, player, games: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ type: fc.constant('chat' as const), community, from: player, to: fc.array(player, { minLength: 1, maxLength: 2 }) }),
    ),
    { maxLength: 60 },
  )
  .map((items) => items.map((e, time) => ({ ...e, time }) as StandingEvent).filter((e) => !(e.type === 'rating' && e.from === e.to)));

const PARAMS: Record<string, Record<string, unknown>> = { cqr: { T: 4, x: 0, k: 2 }, reliability: {}, chat: {}, trust: { observers: 'p0' }, reports: {} };

/** cqr, but each snapshot it takes differs from the last (by trailing white space). */
let taken = 0;
const drifting: AnyScorer = { ...cqr, id: 'drifting', snapshot: (state, c) => cqr.snapshot(state, c)?.concat(' '.repeat(taken++ % 2)) };
/** cqr, but restoring `undefined` forgets nothing. */
const sticky: AnyScorer = { ...cqr, id: 'sticky', restore: (state, c, snapshot) => (snapshot === undefined ? undefined : cqr.restore(state, c, snapshot)) };

describe('standing/testing: snapshotsRoundTrip and restoresCommunityAlone', () => {
  it('hold for every scorer of standing', () => {
    for (const [id, scorer] of Object.entries(SCORERS)) {
      fc.assert(
        fc.property(log, fc.nat(), (events, at) => snapshotsRoundTrip(scorer, PARAMS[id]!, events) && restoresCommunityAlone(scorer, PARAMS[id]!, events, at)),
        { seed: 15, numRuns: 60 },
      );
    }
  });

  it('fail a scorer whose snapshot changes from one taking to the next, and one whose restore of undefined forgets nothing', () => {
    expect(snapshotsRoundTrip(drifting, { T: 4, x: 0, k: 4 }, events)).toBe(false);
    expect(restoresCommunityAlone(drifting, { T: 4, x: 0, k: 4 }, events, 10)).toBe(false);
    expect(snapshotsRoundTrip(sticky, { T: 4, x: 0, k: 4 }, events)).toBe(true);
    expect(restoresCommunityAlone(sticky, { T: 4, x: 0, k: 4 }, events, 10)).toBe(false);
  });
});

/** The cases of eventStoreConformance over `fresh`, run one by one: the names of those that fail. */
async function failingCases(fresh: () => Promise<() => EventStore>): Promise<string[]> {
  const cases: [string, () => Promise<void>][] = [];
  eventStoreConformance('under test', fresh, { describe: (_name, body) => body(), it: (name, body) => cases.push([name, body]) });
  const failing: string[] = [];
  for (const [name, body] of cases) await body().catch(() => failing.push(name));
  return failing;
}

describe('standing/testing: eventStoreConformance', () => {
  const sqlite = (wrap: (store: EventStore) => EventStore) => async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'standing-conformance-')), 'events.sqlite');
    return () => wrap(openSqliteStore(path));
  };
  /** The SQLite store, but it takes no notice of event ids. */
  const forgetsIds = (store: EventStore): EventStore =>
    Object.assign(Object.create(store) as EventStore, { append: (events: readonly StandingEvent[]) => store.append(events.map(({ id: _id, ...event }) => event as StandingEvent)) });

  it('runs under any describe and it, and passes the SQLite store', async () => {
    expect(await failingCases(sqlite((store) => store))).toEqual([]);
  });

  it('fails a store that takes no notice of event ids, in the cases about ids', async () => {
    expect(await failingCases(sqlite(forgetsIds))).toEqual([
      'stores events exactly as validated, extra fields included',
      'accepts a repeated id once, within a batch and across batches; ids are per community',
      'keeps what it acknowledged across closing and reopening',
      'answers which ids a community holds, and the last sequence of each community',
      'erasing removes the verdicts that name a removed report by id, in its community only',
      'lists moderator events filtered by community, player, moderator, action and time, paged by cursor in either order',
      'finds the player of a verdict naming its report by id only in a report of that id',
      'keeps sequences gapless under concurrent appends',
    ]);
  });
});
