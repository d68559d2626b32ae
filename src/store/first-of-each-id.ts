/** A batch less the events whose id an earlier event of the same community in it already has (the first counts). */
export function firstOfEachId<E extends { readonly community: string; readonly id?: string }>(events: readonly E[]): E[] {
  const kept: E[] = [];
  const seen = new Map<string, Set<string>>();
  for (const event of events) {
    if (event.id !== undefined) {
      let ids = seen.get(event.community);
      if (ids === undefined) seen.set(event.community, (ids = new Set()));
      if (ids.has(event.id)) continue;
      ids.add(event.id);
    }
    kept.push(event);
  }
  return kept;
}
