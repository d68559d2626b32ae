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
import { LATEST_VERSION } from '../../src/store/migrations.js';
import type { AlertStore, CheckpointStore, ClaimStore, ErasureStore, EventLog, EventStore, KeyStore, ModerationIndex, ReporterIndex, SecretStore, StoreLifecycle } from '../../src/store/types.js';
import {
  alertStoreSuite,
  checkpointSuite,
  claimStoreSuite,
  erasureSuite,
  eventLogSuite,
  eventStoreConformance,
  keyStoreSuite,
  moderationIndexSuite,
  reporterIndexSuite,
  restoresCommunityAlone,
  restoresExactly,
  secretStoreSuite,
  snapshotsRoundTrip,
  storeLifecycleSuite,
  type ClaimingStore,
  type Closing,
  type ErasableStore,
  type FreshStore,
  type TestFunctions,
} from '../../src/testing/index.js';

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

/** The cases `declare` declares, by name, with the names of the describes they are in. */
function casesOf(declare: (test: TestFunctions) => void): { path: string[]; name: string; body: () => Promise<void> }[] {
  const cases: { path: string[]; name: string; body: () => Promise<void> }[] = [];
  const path: string[] = [];
  declare({
    describe: (name, body) => {
      path.push(name);
      body();
      path.pop();
    },
    it: (name, body) => cases.push({ path: [...path], name, body }),
  });
  return cases;
}

/** The cases `declare` declares, run one by one: the names of those that fail. */
async function failingCases(declare: (test: TestFunctions) => void): Promise<string[]> {
  const failing: string[] = [];
  for (const { name, body } of casesOf(declare)) await body().catch(() => failing.push(name));
  return failing;
}

const sqlite = (wrap: (store: EventStore) => EventStore) => async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'standing-conformance-')), 'events.sqlite');
  return () => wrap(openSqliteStore(path));
};
/** The SQLite store, but it takes no notice of event ids. */
const forgetsIds = (store: EventStore): EventStore =>
  Object.assign(Object.create(store) as EventStore, { append: (events: readonly StandingEvent[]) => store.append(events.map(({ id: _id, ...event }) => event as StandingEvent)) });

describe('standing/testing: eventStoreConformance', () => {
  it('runs under any describe and it, and passes the SQLite store', async () => {
    expect(await failingCases((test) => eventStoreConformance('under test', sqlite((store) => store), test))).toEqual([]);
  });

  it('fails a store that takes no notice of event ids, in the cases about ids', async () => {
    expect(await failingCases((test) => eventStoreConformance('under test', sqlite(forgetsIds), test))).toEqual([
      'stores events exactly as validated, extra fields included',
      'accepts a repeated id once, within a batch and across batches; ids are per community',
      'keeps what it acknowledged across closing and reopening',
      'answers which ids a community holds, and the last sequence of each community',
      'keeps sequences gapless under concurrent appends',
      'lists moderator events filtered by community, player, moderator, action and time, paged by cursor in either order',
      'finds the player of a verdict naming its report by id only in a report of that id',
      'hands each verdict naming a removed report by id to the rewrite with that report, in its community only, and does what it says',
      'erasing a player takes the moderator events about them out of the moderation listing',
    ]);
  });
});

/** The methods of each port of the store. */
const PORTS = {
  'event log': ['append', 'read', 'knownIds', 'sequences', 'communities', 'readTails', 'lastEvents'] satisfies (keyof EventLog)[],
  'checkpoint store': ['saveCheckpoints', 'saveCheckpointSets', 'loadCheckpoints', 'loadCheckpointSets'] satisfies (keyof CheckpointStore)[],
  'key store': ['saveKey', 'findKey', 'listKeys', 'revokeKey', 'keyRevision'] satisfies (keyof KeyStore)[],
  'alert store': ['appendAlerts', 'readAlerts', 'pruneAlerts', 'openAlerts'] satisfies (keyof AlertStore)[],
  'moderation index': ['moderationEvents'] satisfies (keyof ModerationIndex)[],
  erasure: ['erase'] satisfies (keyof ErasureStore)[],
  'claim store': ['claimCase', 'caseClaim', 'releaseCase'] satisfies (keyof ClaimStore)[],
  'secret store': ['secret'] satisfies (keyof SecretStore)[],
  'reporter index': ['reportsBy'] satisfies (keyof ReporterIndex)[],
  'store lifecycle': ['kind', 'hold', 'schemaVersion', 'close'] satisfies (keyof StoreLifecycle)[],
} as const;
type Port = keyof typeof PORTS;

