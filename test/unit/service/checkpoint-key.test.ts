/**
 * Checkpoints are keyed by parameter values (issue 15, point 4): a function-valued parameter by
 * its source, never its name, so two decays of one name never share a saved state.
 */
import { describe, expect, it } from 'vitest';
import { instantiate } from '../../../src/engine/engine.js';
import { trust } from '../../../src/scorers/trust/scorer.js';
import { cqr } from '../../../src/scorers/cqr/scorer.js';
import { checkpointKey } from '../../../src/service/live-engine/checkpoints.js';

const named = <F extends (...args: never[]) => number>(f: F): F => Object.defineProperty(f, 'name', { value: 'decay' });

describe('issue 15: checkpoint keys', () => {
  it('tell two functions of one name apart, and match the same function', () => {
    const halving = named((ttl: number, ttlMax: number) => ttl / ttlMax / 2);
    const squared = named((ttl: number, ttlMax: number) => (ttl / ttlMax) ** 2);
    const a = checkpointKey(instantiate(trust, { observers: 'm', decay: halving }));
    const b = checkpointKey(instantiate(trust, { observers: 'm', decay: squared }));
    expect(halving.name).toBe(squared.name);
    expect(a).not.toBe(b);
    expect(checkpointKey(instantiate(trust, { observers: 'm', decay: halving }))).toBe(a);
    expect(a).not.toContain('decay=decay');
  });

  it('name the scorer and every parameter value', () => {
    expect(checkpointKey(instantiate(cqr, { T: 8, x: 0, k: 8 }))).toBe('cqr T=8,x=0,k=8');
    expect(checkpointKey(instantiate(cqr, { T: 8, x: 0, k: 8 }))).not.toBe(checkpointKey(instantiate(cqr, { T: 8, x: 1, k: 8 })));
  });
});
