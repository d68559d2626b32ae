/**
 * Maps string ids to dense integer indices (0, 1, 2, …) and back, so per-player state can live
 * in typed arrays. A V8 Map holds at most 2^24 entries, so ids spill into further Maps once one
 * is full: below the limit a lookup is a single Map.get, above it a few.
 */

const DEFAULT_IDS_PER_MAP = 1 << 23;
const CHUNK_BITS = 16;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

export class Interner {
  private readonly maps: Map<string, number>[] = [new Map()];
  private readonly chunks: string[][] = [];
  private count = 0;

  /** `idsPerMap` is lowered only by tests, to exercise spilling without 2^23 ids. */
  constructor(private readonly idsPerMap: number = DEFAULT_IDS_PER_MAP) {}

  get size(): number {
    return this.count;
  }

  /** Index of `id`, or -1 when it was never interned. */
  indexOf(id: string): number {
    const maps = this.maps;
    for (let i = 0; i < maps.length; i++) {
      const index = maps[i]!.get(id);
      if (index !== undefined) return index;
    }
    return -1;
  }

  /** Index of `id`, adding it when new. */
  intern(id: string): number {
    const found = this.maps[0]!.get(id);
    if (found !== undefined) return found;
    const index = this.maps.length === 1 ? -1 : this.indexOf(id);
    return index >= 0 ? index : this.add(id);
  }

  /** Every id, in index order (for checkpoints). */
  ids(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.idAt(i));
  }

  /** An interner holding `ids` at indices 0, 1, 2, … */
  static from(ids: readonly string[]): Interner {
    const interner = new Interner();
    for (const id of ids) interner.intern(id);
    return interner;
  }

  /** The id at `index` (0 ≤ index < size). */
  idAt(index: number): string {
    return this.chunks[index >>> CHUNK_BITS]![index & CHUNK_MASK]!;
  }

  private add(id: string): number {
    let last = this.maps[this.maps.length - 1]!;
    if (last.size >= this.idsPerMap) {
      last = new Map();
      this.maps.push(last);
    }
    const index = this.count++;
    last.set(id, index);
    const chunk = index >>> CHUNK_BITS;
    if (chunk === this.chunks.length) this.chunks.push([]);
    this.chunks[chunk]!.push(id);
    return index;
  }
}
