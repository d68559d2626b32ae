/**
 * Random event logs as clients really send them (issue 24): every event type, moderator events
 * included; times that jump years back and forth, not only forward (late and out-of-order
 * events, a 2024 match in a 2026 community); resumes, ends and disconnects of unknown, ended or
 * expired matches; bots; repeated ids; self-ratings and self-reports; domain actions that
 * conflict with their domain's state. Raw JSON objects, as a client posts them: what
 * validateEvent refuses is left for the caller to see refused, and `validEvents` keeps the rest.
 */
import fc from 'fast-check';
import { EventValidationError } from '../../src/errors.js';
import { validateEvent } from '../../src/events/validate.js';
import type { StandingEvent } from '../../src/events/types.js';

export const T0 = Date.parse('2026-06-01T00:00:00Z');
export const MINUTE = 60_000;
export const DAY = 86_400_000;

const player = fc.constantFrom('p0', 'p1', 'p2', 'p3', 'p4', 'gnubg');
const players = fc.uniqueArray(player, { minLength: 2, maxLength: 3 });
const match = fc.constantFrom('m0', 'm1', 'm2', 'm3');
/** A small pool of ids: repeats are common, within a batch and across batches. */
const id = fc.option(fc.constantFrom('e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7'), { freq: 3, nil: undefined });

/** A step of the clock: mostly minutes forward, sometimes days or years either way (late, out-of-order, far-ahead events). */
const step = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 90 }).map((m) => m * MINUTE) },
  { weight: 2, arbitrary: fc.integer({ min: -20, max: 60 }).map((d) => d * DAY) },
  { weight: 1, arbitrary: fc.integer({ min: -800, max: 800 }).map((d) => d * DAY) },
);

/** An event's fields beside type, time, id and community. */
const plain: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('action'), player, delta: fc.oneof(fc.integer({ min: -40, max: 40 }), fc.constantFrom(0, 0.5, -1e9, 1e9)) }),
  fc.record({ type: fc.constant('match.start'), match, players, bots: fc.constantFrom([], ['gnubg'], ['gnubg', 'p4']) }),
  fc.record({ type: fc.constantFrom('match.end', 'match.resume'), match }),
  fc.record({ type: fc.constant('disconnect'), player }),
  fc.record({ type: fc.constant('rating'), from: player, to: player, value: fc.constantFrom(-1, -0.5, 0, 0.3, 1) }),
  fc.record({ type: fc.constant('report'), from: player, to: player }),
  fc.record({ type: fc.constant('played'), player, games: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ type: fc.constant('chat'), from: player, to: fc.array(player, { minLength: 1, maxLength: 3 }) }),
);

const moderator: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant('verdict'), on: fc.constant('report'), outcome: fc.constantFrom('upheld', 'dismissed'), report: fc.constantFrom('e0', 'e1', 'e2', 'x9') }),
  fc.record({ type: fc.constant('verdict'), on: fc.constant('report'), outcome: fc.constantFrom('upheld', 'dismissed'), from: player, to: player }),
  fc.record({ type: fc.constant('verdict'), on: fc.constant('player'), outcome: fc.constantFrom('upheld', 'dismissed'), player }),
  fc.record({ type: fc.constant('note'), player, text: fc.constantFrom('watch them', 'fine') }),
  fc.record({ type: fc.constant('sanction'), player, action: fc.constantFrom('warn', 'mute'), reason: fc.constant('spam') }),
);

/** Payloads of each built-in domain, well formed, often impossible in the domain's state (a move of a dot never placed, an edit of a post never made). */
const DOMAIN_PAYLOADS: Readonly<Record<string, fc.Arbitrary<Record<string, unknown>>>> = {
  clustering: fc.record({ dot: fc.constantFrom('d0', 'd1', 'd2'), x: fc.integer({ min: -5, max: 5 }), y: fc.integer({ min: -5, max: 5 }), color: fc.constantFrom('red', 'blue', undefined) }),
  minecraft: fc.record({ op: fc.constantFrom('place', 'break'), block: fc.constantFrom('dirt', 'diamond_ore'), x: fc.integer({ min: 0, max: 2 }), y: fc.constant(0), z: fc.constant(0) }),
  forum: fc.record({ op: fc.constantFrom('post', 'edit', 'delete'), post: fc.constantFrom('f0', 'f1'), text: fc.constantFrom('Hello there', 'IDIOT', 'ok ok', '') }),
  recommendation: fc.record({ item: fc.constantFrom('i0', 'i1'), stars: fc.constantFrom(1, 3, 5) }),
};
export const DOMAIN_NAMES = Object.keys(DOMAIN_PAYLOADS);

function domainAction(names: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(...names.map((name) => DOMAIN_PAYLOADS[name]!.map((payload) => ({ domain: name, ...payload }))))
    .map((payload) => ({ type: 'action', ...Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined)) }));
}

export interface EventMix {
  /** Include actions of these domains (which need a quality stage in front of the scorers); true: of every built-in one. */
  readonly domains?: boolean | readonly string[];
  /** Include moderator events. */
  readonly moderation?: boolean;
  /** Communities to draw from. */
  readonly communities?: readonly string[];
}

/** One raw event's fields but its time. */
function fields(mix: EventMix): fc.Arbitrary<Record<string, unknown>> {
  const kinds = [{ weight: 8, arbitrary: plain }];
  if (mix.moderation === true) kinds.push({ weight: 1, arbitrary: moderator });
  const domains = mix.domains === true ? DOMAIN_NAMES : mix.domains === undefined || mix.domains === false ? [] : mix.domains;
  if (domains.length > 0) kinds.push({ weight: 3, arbitrary: fc.tuple(domainAction(domains), player).map(([a, p]) => ({ ...a, player: p })) });
  return fc.tuple(fc.oneof(...kinds), id, fc.constantFrom(...(mix.communities ?? ['a', 'b']))).map(([f, i, community]) => ({ ...f, community, ...(i === undefined ? {} : { id: i }) }));
}

/** A raw log of up to `maxLength` events, dated by random steps from T0 (see `step`). */
export function rawLog(mix: EventMix = {}, maxLength = 60): fc.Arbitrary<Record<string, unknown>[]> {
  return fc.array(fc.tuple(fields(mix), step), { maxLength, size: 'max' }).map((items) => {
    let time = T0;
    return items.map(([f, s]) => ({ ...f, time: (time += s) }));
  });
}

/** The events of `raw` that validateEvent accepts, validated (the others are left out). */
export function validEvents(raw: readonly unknown[]): StandingEvent[] {
  const out: StandingEvent[] = [];
  for (const value of raw) {
    try {
      out.push(validateEvent(value));
    } catch (error) {
      if (!(error instanceof EventValidationError)) throw error;
    }
  }
  return out;
}

/** `raw` cut into batches of 1 to `most` events, at the cut points `cuts` draws. */
export function batchesOf<T>(raw: readonly T[], cuts: readonly number[], most = 8): T[][] {
  const batches: T[][] = [];
  let at = 0;
  for (let i = 0; at < raw.length; i++) {
    const size = 1 + ((cuts[i % Math.max(1, cuts.length)] ?? 0) % most);
    batches.push(raw.slice(at, at + size));
    at += size;
  }
  return batches;
}
