/**
 * What a worker does in one round of evening the load (./worker.ts), decided from what it sees:
 * with W live workers each aims at ceil(P / W) partitions, handing over the excess when above and
 * taking free ones when below, starting at a place of its own so workers starting together spread
 * out, and never taking a partition it is backing off from (./backoff.ts). One more rule keeps a
 * partition from staying unowned: a partition the lease listing has shown free for `orphanAfterMs`
 * (its backing-off worker is the only one below its share, say) is taken by a worker at its share
 * too, one per round, and handed over after every other partition of the excess. Pure.
 */

export interface BalanceView {
  readonly partitions: number;
  readonly liveWorkers: number;
  /** Where this worker starts looking (a hash of its id, modulo `partitions`). */
  readonly start: number;
  /** The partitions it runs (those being handed over left out), in order. */
  readonly running: readonly number[];
  /** Of `running`, those it took beyond its share. */
  readonly beyondShare: ReadonlySet<number>;
  /** Every partition it holds a lease on, those being handed over included. */
  readonly holds: ReadonlySet<number>;
  /** The partitions the lease listing shows held; undefined when the leases could not be listed. */
  readonly held: ReadonlySet<number> | undefined;
  /** Since when the listings have shown each free partition free (ms). */
  readonly freeSince: ReadonlyMap<number, number>;
  /** Until when it backs off from a partition (ms; absent: it does not). */
  readonly backoffUntil: ReadonlyMap<number, number>;
  readonly now: number;
  readonly orphanAfterMs: number;
}

export interface BalancePlan {
  /** Partitions to hand over, in that order. */
  readonly handOver: readonly number[];
  /** Partitions to try to take, in that order, until `wanted` are taken. */
  readonly candidates: readonly number[];
  readonly wanted: number;
  /** A partition free for too long to try beyond its share, once `wanted` are taken. */
  readonly orphan: number | undefined;
}

export function planBalance(view: BalanceView): BalancePlan {
  const target = Math.ceil(view.partitions / Math.max(1, view.liveWorkers));
  if (view.running.length > target) {
    // Those taken beyond its share go last: each stays until the worker that backed off from it can take it.
    const order = [...view.running.filter((p) => !view.beyondShare.has(p)), ...view.running.filter((p) => view.beyondShare.has(p))];
    return { handOver: order.slice(target), candidates: [], wanted: 0, orphan: undefined };
  }
  const takeable: number[] = [];
  for (let i = 0; i < view.partitions; i++) {
    const partition = (view.start + i) % view.partitions;
    if (view.holds.has(partition) || view.held?.has(partition) === true || (view.backoffUntil.get(partition) ?? 0) > view.now) continue;
    takeable.push(partition);
  }
  const wanted = target - view.running.length;
  // Without a listing nothing is known to have been free for long: only its share is tried.
  const orphan = view.held === undefined ? undefined : takeable.find((p) => view.now - (view.freeSince.get(p) ?? view.now) >= view.orphanAfterMs);
  return { handOver: [], candidates: wanted > 0 ? takeable : [], wanted, orphan };
}

/** Updates `freeSince` from a lease listing made at `now`: a partition first seen free is free since then; a held one is forgotten. */
export function observeFree(freeSince: Map<number, number>, held: ReadonlySet<number>, partitions: number, now: number): void {
  for (let partition = 0; partition < partitions; partition++) {
    if (held.has(partition)) freeSince.delete(partition);
    else if (!freeSince.has(partition)) freeSince.set(partition, now);
  }
}
