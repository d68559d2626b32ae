/**
 * An estimate of how many distinct (from, to) pairs of int32s were added: HyperLogLog (Flajolet,
 * Fusy, Gandouet & Meunier, 2007) with 2^11 one-byte registers, about 2.3 % standard error in
 * 2 KB that stays in cache. Used to guess whether compacting a log would free much, without a
 * hash table of pairs (a cache miss per pair on large logs).
 */
const BITS = 11;
const REGISTERS = 1 << BITS;
const ALPHA = 0.7213 / (1 + 1.079 / REGISTERS);

export class DistinctPairs {
  /** Allocated by the first `add`: a log that is never counted (most small ones) keeps no 2 KB. */
  private registers: Uint8Array | undefined;

  add(from: number, to: number): void {
    let h = Math.imul(from, 0x9e3779b1) ^ Math.imul(to + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 13;
    h = Math.imul(h, 0x297a2d39);
    h ^= h >>> 16;
    const register = h >>> (32 - BITS);
    // Leading zeros of the remaining bits, plus one; the guard bit caps it at 32 − BITS + 1.
    const rank = Math.clz32((h << BITS) | (1 << (BITS - 1))) + 1;
    const registers = (this.registers ??= new Uint8Array(REGISTERS));
    if (rank > registers[register]!) registers[register] = rank;
  }

  /** The estimated number of distinct pairs added since the last clear. */
  estimate(): number {
    const registers = this.registers;
    if (registers === undefined) return 0;
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < REGISTERS; i++) {
      const r = registers[i]!;
      sum += 2 ** -r;
      if (r === 0) zeros++;
    }
    const raw = (ALPHA * REGISTERS * REGISTERS) / sum;
    // Few pairs: count the empty registers instead (linear counting), as the paper corrects.
    return raw <= 2.5 * REGISTERS && zeros > 0 ? REGISTERS * Math.log(REGISTERS / zeros) : raw;
  }

  clear(): void {
    this.registers?.fill(0);
  }
}
