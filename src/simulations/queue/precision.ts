/** How well an order of players finds the truly bad ones: precision at k, and the places of chosen players. */

/**
 * The share of the first `k` places of `order` held by players of `bad`. An order shorter than
 * `k` counts its missing places as misses: the denominator is always k.
 */
export function precisionAt(order: readonly string[], bad: ReadonlySet<string>, k: number): number {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`precisionAt: k must be an integer ≥ 1, got ${k}`);
  let hits = 0;
  for (let i = 0; i < Math.min(k, order.length); i++) if (bad.has(order[i]!)) hits++;
  return hits / k;
}

/** The 1-based place of each of `players` in `order`, or null for one not in it. */
export function placesIn(order: readonly string[], players: readonly string[]): (number | null)[] {
  const place = new Map<string, number>();
  order.forEach((p, i) => {
    if (!place.has(p)) place.set(p, i + 1);
  });
  return players.map((p) => place.get(p) ?? null);
}
