/**
 * A Map that spills into further Maps once one holds `limit` entries (a V8 Map holds at most
 * 2^24), so placed blocks, edges and other keyed state are not capped by one Map.
 */
const DEFAULT_MAP_LIMIT = 1 << 23;

export class SpillMap<K, V> {
  private readonly maps: Map<K, V>[] = [new Map()];

  /** `limit` is lowered only by tests, to exercise spilling. */
  constructor(private readonly limit: number = DEFAULT_MAP_LIMIT) {}

  get size(): number {
    let size = 0;
    for (const map of this.maps) size += map.size;
    return size;
  }

  get(key: K): V | undefined {
    const maps = this.maps;
    for (let i = 0; i < maps.length; i++) {
      const value = maps[i]!.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  set(key: K, value: V): void {
    if (this.maps.length === 1 && this.maps[0]!.size < this.limit) {
      this.maps[0]!.set(key, value); // one map with room: no other map can hold the key
      return;
    }
    for (const map of this.maps) {
      if (map.has(key)) {
        map.set(key, value);
        return;
      }
    }
    let target = this.maps.find((map) => map.size < this.limit);
    if (target === undefined) {
      target = new Map();
      this.maps.push(target);
    }
    target.set(key, value);
  }

  delete(key: K): boolean {
    for (const map of this.maps) if (map.delete(key)) return true;
    return false;
  }

  /** Entries in insertion order (map by map). */
  *entries(): IterableIterator<[K, V]> {
    for (const map of this.maps) yield* map;
  }
}
