/** The client's wait between tries (src/client/request.ts `pause`) on a long-lived AbortSignal. */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pause } from '../../../src/client/request.js';

describe('pause', () => {
  it('leaves no abort listener on the signal once the wait is over, however many waits it served', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 5; i++) await pause(0, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it("rejects with the signal's reason when it aborts during the wait, or before it", async () => {
    const controller = new AbortController();
    const waiting = pause(3600, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(pause(0, controller.signal)).rejects.toThrow('stop');
  });
});
