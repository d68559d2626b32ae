/** Reading a community's log, or the alerts, in pages, so nothing is held whole in memory. */
import type { AlertQuery, AlertStore, EventLog, SkimmedEvent, StoredAlert, StoredEvent, WholeEvents } from './types.js';

const PAGE = 5_000;

/** The events of `community` with sequence > `after`, in order. */
export async function* eventsAfter(store: EventLog, community: string, after = 0): AsyncGenerator<StoredEvent> {
  for (;;) {
    const page = await store.read(community, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.sequence;
  }
}

/**
 * The events of `community` with sequence > `after`, in order, skimmed: only those `whole` names
 * are sure to come whole (EventLog.read with `whole`).
 */
export async function* skimmedEventsAfter(store: EventLog, community: string, whole: WholeEvents, after = 0): AsyncGenerator<SkimmedEvent> {
  for (;;) {
    const page = await store.read(community, after, PAGE, whole);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.sequence;
  }
}

/** The alerts matching `query` with id > `query.after`, oldest first, a page (of `pageSize`) at a time, each read when the one before was taken. */
export async function* alertPagesAfter(store: AlertStore, query: Omit<AlertQuery, 'limit' | 'newestFirst'>, pageSize = PAGE): AsyncGenerator<StoredAlert[]> {
  let after = query.after ?? 0;
  for (;;) {
    const page = await store.readAlerts({ ...query, after, limit: pageSize });
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.id;
  }
}
