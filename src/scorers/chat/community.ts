/**
 * One community's chat reputation state (docs/spec.md §6, §6.1) in typed arrays: each player's
 * reputation, messages sent (for decay) and received, and a sender list of L fixed slots
 * (slot 0 is the front, the oldest; slot L − 1 the back, the newest; −1 is empty).
 */
import { Interner } from '../../util/interner.js';
import { decodeFloat64, decodeInt32, encodeArray } from '../../util/snapshot.js';
import { withLength } from '../../util/typed-arrays.js';
import type { ChatParams } from './params.js';

/** Players the arrays have room for at first; they double as players arrive. */
const INITIAL_CAPACITY = 4;

export interface ChatSnapshot {
  readonly players: readonly string[];
  readonly rep: string;
  readonly sent: string;
  readonly received: string;
  readonly lists: string;
  /** With the partner defence: each player's first distinct receivers (up to `partners`, −1 empty). */
  readonly partners?: string;
}

/** The partner slots without the partner defence: empty, shared (nothing is ever written to it). */
const NO_PARTNER_SLOTS = new Int32Array(0);

export class ChatCommunity {
  players = new Interner();
  private capacity = INITIAL_CAPACITY;
  rep: Float64Array;
  sent: Float64Array;
  received: Float64Array;
  /** Sender lists, L slots per player, holding player indices. */
  lists: Int32Array;
  /** `seen[i] === generation` while player i is already among the current message's receivers. */
  private seen: Int32Array;
  private generation = 0;
  /** Partner defence: `partners` slots per player holding the first distinct players it messaged. */
  private partnerSlots: Int32Array;
  private readonly defended: boolean;

  constructor(private readonly p: ChatParams) {
    this.rep = new Float64Array(this.capacity);
    this.sent = new Float64Array(this.capacity);
    this.received = new Float64Array(this.capacity);
    this.lists = new Int32Array(this.capacity * p.L).fill(-1);
    this.seen = new Int32Array(this.capacity);
    this.partnerSlots = p.partners > 1 ? new Int32Array(this.capacity * p.partners).fill(-1) : NO_PARTNER_SLOTS;
    this.defended = p.partners > 1;
  }

  /** Index of `id`, seen for the first time at the initial reputation. */
  player(id: string): number {
    const before = this.players.size;
    const index = this.players.intern(id);
    if (index === before) {
      if (index >= this.capacity) this.grow();
      this.rep[index] = this.p.initial;
    }
    return index;
  }

  /** Indices of `ids` without duplicates and without the sender (docs/spec.md §6.1). */
  distinctReceivers(sender: number, ids: readonly string[]): number[] {
    const out: number[] = [];
    const mark = ++this.generation;
    for (const id of ids) {
      const r = this.player(id);
      if (r === sender || this.seen[r] === mark) continue;
      this.seen[r] = mark;
      out.push(r);
    }
    return out;
  }

  /**
   * S sends one message to `receivers` (already distinct, without S): each receiver gains by
   * the recipe with β evaluated before S enters its list (docs/spec.md §6), then S counts M sent
   * messages and decays once per N crossed.
   */
  send(sender: number, receivers: readonly number[]): void {
    const p = this.p;
    const m = receivers.length;
    if (m === 0) return;
    const repS = this.rep[sender]!; // the sender's reputation when the message is sent
    const L = p.L;
    const weight = this.defended ? this.senderWeight(sender, receivers) : 1;
    for (const r of receivers) {
      const beta = this.enter(r * L, sender);
      const gain = p.recipe === 1 ? (p.alpha * repS) / m + beta : p.recipe === 2 ? (beta * repS) / m : beta;
      this.rep[r] = Math.min(this.rep[r]! + (this.defended ? weight * gain : gain), p.repMax);
      this.received[r]!++;
    }
    const before = this.sent[sender]!;
    const after = before + m;
    this.sent[sender] = after;
    const decays = Math.floor(after / p.N) - Math.floor(before / p.N);
    for (let i = 0; i < decays; i++) {
      const rep = this.rep[sender]!;
      this.rep[sender] = Math.max(p.recipe === 3 ? rep - p.delta : (1 - p.tau) * rep, p.repMin);
    }
  }

