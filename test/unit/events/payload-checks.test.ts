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
import { PAYLOAD_CHECKS } from '../../../src/events/payload-checks.js';
import { payloadChecksSource } from '../../../src/events/payload-checks-source.js';
import { payloadSchemas } from '../../../src/events/schema.js';
import { EVENT_TYPES } from '../../../src/events/types.js';

const schemas = payloadSchemas(Type);

describe('generated payload checks', () => {
  it('are current with the schemas (run `npm run generate` after changing src/events/schema.ts)', () => {
    expect(readFileSync(new URL('../../../src/events/payload-checks.ts', import.meta.url), 'utf8')).toBe(payloadChecksSource());
  });

  it('answer as TypeBox’s compiled checks on near-valid and arbitrary values (property)', () => {
    const id = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(undefined));
    const field = fc.oneof(id, fc.double(), fc.array(id, { maxLength: 3 }), fc.constant(null), fc.boolean());
    const value = fc.oneof(
      fc.record(
        { player: field, delta: field, domain: field, match: field, players: field, bots: field, from: field, to: field, value: field, reason: field, games: field },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    for (const type of EVENT_TYPES) {
      const compiled = TypeCompiler.Compile(schemas[type]);
      fc.assert(
        fc.property(value, (v) => {
          expect(PAYLOAD_CHECKS[type](v)).toBe(compiled.Check(v));
        }),
        { numRuns: 400, seed: 11 },
      );
    }
  });
});
