import { errors, headers } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { communityMessages, headerBytes, isOverMaxPayload, messageBytes } from '../../../src/cluster/publish.js';
import type { StandingEvent } from '../../../src/events/types.js';

/** The header block the NATS client sends, encoded by the client itself. */
function encoded(entries: readonly (readonly [string, string])[]): number {
  const h = headers();
  for (const [key, value] of entries) h.set(key, value);
  return (h as unknown as { encode(): Uint8Array }).encode().length;
}

const event = (id: string | undefined): StandingEvent => ({ ...(id === undefined ? {} : { id }), community: 'c', time: 5, type: 'action', player: 'p', delta: 1 }) as StandingEvent;

describe('message bytes against max_payload', () => {
  it('issue 18: counts the message id header as the NATS client encodes it', () => {
    const [withIds] = communityMessages([event('a'), event('b')], 4);
    expect(withIds!.messageId).toBeDefined();
    const body = Buffer.byteLength(JSON.stringify(withIds!.events));
    expect(messageBytes(withIds!)).toBe(body + encoded([['Nats-Msg-Id', withIds!.messageId!]]));
    expect(messageBytes(withIds!) - body).toBe(70); // a SHA-256 in base64url: 43 characters
    const [withoutIds] = communityMessages([event(undefined)], 4);
    expect(messageBytes(withoutIds!)).toBe(Buffer.byteLength(JSON.stringify(withoutIds!.events)));
    expect(headerBytes([['A', 'é'], ['Bb', 'x']])).toBe(encoded([['A', 'é'], ['Bb', 'x']]));
  });

  it("issue 18: tells the client's max_payload refusal from other publish failures", () => {
    expect(isOverMaxPayload(errors.InvalidArgumentError.format('payload', 'max_payload size exceeded'))).toBe(true);
    expect(isOverMaxPayload(new errors.ClosedConnectionError())).toBe(false);
  });
});
