/** serve --demo dates its whole log, the CQR paper's Table 1 included, so that it ends when the service starts. */
import { describe, expect, it } from 'vitest';
import { demoEvents } from '../../../src/service/demo.js';

const DAY = 86_400_000;
const times = (events: Record<string, unknown>[]) => events.map((e) => Date.parse(e.time as string));

describe('issue 17: the demo log is dated as a whole', () => {
  it('issue 17: moved to end at a given time, every event (Table 1 first) moves by the same amount, so the history plots span the demo weeks, not the years since 2024', () => {
    const end = Date.parse('2026-11-25T02:00:00Z');
    const undated = times(demoEvents(2024));
    const dated = times(demoEvents(2024, end));
    expect(dated).toHaveLength(undated.length);
    expect(dated[dated.length - 1]).toBe(end);
    const shift = end - undated[undated.length - 1]!;
    expect(dated).toEqual(undated.map((t) => t + shift));
    // Table 1's first action, 2024-05-01T18:00:00Z undated, is within the demo's span before the end.
    expect(undated[0]).toBe(Date.parse('2024-05-01T18:00:00Z'));
    expect(end - dated[0]!).toBeLessThan(21 * DAY);
    expect(end - dated[0]!).toBeGreaterThan(7 * DAY);
  });
});
