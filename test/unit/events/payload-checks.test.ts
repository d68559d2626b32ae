/**
 * The payload checks that run on every event are generated from the schemas ahead of time
 * (src/events/payload-checks.ts): the file must be current, and must answer as TypeBox's own
 * compiled checks do.
 */
import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DELTA, MAX_GAMES_PER_EVENT } from '../../../src/events/bounds.js';
import { PAYLOAD_CHECKS } from '../../../src/events/payload-checks.js';
import { payloadChecksSource } from '../../../src/events/payload-checks-source.js';
import { payloadSchemas } from '../../../src/events/schema.js';
import { MAX_MODERATOR_TEXT_LENGTH } from '../../../src/events/limits.js';
import { EVENT_TYPES, type EventType } from '../../../src/events/types.js';

const schemas = payloadSchemas(Type);

/** Values a field of one kind takes when valid, and values that break it (none: only leaving it out does). */
interface Kind {
  readonly valid: fc.Arbitrary<unknown>;
  readonly invalid?: fc.Arbitrary<unknown>;
}

interface Field {
  readonly kind: Kind;
  readonly optional?: true;
}

const id = fc.string({ minLength: 1, maxLength: 4 });
const notString = fc.oneof(fc.integer(), fc.constantFrom(null, true, ['a'], {}, 0));
/** Type.String({ minLength: 1 }) */
const ID: Kind = { valid: id, invalid: fc.oneof(fc.constant(''), notString) };
/** Type.Array(Id, { minItems }) */
const ids = (minItems: number): Kind => ({
  valid: fc.array(id, { minLength: minItems, maxLength: minItems + 3 }),
  invalid: fc.oneof(
    ...(minItems > 0 ? [fc.array(id, { maxLength: minItems - 1 })] : []),
    // one bad item among valid ones, the array long enough
    fc
      .tuple(fc.array(id, { minLength: minItems, maxLength: minItems + 2 }), fc.oneof(fc.constant(''), notString), fc.nat())
      .map(([items, bad, at]) => (items as unknown[]).toSpliced(at % (items.length + 1), 0, bad)),
    fc.constantFrom('a', null, 2, { 0: 'a', 1: 'b', length: 2 }),
  ),
});
/** Type.Number({ minimum: -MAX_DELTA, maximum: MAX_DELTA }): finite (TypeBox's default policy refuses NaN and ±Infinity) and bounded */
const DELTA: Kind = {
  valid: fc.oneof(fc.double({ min: -MAX_DELTA, max: MAX_DELTA, noNaN: true }), fc.integer({ min: -MAX_DELTA, max: MAX_DELTA }), fc.constantFrom(-0, MAX_DELTA, -MAX_DELTA)),
  invalid: fc.oneof(
    fc.double({ min: MAX_DELTA, minExcluded: true, noNaN: true }),
    fc.double({ max: -MAX_DELTA, maxExcluded: true, noNaN: true }),
    fc.constantFrom(MAX_DELTA + 1, 1e300, Number.NaN, Infinity, -Infinity, '1', null, true, [1], {}),
  ),
};
/** Type.Number({ minimum: -1, maximum: 1 }) */
const UNIT: Kind = {
  valid: fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(-1, 1, 0, -0)),
  invalid: fc.oneof(
    fc.double({ min: 1, minExcluded: true, noNaN: true }),
    fc.double({ max: -1, maxExcluded: true, noNaN: true }),
    fc.constantFrom(1 + Number.EPSILON, -1 - Number.EPSILON, Number.NaN, '0.5', null, [0]),
  ),
};
/** Type.Integer({ minimum: 1, maximum: MAX_GAMES_PER_EVENT }) */
const GAMES: Kind = {
  valid: fc.oneof(fc.integer({ min: 1, max: MAX_GAMES_PER_EVENT }), fc.constantFrom(1, MAX_GAMES_PER_EVENT)),
  invalid: fc.oneof(
    fc.integer({ max: 0 }),
    fc.integer({ min: MAX_GAMES_PER_EVENT + 1 }),
    fc.constantFrom(MAX_GAMES_PER_EVENT + 1, 1e15, Number.MAX_SAFE_INTEGER),
    fc.double({ min: 1, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
    fc.constantFrom(0, -0, 1.5, Number.NaN, Infinity, '2', null),
  ),
};
/** Type.String() */
const TEXT: Kind = { valid: fc.string({ maxLength: 4 }), invalid: notString };
/** Literals(['report', 'player']) */
const ON: Kind = { valid: fc.constantFrom('report', 'player'), invalid: fc.oneof(fc.constantFrom('match', 'Report', ''), notString) };
/** Type.String({ maxLength: MAX_MODERATOR_TEXT_LENGTH }) */
const MODERATOR_TEXT: Kind = { valid: fc.oneof(fc.string({ maxLength: 4 }), fc.constant('x'.repeat(MAX_MODERATOR_TEXT_LENGTH))), invalid: fc.oneof(notString, fc.constant('x'.repeat(MAX_MODERATOR_TEXT_LENGTH + 1))) };
/** Type.String({ minLength: 1, maxLength: MAX_MODERATOR_TEXT_LENGTH }) */
const REQUIRED_TEXT: Kind = { valid: fc.string({ minLength: 1, maxLength: 4 }), invalid: fc.oneof(fc.constant(''), notString, fc.constant('x'.repeat(MAX_MODERATOR_TEXT_LENGTH + 1))) };
/** Literals([...]) */
const oneOf = (...values: string[]): Kind => ({ valid: fc.constantFrom(...values), invalid: fc.oneof(fc.constantFrom('other', values[0]!.toUpperCase(), ''), notString) });
/** Type.Union([Type.Literal('upheld'), Type.Literal('dismissed')]) */
const OUTCOME: Kind = { valid: fc.constantFrom('upheld', 'dismissed'), invalid: fc.oneof(fc.constantFrom('guilty', 'UPHELD', ''), notString) };
/** Type.Literal(true) */
const TRUE: Kind = { valid: fc.constant(true), invalid: fc.constantFrom(false, 'true', 1, null, [true]) };
/** Type.Unknown(): anything, but present */
const UNKNOWN: Kind = { valid: fc.anything() };

/** The payload fields of src/events/schema.ts, written out by hand. */
const FIELDS: { readonly [T in EventType]: Record<string, Field> } = {
  action: { player: { kind: ID }, delta: { kind: DELTA, optional: true }, domain: { kind: ID, optional: true } },
  'match.start': { match: { kind: ID }, players: { kind: ids(2) }, bots: { kind: ids(0), optional: true } },
  'match.end': { match: { kind: ID } },
  disconnect: { player: { kind: ID } },
  'match.resume': { match: { kind: ID } },
  rating: { from: { kind: ID }, to: { kind: ID }, value: { kind: UNIT } },
  report: { from: { kind: ID }, to: { kind: ID }, reason: { kind: TEXT, optional: true } },
  played: { player: { kind: ID }, games: { kind: GAMES } },
  chat: { from: { kind: ID }, to: { kind: UNKNOWN } },
  verdict: {
    on: { kind: ON },
    outcome: { kind: OUTCOME },
    report: { kind: ID, optional: true },
    from: { kind: ID, optional: true },
    to: { kind: ID, optional: true },
    player: { kind: ID, optional: true },
    reporterErased: { kind: TRUE, optional: true },
    reason: { kind: MODERATOR_TEXT, optional: true },
    moderator: { kind: ID, optional: true },
    moderatorKey: { kind: ID, optional: true },
  },
  note: { player: { kind: ID }, text: { kind: REQUIRED_TEXT }, moderator: { kind: ID, optional: true }, moderatorKey: { kind: ID, optional: true } },
  sanction: {
    player: { kind: ID },
    action: { kind: oneOf('warn', 'mute', 'suspend', 'ban', 'lift') },
    until: { kind: UNKNOWN, optional: true },
    reason: { kind: REQUIRED_TEXT },
    sanction: { kind: ID, optional: true },
    moderator: { kind: ID, optional: true },
    moderatorKey: { kind: ID, optional: true },
  },
  appeal: {
    player: { kind: ID },
    status: { kind: oneOf('opened', 'granted', 'denied') },
    appeal: { kind: ID, optional: true },
    sanction: { kind: ID, optional: true },
    text: { kind: MODERATOR_TEXT, optional: true },
    reason: { kind: MODERATOR_TEXT, optional: true },
    moderator: { kind: ID, optional: true },
    moderatorKey: { kind: ID, optional: true },
  },
  rule: { rule: { kind: ID }, state: { kind: oneOf('live', 'dry-run', 'paused') }, reason: { kind: REQUIRED_TEXT }, moderator: { kind: ID, optional: true }, moderatorKey: { kind: ID, optional: true } },
};

const ALL_FIELDS = [...new Set(Object.values(FIELDS).flatMap((fields) => Object.keys(fields)))];

interface Case {
  readonly value: unknown;
  /** What was broken, if anything. */
  readonly broken?: string;
}

/**
 * A valid payload of `type` (optional fields present or not, extra keys — other types' fields
 * and others — sometimes: the schemas allow them), then, in about half the cases, one thing
 * broken: one field left out or given a wrong value, or (rarely) the payload not an object.
 */
function payload(type: EventType): fc.Arbitrary<Case> {
  const fields = FIELDS[type];
  const names = Object.keys(fields);
  const required = names.filter((name) => fields[name]!.optional !== true);
  const valid = fc.record(Object.fromEntries(names.map((name) => [name, fields[name]!.kind.valid])), { requiredKeys: required });
  const extraKeys = [...ALL_FIELDS.filter((name) => !names.includes(name)), 'remark', 'type', 'time'];
  const extras = fc.dictionary(fc.constantFrom(...extraKeys), fc.oneof(fc.jsonValue(), fc.constant(undefined)), { maxKeys: 3 });
  const breakable = names.filter((name) => fields[name]!.optional !== true || fields[name]!.kind.invalid !== undefined);
  type Break = (v: Record<string, unknown>) => Case;
  const fieldBreak: fc.Arbitrary<Break> = fc.constantFrom(...breakable).chain((name) => {
    const { kind, optional } = fields[name]!;
    const ways: fc.Arbitrary<Break>[] = [];
    if (optional !== true) {
      ways.push(fc.constant((v) => {
        const { [name]: _missing, ...rest } = v;
        return { value: rest, broken: `${name} missing` };
      }));
    }
    if (kind.invalid !== undefined) ways.push(kind.invalid.map((bad) => (v) => ({ value: { ...v, [name]: bad }, broken: `${name} wrong` })));
    return fc.oneof(...ways);
  });
  const wholeBreak: fc.Arbitrary<Break> = fc.constantFrom<Break>(
    () => ({ value: null, broken: 'null' }),
    (v) => ({ value: Object.assign([], v), broken: 'an array' }),
    (v) => ({ value: JSON.stringify(v), broken: 'a string' }),
  );
  const mutation = fc.oneof(
    { weight: 10, arbitrary: fc.constant<Break>((v) => ({ value: v })) },
    { weight: 9, arbitrary: fieldBreak },
    { weight: 1, arbitrary: wholeBreak },
  );
  return fc.tuple(valid, extras, mutation).map(([v, extra, broken]) => broken({ ...extra, ...v }));
}

describe('generated payload checks', () => {
  it('are current with the schemas (run `npm run generate` after changing src/events/schema.ts)', () => {
    expect(readFileSync(new URL('../../../src/events/payload-checks.ts', import.meta.url), 'utf8')).toBe(payloadChecksSource());
  });

  it('test the fields the schemas have (the generator below is written by hand)', () => {
    for (const type of EVENT_TYPES) {
      const schema = schemas[type] as { properties: Record<string, unknown>; required?: string[] };
      const fields = FIELDS[type];
      expect(Object.keys(fields).sort()).toEqual(Object.keys(schema.properties).sort());
      expect(Object.keys(fields).filter((name) => fields[name]!.optional !== true).sort()).toEqual([...(schema.required ?? [])].sort());
    }
  });

  it('answer as TypeBox’s compiled checks on valid payloads and on payloads with one thing broken (property)', () => {
    const runs = 400;
    for (const type of EVENT_TYPES) {
      const compiled = TypeCompiler.Compile(schemas[type]);
      let accepted = 0;
      let rejected = 0;
      fc.assert(
        fc.property(payload(type), ({ value, broken }) => {
          const expected = compiled.Check(value);
          expect(PAYLOAD_CHECKS[type](value)).toBe(expected);
          // the generator itself is right: TypeBox accepts what it built valid, refuses what it broke
          expect(expected, `${type}: ${broken ?? 'valid'}`).toBe(broken === undefined);
          if (expected) accepted++;
          else rejected++;
        }),
        { numRuns: runs, seed: 11 },
      );
      // both sides compared in earnest (counted over the run, shrinking aside: the run passed)
      expect(accepted, `${type} accepted`).toBeGreaterThanOrEqual(0.2 * runs);
      expect(rejected, `${type} rejected`).toBeGreaterThanOrEqual(0.2 * runs);
    }
  });
});
