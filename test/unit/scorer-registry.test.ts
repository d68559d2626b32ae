/** The scorer registry: what it takes, what it refuses and why (src/scorers/index.ts). */
import { describe, expect, it } from 'vitest';
import { RankRow } from '../../src/http/schemas/scores.js';
import { cqr, registerScorer, scorerById, scorerIds, ScorerInvalidError, scorerModule, type ScorerModule } from '../../src/index.js';

const moduleWith = (id: string, rowFields: ScorerModule['rowFields'] = {}): ScorerModule => ({
  ...scorerModule('cqr')!,
  scorer: { ...cqr, id },
  rowFields,
});

describe('issue 26: the scorer registry', () => {
  it('takes a scorer of one own, after the five built in, and the same module twice once', () => {
    const mine = moduleWith('mine');
    registerScorer(mine);
    registerScorer(mine);
    expect(scorerIds()).toEqual(['cqr', 'reliability', 'chat', 'trust', 'reports', 'mine']);
    expect(scorerById('mine')?.id).toBe('mine');
  });

  it('refuses a taken id, a malformed id and a taken row field, naming them', () => {
    expect(() => registerScorer(moduleWith('cqr'))).toThrow(new ScorerInvalidError('scorer id "cqr" is taken'));
    expect(() => registerScorer(moduleWith('Not An Id'))).toThrow(/a scorer id is 1 to 32 lowercase letters.*got "Not An Id"/);
    expect(() => registerScorer(moduleWith('other', { band: { type: 'string', description: 'x' } }))).toThrow('scorer "other": row field "band" is already scorer "reliability"\'s');
  });

  it("refuses row fields once the API's row schema is built, which would drop them from its answers", () => {
    // Importing the HTTP schemas (above) built the row schema from the fields known then.
    expect(Object.keys((RankRow as unknown as { properties: object }).properties)).toContain('band');
    expect(() => registerScorer(moduleWith('late', { late: { type: 'number', description: 'x' } }))).toThrow(/row fields, and the HTTP API's schemas are already built/);
    expect(scorerById('late')).toBeUndefined();
    registerScorer(moduleWith('late-plain'));
    expect(scorerById('late-plain')?.id).toBe('late-plain');
  });
});