  /**
   * The partner defence's factor for a message of `sender` to `receivers`: min(1, d/partners), d
   * the distinct players it has messaged, these receivers included (its first `partners` are kept).
   */
  private senderWeight(sender: number, receivers: readonly number[]): number {
    const D = this.p.partners;
    const base = sender * D;
    const slots = this.partnerSlots;
    let d = 0;
    while (d < D && slots[base + d]! >= 0) d++;
    for (const r of receivers) {
      if (d === D) break;
      let known = false;
      for (let k = 0; k < d && !known; k++) known = slots[base + k] === r;
      if (!known) slots[base + d++] = r;
    }
    return d / D;
  }

  /**
   * β(R, S) (eq. 2, docs/spec.md §6.1) for the list at `base`, then S's entry into it: a sender not in
   * the list enters at the back, the others move one slot toward the front and the front one
   * leaves; a sender already in the list keeps its slot.
   */
  private enter(base: number, sender: number): number {
    const lists = this.lists;
    const L = this.p.L;
    for (let slot = 0; slot < L; slot++) {
      if (lists[base + slot] === sender) return this.p.gamma1 / 2 ** slot; // position = slot + 1
    }
    lists.copyWithin(base, base + 1, base + L);
    lists[base + L - 1] = sender;
    return this.p.gamma0;
  }

  /** The players' entries only (a snapshot from before held the arrays' whole capacity: both restore). */
  toSnapshot(): ChatSnapshot {
    const n = this.players.size;
    return {
      players: this.players.ids(),
      rep: encodeArray(this.rep.subarray(0, n)),
      sent: encodeArray(this.sent.subarray(0, n)),
      received: encodeArray(this.received.subarray(0, n)),
      lists: encodeArray(this.lists.subarray(0, n * this.p.L)),
      ...(this.p.partners > 1 ? { partners: encodeArray(this.partnerSlots.subarray(0, n * this.p.partners)) } : {}),
    };
  }

  static fromSnapshot(params: ChatParams, s: ChatSnapshot): ChatCommunity {
    const c = new ChatCommunity(params);
    c.players = Interner.from(s.players);
    const rep = decodeFloat64(s.rep);
    let capacity = INITIAL_CAPACITY;
    while (capacity < rep.length) capacity *= 2;
    c.rep = withLength(rep, capacity);
    c.sent = withLength(decodeFloat64(s.sent), capacity);
    c.received = withLength(decodeFloat64(s.received), capacity);
    const lists = decodeInt32(s.lists);
    c.lists = new Int32Array(capacity * params.L).fill(-1);
    c.lists.set(lists.subarray(0, c.lists.length));
    c.capacity = capacity;
    c.seen = new Int32Array(capacity);
    if (params.partners > 1) {
      c.partnerSlots = new Int32Array(capacity * params.partners).fill(-1);
      if (s.partners !== undefined) c.partnerSlots.set(decodeInt32(s.partners).subarray(0, c.partnerSlots.length));
    }
    return c;
  }

  /** The sender list of `player`, front first: each sender with its slot (0 = front); empty slots left out. */
  senders(player: number): { sender: number; slot: number }[] {
    const L = this.p.L;
    const out: { sender: number; slot: number }[] = [];
    for (let slot = 0; slot < L; slot++) {
      const sender = this.lists[player * L + slot]!;
      if (sender >= 0) out.push({ sender, slot });
    }
    return out;
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    this.rep = withLength(this.rep, capacity);
    this.sent = withLength(this.sent, capacity);
    this.received = withLength(this.received, capacity);
    const lists = new Int32Array(capacity * this.p.L).fill(-1);
    lists.set(this.lists);
    this.lists = lists;
    this.seen = withLength(this.seen, capacity);
    if (this.p.partners > 1) {
      const slots = new Int32Array(capacity * this.p.partners).fill(-1);
      slots.set(this.partnerSlots);
      this.partnerSlots = slots;
    }
    this.capacity = capacity;
  }
}
