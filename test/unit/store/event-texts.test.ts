/**
 * A group serialized once (src/store/event-texts.ts): the rows read back from the group's one
 * JSON text are the rows of each event alone, its body JSON.stringify of it, whatever the events
 * hold (strings with quotes and backslashes, nested values, fields named like the row's in them).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendRowsOfText } from '../../../src/store/event-texts.js';

/**
 * Each event's row: its fields, and its own JSON text. A time of -0 is written 0 in JSON, and the
 * row says what the body says.
 */
const rowOf = (e: Record<string, unknown>) => [e.community, e.id ?? null, e.type, Object.is(e.time, -0) ? 0 : e.time, JSON.stringify(e)];

/** Text with what JSON escapes: quotes, backslashes (runs of them before a quote too), control and non-ASCII characters. */
const hardText = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('"', '\\', '\\"', '\n', ',', '{', '}', '[', ']', 'é', '\u2028', '\ud83d\ude00', 'a') }));

const event = fc.record(
  {
    community: hardText,
    id: hardText,
    type: hardText,
    time: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1_700_000_000_000.5)),
    extra: fc.dictionary(fc.oneof(hardText, fc.constantFrom('community', 'id', 'type', 'time')), fc.jsonValue()),
    nested: fc.record({ community: hardText, id: hardText, time: fc.integer() }),
  },
  { requiredKeys: ['community', 'type', 'time'] },
);

describe('issue 27: a group serialized once', () => {
  it('reads back each event’s row from the group’s text: fields and body as JSON.stringify of the event alone (property)', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), (events) => {
        const text = JSON.stringify(events);
        expect(appendRowsOfText(text)).toEqual(events.map(rowOf));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the fields at the top of each event only, in any order, an escaped value decoded', () => {
    const events = [
      { payload: { community: 'not this', id: 'nor this', type: 'x', time: 1 }, time: 5, type: 'chat', id: 'say \\"hi\\"', community: 'c"1' },
      { community: 'c2', type: 'action', time: -0.25, player: 'p', tags: ['id', { time: 3 }] },
      { community: 'c3', type: 'action', time: 2e21, id: '' },
    ];
    expect(appendRowsOfText(JSON.stringify(events))).toEqual([
      ['c"1', 'say \\"hi\\"', 'chat', 5, JSON.stringify(events[0])],
      ['c2', null, 'action', -0.25, JSON.stringify(events[1])],
      ['c3', '', 'action', 2e21, JSON.stringify(events[2])],
    ]);
    expect(appendRowsOfText('[]')).toEqual([]);
  });
});
