/**
 * Issue 27: a history reads only the events its scorer uses whole (and every domain action); of
 * the others, SQLite gives only the type and event time. Held here to the history a replay of
 * the whole log from nothing gives at each of its points, for every scorer, on one community
 * holding every event type: refused domain actions, late events and one far ahead included.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Engine, instantiate } from '../../../src/engine/engine.js';
import { replayStored } from '../../../src/engine/replay.js';
import type { StandingEvent } from '../../../src/events/types.js';
import { validateEvent } from '../../../src/events/validate.js';
import { QualityStage } from '../../../src/quality/stage.js';
import { scorerById } from '../../../src/scorers/index.js';
import { scoreHistory, type HistoryPoint } from '../../../src/service/history.js';
import { eventsAfter } from '../../../src/store/pages.js';
import { openPostgresStore } from '../../../src/store/postgres.js';
import type { EventStore } from '../../../src/store/types.js';
import { seededRng } from '../../../src/util/random.js';
import { dropPostgresSchemas, freshPostgresUrl, postgresAvailable } from '../../support/postgres.js';
import { openSqlite, QUALITY, sqlitePath } from './support.js';

const C = 'mixed';
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;

/** Each scorer with parameters under which the community's clock matters (expiry, the shared-match window, verdicts). */
const SCORERS: [string, Record<string, unknown>][] = [
  ['cqr', { T: 4, x: 5, k: 2 }],
  ['reliability', { keepDays: 2 }],
  ['chat', {}],
  ['trust', { observers: 'p0,p1', expireHours: 30, ttlMax: 40 }],
  ['reports', { sharedMatchDays: 1, oneVoicePerMatch: true, oneVoicePerReporter: true, judgmentSplit: 2, accuracyPrior: 0.5 }],
];

/** About 900 events of every type among ten players over some days, some dated late, two far ahead, and domain actions the forum refuses (one of them far ahead). */
function mixedEvents(): StandingEvent[] {
  const rng = seededRng(27);
  const p = () => `p${Math.floor(rng() * 10)}`;
  const two = () => {
    const a = Math.floor(rng() * 10);
    return [`p${a}`, `p${(a + 1 + Math.floor(rng() * 9)) % 10}`] as const;
  };
  const out: Record<string, unknown>[] = [];
  let matches = 0;
  let reports = 0;
  for (let i = 0; i < 900; i++) {
    // Mostly forward in time; one event in twenty dated a day back; one, far ahead.
    const time = i === 600 ? T0 + 400 * HOUR : T0 + i * HOUR * 0.2 - (rng() < 0.05 ? 24 * HOUR : 0);
    const base = { time, community: C };
    const r = rng();
    const [a, b] = two();
    // A domain action the forum refuses, dated far ahead: left out, it moves no clock.
    if (i === 300) out.push({ ...base, time: T0 + 2000 * HOUR, type: 'action', player: p(), domain: 'forum', op: 'edit', post: 'nowhere', text: 'Refused: no such post.' });
    else if (r < 0.15) out.push({ ...base, type: 'action', player: p(), delta: Math.round(rng() * 40 - 20) });
    else if (r < 0.2) out.push({ ...base, type: 'action', player: p(), domain: 'forum', op: 'post', post: `post${i}`, text: rng() < 0.3 ? 'you idiot' : 'Hello there, a fine day.' });
    else if (r < 0.23) out.push({ ...base, type: 'action', player: p(), domain: 'forum', op: 'edit', post: `nowhere${i}`, text: 'Refused: no such post.' });
    else if (r < 0.33) out.push({ ...base, type: 'chat', from: a, to: [b, p()] });
    else if (r < 0.43) out.push({ ...base, type: 'rating', from: a, to: b, value: rng() < 0.7 ? 1 : -1 });
    else if (r < 0.53) out.push({ ...base, id: `r${reports++}`, type: 'report', from: a, to: b });
    else if (r < 0.6) out.push({ ...base, type: 'played', player: p(), games: 1 + Math.floor(rng() * 3) });
    else if (r < 0.7) out.push({ ...base, type: 'match.start', match: `m${matches++}`, players: [a, b] });
    else if (r < 0.77) out.push({ ...base, type: 'match.end', match: `m${Math.max(0, matches - 1 - Math.floor(rng() * 3))}` });
    else if (r < 0.82) out.push({ ...base, type: 'disconnect', player: p() });
    else if (r < 0.85) out.push({ ...base, type: 'match.resume', match: `m${Math.max(0, matches - 1)}` });
    else if (r < 0.9 && reports > 0) out.push({ ...base, type: 'verdict', on: 'report', outcome: rng() < 0.5 ? 'upheld' : 'dismissed', report: `r${Math.floor(rng() * reports)}` });
    else if (r < 0.93) out.push({ ...base, type: 'verdict', on: 'player', outcome: rng() < 0.5 ? 'upheld' : 'dismissed', player: p() });
    else if (r < 0.97) out.push({ ...base, type: 'note', player: p(), text: 'seen' });
    else out.push({ ...base, type: 'sanction', player: p(), action: 'warn', reason: 'language' });
  }
  return out.map((e, index) => validateEvent(e, { index }));
}

