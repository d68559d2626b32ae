import { errors, headers } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { headerBytes, isOverMaxPayload, messageBytes, partitionParts } from '../../../src/cluster/publish.js';
import { partitionOf } from '../../../src/store/partitions.js';
import type { StandingEvent } from '../../../src/events/types.js';

/** The header block the NATS client sends, encoded by the client itself. */
function encoded(entries: readonly (readonly [string, string])[]): number {
  const h = headers();
  for (const [key, value] of entries) h.set(key, value);
  return (h as unknown as { encode(): Uint8Array }).encode().length;
}

const event = (id: string | undefined): StandingEvent => ({ ...(id === undefined ? {} : { id }), community: 'c', time: 5, type: 'action', player: 'p', delta: 1 }) as StandingEvent;

describe('message bytes against max_payload', () => {
  it('issue 25: counts the batch and outcome headers as the NATS client encodes them', () => {
    const h = { batch: 'b7a1c0de-0000-4000-8000-000000000000', outcomeTo: 'standing-events-outcome.g1' };
    const [part] = partitionParts([event('a'), event(undefined)], 4);
    const body = Buffer.byteLength(JSON.stringify(part!.events));
    expect(messageBytes(part!, h)).toBe(body + encoded([['Standing-Batch', h.batch], ['Standing-Outcome-To', h.outcomeTo]]));
    expect(headerBytes([['A', 'é'], ['Bb', 'x']])).toBe(encoded([['A', 'é'], ['Bb', 'x']]));
  });

  it('issue 25: one part per partition, in order of first event, each in batch order with its batch indices', () => {
    // Communities chosen to fall in two partitions of 4.
    const names = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const a = names.find((n) => partitionOf(n, 4) === 0)!;
    const a2 = names.find((n) => n !== a && partitionOf(n, 4) === 0)!;
    const b = names.find((n) => partitionOf(n, 4) === 1)!;
    const at = (community: string, id: string) => ({ ...event(id), community }) as StandingEvent;
    const parts = partitionParts([at(b, '0'), at(a, '1'), at(a2, '2'), at(b, '3')], 4);
    expect(parts.map((p) => [p.partition, p.events.map((e) => e.id), p.indices])).toEqual([
      [1, ['0', '3'], [0, 3]],
      [0, ['1', '2'], [1, 2]],
    ]);
  });

  it("issue 18: tells the client's max_payload refusal from other publish failures", () => {
    expect(isOverMaxPayload(errors.InvalidArgumentError.format('payload', 'max_payload size exceeded'))).toBe(true);
    expect(isOverMaxPayload(new errors.ClosedConnectionError())).toBe(false);
  });
});
