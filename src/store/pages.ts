/** Reading a community's log in pages, so a replay never holds the whole log in memory. */
import type { EventStore, StoredEvent } from './types.js';

const PAGE = 5_000;

/** The events of `community` with sequence > `after`, in order. */
export async function* eventsAfter(store: EventStore, community: string, after = 0): AsyncGenerator<StoredEvent> {
  for (;;) {
    const page = await store.read(community, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.sequence;
  }
}