/** The history at the same points, each point a replay of the whole log (every event whole) from nothing up to its sequence. */
async function replayedAtEachPoint(store: EventStore, scorer: string, params: Record<string, unknown>, player: string, points: readonly HistoryPoint[]): Promise<HistoryPoint[]> {
  const out: HistoryPoint[] = [];
  for (const point of points) {
    const instance = instantiate(scorerById(scorer)!, params);
    const engine = new Engine([instance], { quality: new QualityStage(QUALITY) });
    let clock = -Infinity;
    await replayStored(engine, eventsAfter(store, C), {
      before(sequence, previous) {
        if (previous !== undefined) clock = Math.max(clock, previous.time);
        return sequence <= point.sequence;
      },
    });
    const row = instance.scorer.rank(instance.state, { community: C }).find((r) => r.player === player);
    out.push({ sequence: point.sequence, time: clock, score: row?.score ?? null, rank: row?.rank ?? null });
  }
  return out;
}

const STORES: { name: string; skip: boolean; open: () => Promise<EventStore> }[] = [
  { name: 'SQLite', skip: false, open: async () => openSqlite(sqlitePath()) },
  { name: 'PostgreSQL', skip: !postgresAvailable, open: async () => openPostgresStore(await freshPostgresUrl()) },
];

afterAll(dropPostgresSchemas);

describe('issue 27: a history read skimmed equals a replay of the whole log from nothing at each point', () => {
  for (const { name, skip, open } of STORES) {
    it.skipIf(skip)(`on ${name}, for every scorer, at 9 points and at one point per event`, async () => {
      const store = await open();
      try {
        const events = mixedEvents();
        await store.append(events);
        const last = (await store.sequences()).get(C)!;
        expect(last).toBe(events.length);
        for (const [scorer, params] of SCORERS) {
          const whole = { types: scorerById(scorer)!.uses, domainActions: true };
          const skimmed = await store.read(C, 0, last, whole);
          // SQLite leaves out the bodies of the other types; PostgreSQL gives every event whole.
          expect(skimmed.some((row) => !('event' in row))).toBe(name === 'SQLite');
          // Each row is its stored event, or that event's type and time; the scorer's types and the domain actions whole.
          const full = await store.read(C, 0, last);
          expect(skimmed.map((row, i) => ('event' in row ? row : { community: C, sequence: full[i]!.sequence, type: full[i]!.event.type, time: full[i]!.event.time }))).toEqual(
            skimmed.map((row, i) => ('event' in row ? full[i] : row)),
          );
          for (const [i, row] of skimmed.entries()) {
            const event = full[i]!.event;
            if (whole.types.includes(event.type) || (event.type === 'action' && event.domain !== undefined)) expect('event' in row).toBe(true);
          }
          for (const player of ['p3', 'p5', 'p8']) {
            for (const points of [9, last]) {
              const history = await scoreHistory(store, instantiate(scorerById(scorer)!, params), QUALITY, C, player, last, points);
              expect(history.length).toBe(points);
              // Scored somewhere along, so the comparison is not of nulls alone.
              expect(history.some((point) => point.score !== null), `${scorer} ${player}`).toBe(true);
              const sample = points === last ? history.filter((_, i) => i % 37 === 0 || i === history.length - 1) : history;
              expect(history.filter((point) => sample.includes(point)), `${scorer} ${player} at ${points} points`).toEqual(await replayedAtEachPoint(store, scorer, params, player, sample));
            }
          }
        }
      } finally {
        await store.close();
      }
    });
  }
});
