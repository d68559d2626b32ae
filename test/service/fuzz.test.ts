/**
 * Fuzzing the ingest path over HTTP: thousands of generated events — valid ones, valid ones with
 * one field broken, and arbitrary JSON — in mixed batches, as JSON arrays and as NDJSON with
 * garbage lines. The service must never fail (no 5xx, still answering), must refuse a batch
 * whole when any event is bad (naming exactly the bad indices), and store a good batch whole.
 * Hostile events (README, Limits: deep nesting, NUL, lone surrogates, over-long ids, __proto__
 * keys) must get their documented problem; bodies may start with a byte-order mark.
 * The default tier runs ~3,000 events; the stress tier ten times more.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEvent } from '../../src/events/validate.js';
import { startTestService, type TestService } from './support.js';

const RUNS = process.env.STANDING_STRESS === '1' ? 3000 : 300;

// "." and ".." are refused as player ids (a URL path cannot carry them): see the hostile cases.
const id = fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s !== '.' && s !== '..');
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

/** A valid event made hostile in one way, with the field and reason its problem must name. */
interface Hostile {
  /** The valid event it was made from. */
  readonly base: unknown;
  readonly event: Record<string, unknown>;
  readonly field: string | RegExp;
  readonly reason: RegExp;
}

const ANY_FIELD = fc.constantFrom('community', 'id', 'player', 'match', 'from', 'note', 'type', 'time');
/** A string with one character no store can keep: a NUL or a lone surrogate (among ASCII, so never half of a pair). */
const unstorable = fc
  .tuple(fc.string({ maxLength: 5 }), fc.oneof(fc.constant(0), fc.integer({ min: 0xd800, max: 0xdfff })), fc.string({ maxLength: 5 }))
  .map(([before, code, after]) => ({ text: `${before}${String.fromCharCode(code)}${after}`, reason: code === 0 ? /NUL character \(U\+0000\)/ : /lone UTF-16 surrogate/ }));
const hostile: fc.Arbitrary<Hostile> = fc.oneof(
  // nested deeper than maxEventDepth (32), as objects or as arrays
  fc.tuple(valid, fc.integer({ min: 33, max: 3000 }), fc.boolean()).map(([e, depth, arrays]) => {
    let x: unknown = 1;
    for (let i = 0; i < depth - 1; i++) x = arrays ? [x] : { a: x };
    return { base: e, event: { ...e, x }, field: `x${(arrays ? '/0' : '/a').repeat(31)}`, reason: /deeper than the limit of 32 levels \(maxEventDepth\)/ };
  }),
  fc.tuple(valid, ANY_FIELD, unstorable).map(([e, field, bad]) => ({ base: e, event: { ...e, [field]: bad.text }, field, reason: bad.reason })),
  fc.tuple(valid, unstorable).map(([e, bad]) => ({ base: e, event: { ...e, note: { [`k${bad.text}`]: 1 } }, field: /^note\/k/, reason: new RegExp(`is a key that contains a ${bad.reason.source}`) })),
  fc.tuple(valid, fc.constantFrom('community', 'id'), fc.integer({ min: 129, max: 400 })).map(([e, field, length]) => ({ base: e, event: { ...e, [field]: 'i'.repeat(length) }, field, reason: /longer than 128 characters/ })),
  fc.tuple(valid, fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([e, v, nested]) => ({
    base: e,
    event: nested ? { ...e, note: [{ ['__proto__']: v }] } : { ...e, ['__proto__']: v },
    field: nested ? 'note/0/__proto__' : '__proto__',
    reason: /is a reserved key/,
  })),
);

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

  it('hostile events among valid ones, as a JSON array or NDJSON (a byte-order mark first or not): each named with its documented problem, nothing stored', async () => {
    const item = fc.oneof({ weight: 2, arbitrary: valid.map((event) => ({ event: event as Record<string, unknown>, hostile: undefined as Hostile | undefined })) }, { weight: 1, arbitrary: hostile.map((h) => ({ event: h.event, hostile: h as Hostile | undefined })) });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.boolean(), async (items, ndjson, bom) => {
        const batch = items.map(({ event, hostile }) => (hostile === undefined ? { ...event, community: 'default', id: undefined } : event));
        const before = await stored();
        const text = ndjson ? batch.map((e) => JSON.stringify(e)).join('\n') : JSON.stringify(batch);
        const response = await t.call('/v1/events', { method: 'POST', body: `${bom ? '\uFEFF' : ''}${text}`, headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' }, key: t.keys.ingest });
        const body = (await response.json()) as { accepted?: number; problems?: { index: number; line?: number; field: string; reason: string }[] };
        const bad = batch.flatMap((e, i) => (items[i]!.hostile !== undefined || !isValid(e) ? [i] : []));
        if (bad.length === 0) {
          expect(response.status, `a valid batch was answered ${JSON.stringify(body)}; errors logged: ${loggedErrors()}`).toBe(200);
          expect(body.accepted).toBe(batch.length);
          expect(await stored()).toBe(before + batch.length);
          return;
        }
        expect(response.status, `a batch with bad events was answered ${JSON.stringify(body)}; errors logged: ${loggedErrors()}`).toBe(400);
        expect(body.problems!.map((p) => p.index)).toEqual(bad);
        for (const problem of body.problems!) {
          const expected = items[problem.index]!.hostile;
          if (ndjson) expect(problem.line).toBe(problem.index + 1);
          // A base event the validator refuses anyway may be named for that first.
          if (expected === undefined || !isValid(expected.base)) continue;
          expect(problem.field).toMatch(typeof expected.field === 'string' ? new RegExp(`^${expected.field.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) : expected.field);
          expect(problem.reason).toMatch(expected.reason);
        }
        expect(await stored()).toBe(before);
      }),
      { seed: 14, numRuns: Math.round(RUNS / 3) },
    );
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
