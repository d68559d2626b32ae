/** The bundled example log and labels are the paper's Table 1, exactly. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLabels, validateEvent, type ActionEvent } from '../../src/index.js';
import { TABLE1 } from '../support/table1.js';

describe('examples/cqr-table1.*', () => {
  it('the log holds every delta of Table 1, each player’s in order', () => {
    const events = readFileSync(new URL('../../examples/cqr-table1.ndjson', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((line) => validateEvent(JSON.parse(line)) as ActionEvent);
    const byPlayer = new Map<string, number[]>();
    for (const e of events) byPlayer.set(e.player, [...(byPlayer.get(e.player) ?? []), e.delta!]);
    expect(Object.fromEntries(byPlayer)).toEqual(Object.fromEntries(TABLE1.map((p) => [p.player, p.deltas])));
    expect(new Set(events.map((e) => e.id)).size).toBe(400);
  });

  it('the labels are the table’s classes', () => {
    const labels = parseLabels(readFileSync(new URL('../../examples/cqr-table1.labels.csv', import.meta.url), 'utf8'), 'labels');
    expect(Object.fromEntries(labels)).toEqual(Object.fromEntries(TABLE1.map((p) => [p.player, p.class])));
  });
});
