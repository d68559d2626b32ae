/**
 * Fuzzing the ingest path over HTTP: thousands of generated events — valid ones, valid ones with
 * one field broken, and arbitrary JSON — in mixed batches, as JSON arrays and as NDJSON with
 * garbage lines. The service must never fail (no 5xx, still answering), must refuse a batch
 * whole when any event is bad (naming exactly the bad indices), and store a good batch whole.
 * The default tier runs ~3,000 events; the stress tier ten times more.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvent } from '../../src/events/validate.js';
import { startTestService, type TestService } from './support.js';

const RUNS = process.env.STANDING_STRESS === '1' ? 3000 : 300;

const id = fc.string({ minLength: 1, maxLength: 6 });
const time = fc.oneof(fc.integer({ min: 0, max: 1.7e12 }), fc.constant('2026-11-01T10:00:00Z'));
const valid = fc.oneof(
  fc.record({ type: fc.constant('action'), time, player: id, delta: fc.double({ min: -1e9, max: 1e9, noNaN: true }) }),
  fc.record({ type: fc.constant('match.start'), time, match: id, players: fc.uniqueArray(id, { minLength: 2, maxLength: 3 }) }),
  fc.record({ type: fc.constantFrom('match.end', 'match.resume'), time, match: id }),
  fc.record({ type: fc.constant('disconnect'), time, player: id }),
  fc.record({ type: fc.constant('rating'), time, from: fc.constant('a'), to: fc.constant('b'), value: fc.double({ min: -1, max: 1, noNaN: true }) }),
  fc.record({ type: fc.constant('report'), time, from: id, to: id }),
  fc.record({ type: fc.constant('played'), time, player: id, games: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ type: fc.constant('chat'), time, from: id, to: fc.array(id, { minLength: 1, maxLength: 3 }) }),
);
/** A valid event with one field replaced by an arbitrary JSON value (often, not always, invalid). */
const broken = fc.tuple(valid, fc.constantFrom('type', 'time', 'player', 'match', 'players', 'from', 'to', 'value', 'games', 'delta', 'community', 'id', 'domain'), fc.jsonValue({ maxDepth: 2 })).map(([e, field, v]) => ({ ...e, [field]: v }));
/** A valid event with a value beyond a limit: a delta or games count too large, a time no Date holds or too far ahead of the clock. */
const outOfRange = fc.tuple(valid, fc.oneof(
  fc.record({ delta: fc.double({ min: 1e9, minExcluded: true, noNaN: true, noDefaultInfinity: true }) }),
  fc.record({ games: fc.integer({ min: 1001 }) }),
  fc.record({ time: fc.oneof(fc.double({ min: 8.64e15, minExcluded: true, noNaN: true }), fc.constantFrom('9999-12-31T00:00:00Z', Date.now() + 30 * 86_400_000)) }),
)).map(([e, change]) => ({ ...e, ...change }));
const event = fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: broken, weight: 3 }, { arbitrary: outOfRange, weight: 1 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });

function isValid(value: unknown): boolean {
  try {
    const e = validateEvent(structuredClone(value));
    // The service refuses times more than maxClockSkewSeconds (300) after its clock.
    if (e.time > Date.now() + 300_000) return false;
    // Domain actions need a known domain and payload: the generator's never have one.
    return !(e.type === 'action' && e.domain !== undefined);
  } catch {
    return false;
  }
}

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ logLevel: 'warn' });
});
afterAll(async () => t.close());

/** The errors the service logged, for a failure message. */
function loggedErrors(): string {
  return t
    .logs()
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line))
    .join('\n')
    .slice(-4_000);
}

async function stored(): Promise<number> {
  return (await t.service.store.read('default')).length;
}

describe('ingest fuzz', () => {
  it('JSON arrays: no crash, no partial batch, every bad index named', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(event, { minLength: 5, maxLength: 40 }), async (events) => {
        sent += events.length;
        // Put every event in the default community so the count below sees it.
        const batch = events.map((e) => (typeof e === 'object' && e !== null && !Array.isArray(e) ? { ...e, community: 'default', id: undefined } : e));
        const before = await stored();
        const response = await t.call('/v1/events', { method: 'POST', body: JSON.stringify(batch), headers: { 'content-type': 'application/json' }, key: t.keys.ingest });
        const body = (await response.json()) as { accepted?: number; problems?: { index: number }[] };
        const bad = batch.flatMap((e, i) => (isValid(e) ? [] : [i]));
        if (bad.length === 0) {
          expect(response.status, `a valid batch was answered ${JSON.stringify(body)}; errors logged: ${loggedErrors()}`).toBe(200);
          expect(body.accepted).toBe(batch.length);
          expect(await stored()).toBe(before + batch.length);
        } else {
          expect(response.status, `a batch with bad events was answered ${JSON.stringify(body)}; errors logged: ${loggedErrors()}`).toBe(400);
          expect([...new Set(body.problems!.map((p) => p.index))]).toEqual(bad);
          expect(await stored()).toBe(before);
        }
      }),
      { seed: 99, numRuns: RUNS },
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS * 10); // ≥ 3,000 events in the default tier
    expect((await t.call('/healthz')).status).toBe(200);
  });

  it('NDJSON bodies with garbage lines: 400 naming the lines, nothing stored', async () => {
    // No event fits in 30 printable characters, so every non-blank random line is a bad one.
    const line = fc.oneof(
      valid.map((e) => ({ text: JSON.stringify(e), bad: false })),
      fc.string({ maxLength: 30 }).map((text) => ({ text, bad: text.trim() !== '' })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 30, size: 'max' }), async (lines) => {
        const before = await stored();
        const response = await t.call('/v1/events', { method: 'POST', body: lines.map((l) => l.text).join('\n'), headers: { 'content-type': 'application/x-ndjson' }, key: t.keys.ingest });
        const bad = lines.flatMap((l, i) => (l.bad ? [i + 1] : []));
        // Lines that are not JSON are refused first; with none, every invalid event is named.
        const notJson = bad.filter((n) => {
          try {
            JSON.parse(lines[n - 1]!.text);
            return false;
          } catch {
            return true;
          }
        });
        if (bad.length > 0) {
          expect(response.status).toBe(400);
          expect(((await response.json()) as { problems: { line: number }[] }).problems.map((p) => p.line)).toEqual(notJson.length > 0 ? notJson : bad);
          expect(await stored()).toBe(before);
        } else {
          expect(response.status).toBe(200);
          expect(await stored()).toBe(before + lines.filter((l) => l.text.trim() !== '').length);
        }
      }),
      { seed: 7, numRuns: Math.round(RUNS / 3) },
    );
  });
});
