import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/util/text-table.js';

describe('issue 27: text tables of any length', () => {
  it('aligns each column to its widest cell', () => {
    const text = renderTable([{ title: 'player' }, { title: 'score', align: 'right' }], [['alice', '1.5'], ['bo', '12.25']]);
    expect(text).toBe(['player  score', 'alice     1.5', 'bo      12.25'].join('\n'));
  });

  it('renders a million rows (a ranking of a million players) without overflowing the stack', () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => [`p${i}`, String(i)]);
    const text = renderTable([{ title: 'player' }, { title: 'rank', align: 'right' }], rows);
    const lines = text.split('\n');
    expect(lines).toHaveLength(1_000_001);
    expect(lines[1_000_000]).toBe('p999999  999999');
    expect(lines[1]).toBe('p0            0');
  });
});