type Wrap = (store: EventStore) => EventStore;

/** The SQLite store (through `wrap`) as an object with the members of `ports` (and `close`) only: a store that implements those ports alone. */
function only<S>(wrap: Wrap, ...ports: Port[]): FreshStore<S & Closing> {
  return async () => {
    const open = await sqlite(wrap)();
    return () => {
      const store = open();
      const members = new Set<keyof EventStore>(['close', ...ports.flatMap((port) => PORTS[port])]);
      return Object.fromEntries([...members].map((member) => [member, typeof store[member] === 'function' ? (store[member] as () => unknown).bind(store) : store[member]])) as S & Closing;
    };
  };
}

/** Each port's suite, as it declares itself over the SQLite store (through `wrap`) reduced to the ports the suite needs. */
const suites = (wrap: Wrap): Record<Port, (test: TestFunctions) => void> => ({
  'event log': (test) => eventLogSuite('under test', only<EventLog>(wrap, 'event log'), test),
  'checkpoint store': (test) => checkpointSuite('under test', only<CheckpointStore>(wrap, 'checkpoint store'), test),
  'key store': (test) => keyStoreSuite('under test', only<KeyStore>(wrap, 'key store'), test),
  'alert store': (test) => alertStoreSuite('under test', only<AlertStore>(wrap, 'alert store'), test),
  'moderation index': (test) => moderationIndexSuite('under test', only<ModerationIndex & EventLog>(wrap, 'moderation index', 'event log'), test),
  erasure: (test) => erasureSuite('under test', only<ErasableStore>(wrap, 'erasure', 'event log', 'checkpoint store', 'alert store', 'moderation index'), test),
  'claim store': (test) => claimStoreSuite('under test', only<ClaimingStore>(wrap, 'claim store', 'erasure', 'event log'), test),
  'secret store': (test) => secretStoreSuite('under test', only<SecretStore>(wrap, 'secret store'), test),
  'reporter index': (test) => reporterIndexSuite('under test', only<ReporterIndex & EventLog>(wrap, 'reporter index', 'event log'), test),
  'store lifecycle': (test) => storeLifecycleSuite('under test', only<StoreLifecycle>(wrap, 'store lifecycle'), test, { schemaVersion: LATEST_VERSION }),
});

const ports = Object.keys(PORTS) as Port[];

describe('issue 26: one conformance suite per port of the store', () => {
  it('are together the whole event store suite: its cases are theirs, each under its port', () => {
    const whole = casesOf((test) => eventStoreConformance('under test', sqlite((store) => store), test));
    expect(whole.every((c) => c.path.length === 2 && c.path[0] === 'event store conformance: under test' && ports.includes(c.path[1] as Port))).toBe(true);
    for (const port of ports) {
      const own = casesOf(suites((store) => store)[port]);
      expect(own.every((c) => c.path.length === 1 && c.path[0] === `${port} conformance: under test`)).toBe(true);
      expect(whole.filter((c) => c.path[1] === port).map((c) => c.name)).toEqual(own.map((c) => c.name));
    }
  });

  it('each pass the SQLite store reduced to the ports the suite needs: no suite uses another port', async () => {
    const failing: Partial<Record<Port, string[]>> = {};
    for (const port of ports) failing[port] = await failingCases(suites((store) => store)[port]);
    expect(failing).toEqual(Object.fromEntries(ports.map((port) => [port, []])));
  });

  it('catch a store that takes no notice of event ids in the suites of the ports that rely on ids, and only there', async () => {
    const failing: Partial<Record<Port, string[]>> = {};
    for (const port of ports) failing[port] = await failingCases(suites(forgetsIds)[port]);
    expect(failing).toEqual({
      'event log': [
        'stores events exactly as validated, extra fields included',
        'accepts a repeated id once, within a batch and across batches; ids are per community',
        'keeps what it acknowledged across closing and reopening',
        'answers which ids a community holds, and the last sequence of each community',
        'keeps sequences gapless under concurrent appends',
      ],
      'checkpoint store': [],
      'key store': [],
      'alert store': [],
      'moderation index': [
        'lists moderator events filtered by community, player, moderator, action and time, paged by cursor in either order',
        'finds the player of a verdict naming its report by id only in a report of that id',
      ],
      erasure: [
        'hands each verdict naming a removed report by id to the rewrite with that report, in its community only, and does what it says',
        'erasing a player takes the moderator events about them out of the moderation listing',
      ],
      'claim store': [],
      'secret store': [],
      'reporter index': [],
      'store lifecycle': [],
    });
  });
});
