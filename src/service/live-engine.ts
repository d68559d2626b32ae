/**
 * The service's engine: the scorer instances of an Engine kept live over a durable EventStore.
 *
 * Ingest (one batch = one HTTP request): validate every event (at once, outside the queue) → drop duplicates by `id` →
 * resolve domain actions in the quality stage (a conflict refuses the batch) → store the group
 * of batches in one transaction → only then apply them to the scorers and acknowledge. A batch
 * is refused whole: any invalid or conflicting event and nothing of it is stored or applied.
 *
 * Durability and restart: every `checkpointEvery` events of a community (and on close) the
 * states of all instances and of the quality stage for that community are saved together with
 * the sequence they include; on close only communities with events since their last checkpoint
 * are saved, many communities to a transaction. Opening restores each community from its
 * checkpoint and replays the log tail, reaching exactly the state a full replay reaches
 * (scorers' snapshots are exact); checkpoints are loaded for many communities at a time, and a
 * community whose checkpoint covers its whole log costs no further read.
 */
import { createHash } from 'node:crypto';
import { BatchRejectedError, CheckpointError, BatchTooLargeError, EventConflictError, EventValidationError, type BatchProblem } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { DEFAULT_MAX_EVENT_DEPTH } from '../events/limits.js';
import { validateEvent } from '../events/validate.js';
import { Engine, type ScorerInstance } from '../engine/engine.js';
import { formatParams } from '../params/format.js';
import { QualityStage, type QualityStageOptions } from '../quality/stage.js';
import type { CheckpointSet, ErasureOutcome, EventStore, StoredEvent } from '../store/types.js';
import type { TextParts } from '../util/json-parts.js';
import { eventsAfter } from '../store/pages.js';
import { eraseRewrite } from './erasure.js';
import { unaddressablePlayer } from './addressable.js';
import { SerialWriter } from './serial.js';

export interface LiveEngineOptions {
  readonly store: EventStore;
  readonly instances: readonly ScorerInstance[];
  readonly quality: QualityStageOptions;
  /** Events of one community between checkpoints (default 10,000)… */
  readonly checkpointEvery?: number;
  /** …and at least this many seconds (default 0): a checkpoint costs O(state), so not too often. */
  readonly checkpointSeconds?: number;
  /** Most events one batch may hold (default 10,000). */
  readonly maxBatchEvents?: number;
  /**
   * Refuse events dated more than this many seconds after `clock()` (default: no limit). One
   * client's wrong clock would otherwise move a community's "now" ahead for good: scorers
   * expire by event time, and the newest event time never goes back.
   */
  readonly maxClockSkewSeconds?: number | null;
  /** The wall clock, epoch ms (default Date.now; injectable for tests). */
  readonly clock?: () => number;
  /** Deepest nesting of objects and arrays in an event (default 32; see ../events/limits.ts). */
  readonly maxEventDepth?: number;
  /** Told when a checkpoint cannot be read back: that community is replayed from its log instead. */
  readonly onCheckpointError?: (error: CheckpointError) => void;
  /** Told about replayed events a domain refused (only possible after an erasure). */
  readonly onSkipped?: (community: string, sequence: number, error: unknown) => void;
}

export interface IngestOutcome {
  /** Events stored and applied. */
  readonly accepted: number;
  /** Events ignored because their `id` was already accepted. */
  readonly duplicates: number;
  /** The last sequence of each community the batch reached. */
  readonly sequences: Readonly<Record<string, number>>;
}

/** What listeners hear after a group of batches is durable and applied. */
export interface AppliedChange {
  /** Communities with new events, and the event time of the last one in each. */
  readonly communities: ReadonlyMap<string, { sequence: number; time: number }>;
}

interface Prepared {
  readonly fresh: StandingEvent[];
  readonly resolved: (StandingEvent | null)[];
  readonly duplicates: number;
}

/**
 * What a saved state is filed under: the scorer and all its parameters' values (not the
 * instance's display name), so a state is never restored into an instance with other
 * parameters. A function-valued parameter (trust's decay or influence) counts by its source
 * text, never its name: two functions of one name are two parameters.
 */
export function checkpointKey(instance: Pick<ScorerInstance, 'scorer' | 'params'>): string {
  const values = Object.fromEntries(
    Object.entries(instance.params).map(([key, value]) => [key, typeof value === 'function' ? `fn:${createHash('sha256').update(String(value)).digest('hex').slice(0, 16)}` : value]),
  );
  return `${instance.scorer.id} ${formatParams(values)}`;
}

/** Communities whose checkpoints are saved in one transaction, or loaded in one read. */
const CHECKPOINT_GROUP = 500;
/** Most log events `open` reads for one group of communities' tails at once (longer tails are paged alone). */
const TAIL_EVENTS = 20_000;

export class LiveEngine {
  readonly engine: Engine;
  readonly store: EventStore;
  private readonly quality: QualityStage;
  private readonly qualityKey: string;
  /** What each instance's state is filed under (checkpointKey), in instance order. */
  private readonly instanceKeys: readonly string[];
  private readonly checkpointEvery: number;
  private readonly checkpointMs: number;
  private readonly lastCheckpoint = new Map<string, number>();
  readonly maxBatchEvents: number;
  private readonly maxSkewMs: number;
  private readonly clock: () => number;
  readonly maxEventDepth: number;
  private readonly onSkipped: LiveEngineOptions['onSkipped'];
  private readonly onCheckpointError: LiveEngineOptions['onCheckpointError'];
  private readonly writer: SerialWriter<StandingEvent[], IngestOutcome>;
  /** Last applied sequence and its event time, per community. */
  private readonly applied = new Map<string, { sequence: number; time: number }>();
  private readonly sinceCheckpoint = new Map<string, number>();
  private readonly listeners: ((change: AppliedChange) => void)[] = [];
  private closed = false;

  private constructor(options: LiveEngineOptions) {
    this.store = options.store;
    this.quality = new QualityStage(options.quality);
    this.engine = new Engine(options.instances, { quality: this.quality });
    this.instanceKeys = options.instances.map(checkpointKey);
    this.qualityKey = `quality ${createHash('sha256').update(JSON.stringify(options.quality.options ?? {})).digest('hex').slice(0, 16)}`;
    this.checkpointEvery = options.checkpointEvery ?? 10_000;
    this.checkpointMs = (options.checkpointSeconds ?? 0) * 1000;
    this.maxBatchEvents = options.maxBatchEvents ?? 10_000;
    this.maxSkewMs = options.maxClockSkewSeconds === undefined || options.maxClockSkewSeconds === null ? Infinity : options.maxClockSkewSeconds * 1000;
    this.clock = options.clock ?? Date.now;
    this.maxEventDepth = options.maxEventDepth ?? DEFAULT_MAX_EVENT_DEPTH;
    this.onSkipped = options.onSkipped;
    this.onCheckpointError = options.onCheckpointError;
    this.writer = new SerialWriter((group) => this.runGroup(group));
  }

  /** Opens the engine over `store`, restoring every community from its checkpoint and log tail. */
  static async open(options: LiveEngineOptions): Promise<LiveEngine> {
    const live = new LiveEngine(options);
    const communities = await live.store.communities();
    const last = await live.store.lastEvents();
    for (let first = 0; first < communities.length; first += CHECKPOINT_GROUP) {
      const group = communities.slice(first, first + CHECKPOINT_GROUP);
      const saved = await live.store.loadCheckpointSets(group);
      // The tails to replay, read together while they are short (an erasure's gaps only shorten them).
      const after = new Map<string, number>();
      let events = 0;
      for (const community of group) {
        const set = saved.get(community);
        const from = live.usable(set) ? set.sequence : 0;
        const length = (last.get(community)?.sequence ?? 0) - from;
        if (length > 0 && events + length <= TAIL_EVENTS) {
          after.set(community, from);
          events += length;
        }
      }
      const tails = new Map<string, StoredEvent[]>([...after.keys()].map((community) => [community, []]));
      for (const stored of await live.store.readTails(after)) tails.get(stored.community)!.push(stored);
      for (const community of group) await live.recover(community, { saved: saved.get(community), last: last.get(community), tail: tails.get(community) });
    }
    return live;
  }

  get instances(): readonly ScorerInstance[] {
    return this.engine.instances;
  }

  /** The last applied sequence of `community` (0 before its first event). */
  sequence(community: string): number {
    return this.applied.get(community)?.sequence ?? 0;
  }

  /** Event time of the last applied event of `community` (0 when unknown). */
  lastTime(community: string): number {
    return this.applied.get(community)?.time ?? 0;
  }

  /** Communities with applied events, by name. */
  communities(): string[] {
    return [...this.applied.keys()].sort();
  }

  /** Called after each group of batches is durable and applied to the scorers. */
  onApplied(listener: (change: AppliedChange) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Validates, stores durably and applies one batch of raw events (decoded JSON values); resolves
   * once the batch is durable. Throws BatchRejectedError naming every bad index (nothing stored).
   * Everything a store cannot keep is refused here, before the batch joins a group (see
   * ../events/limits.ts), so one client's batch cannot fail the commit of another's.
   */
  ingest(raw: readonly unknown[]): Promise<IngestOutcome> {
    if (this.closed) return Promise.reject(new Error('the engine is closed'));
    if (raw.length > this.maxBatchEvents) return Promise.reject(new BatchTooLargeError(raw.length, this.maxBatchEvents));
    // Validation needs no state: it runs now, beside the commit of earlier batches.
    const problems: BatchProblem[] = [];
    const events: StandingEvent[] = [];
    const latest = this.clock() + this.maxSkewMs;
    for (let index = 0; index < raw.length; index++) {
      try {
        const event = validateEvent(raw[index], { index }, { maxDepth: this.maxEventDepth });
        const unaddressable = unaddressablePlayer(event);
        if (event.time > latest) problems.push({ index, code: 'EVENT_INVALID', field: 'time', reason: this.tooLate(event.time) });
        else if (unaddressable !== undefined) problems.push({ index, code: 'EVENT_INVALID', field: unaddressable[0], reason: unaddressable[1] });
        else events.push(event);
      } catch (error) {
        if (!(error instanceof EventValidationError)) return Promise.reject(error);
        problems.push({ index, code: 'EVENT_INVALID', field: error.field, reason: error.reason });
      }
    }
    if (problems.length > 0) return Promise.reject(new BatchRejectedError(problems));
    return this.writer.submit(events);
  }

  private tooLate(time: number): string {
    const now = this.clock();
    const seconds = this.maxSkewMs / 1000;
    return `${new Date(time).toISOString()} is more than maxClockSkewSeconds (${seconds} s) after the service's clock (${new Date(now).toISOString()}): check the client's clock, or switch the limit off to load a historical log`;
  }

  /** Erases every event naming `player` (see ./erasure.ts), then rebuilds the communities it changed. */
  erase(player: string): Promise<ErasureOutcome> {
    return this.writer.alone(async () => {
      const outcome = await this.store.erase(player, eraseRewrite(player));
      for (const community of outcome.communities) {
        this.reset(community);
        await this.recover(community);
        await this.saveCheckpoint(community);
      }
      this.emit(new Map(outcome.communities.map((c) => [c, this.applied.get(c) ?? { sequence: 0, time: 0 }])));
      return outcome;
    });
  }

  /** Saves a checkpoint of every community with events since its last one. */
  checkpoint(): Promise<void> {
    return this.writer.alone(async () => {
      const due = [...this.sinceCheckpoint].filter(([, count]) => count > 0).map(([community]) => community);
      for (let first = 0; first < due.length; first += CHECKPOINT_GROUP) await this.saveCheckpoints(due.slice(first, first + CHECKPOINT_GROUP));
    });
  }

  /** Waits for pending writes, saves checkpoints and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.checkpoint();
    await this.store.close();
  }

  // ---- ingest -------------------------------------------------------------------------------

  private async runGroup(group: { batch: StandingEvent[]; done: { resolve(o: IngestOutcome): void; reject(e: unknown): void } }[]): Promise<void> {
    const ready: { batch: StandingEvent[]; prepared: Prepared; done: (typeof group)[number]['done'] }[] = [];
    /** Ids taken by earlier batches of this group, per community. */
    const taken = new Map<string, Set<string>>();
    /** Communities whose domain states this group changed (to rebuild if the commit fails). */
    const touched = new Set<string>();
    for (const { batch, done } of group) {
      try {
        const prepared = await this.prepare(batch, taken, touched, ready);
        ready.push({ batch, prepared, done });
      } catch (error) {
        done.reject(error);
      }
    }
    if (ready.length === 0) return;

    let appended: readonly StoredEvent[];
    try {
      appended = (await this.store.append(ready.flatMap((r) => r.prepared.fresh))).appended;
    } catch (error) {
      for (const community of touched) await this.rebuildQuality(community, []);
      if (ready.length === 1) {
        ready[0]!.done.reject(error);
        return;
      }
      // Validation refuses what a store cannot keep, but if the store refuses the group anyway,
      // each batch is committed alone (and resolved again from the stored state), so only the
      // batch it refuses fails.
      for (const { batch, done } of ready) await this.runGroup([{ batch, done }]);
      return;
    }

    const changed = new Map<string, { sequence: number; time: number }>();
    let next = 0; // `appended` is in input order: walk it alongside
    const outcomes: (IngestOutcome | { failure: unknown })[] = [];
    for (const { prepared } of ready) {
      // Community names are any strings, "__proto__" included: no prototype.
      const reached = Object.create(null) as Record<string, number>;
      let accepted = 0;
      let failure: unknown;
      for (let i = 0; i < prepared.fresh.length; i++) {
        const event = prepared.fresh[i]!;
        if (appended[next]?.event !== event) continue; // the store found it a duplicate
        const sequence = appended[next++]!.sequence;
        const resolved = prepared.resolved[i]!;
        try {
          if (resolved !== null) this.engine.evolve(resolved);
        } catch (error) {
          // A scorer's bug: the event is stored but not applied (as a replay that skips it);
          // only this batch's request fails.
          failure ??= error;
        }
        accepted++;
        const position = { sequence, time: event.time };
        this.applied.set(event.community, position);
        changed.set(event.community, position);
        this.sinceCheckpoint.set(event.community, (this.sinceCheckpoint.get(event.community) ?? 0) + 1);
        reached[event.community] = sequence;
      }
      outcomes.push(failure !== undefined ? { failure } : { accepted, duplicates: prepared.duplicates + prepared.fresh.length - accepted, sequences: reached });
    }
    // Listeners hear of the change before anyone is told the batch is in.
    this.emit(changed);
    ready.forEach(({ done }, i) => {
      const outcome = outcomes[i]!;
      if ('failure' in outcome) done.reject(outcome.failure);
      else done.resolve(outcome);
    });
    for (const community of changed.keys()) {
      const due = (this.sinceCheckpoint.get(community) ?? 0) >= this.checkpointEvery && Date.now() - (this.lastCheckpoint.get(community) ?? 0) >= this.checkpointMs;
      if (due) await this.saveCheckpoint(community);
    }
  }

  /** Validation, duplicates and the quality stage for one batch; throws to refuse it. */
  private async prepare(
    events: StandingEvent[],
    taken: Map<string, Set<string>>,
    touched: Set<string>,
    earlier: readonly { prepared: Prepared }[],
  ): Promise<Prepared> {
    if (!events.some((e) => e.type === 'action' && e.domain !== undefined)) {
      // Nothing to resolve: the store drops repeated ids itself (earlier batches of the group go
      // in the same transaction), and only what it stored is applied.
      for (const e of events) if (e.id !== undefined) (taken.get(e.community) ?? taken.set(e.community, new Set()).get(e.community)!).add(e.id);
      return { fresh: events, resolved: events, duplicates: 0 };
    }

    const idsByCommunity = new Map<string, string[]>();
    for (const e of events) if (e.id !== undefined) (idsByCommunity.get(e.community) ?? idsByCommunity.set(e.community, []).get(e.community)!).push(e.id);
    const known = new Map<string, Set<string>>();
    for (const [community, ids] of idsByCommunity) known.set(community, await this.store.knownIds(community, ids));

    const fresh: StandingEvent[] = [];
    const indices: number[] = [];
    const mine = new Map<string, Set<string>>();
    let duplicates = 0;
    for (let index = 0; index < events.length; index++) {
      const e = events[index]!;
      if (e.id !== undefined) {
        const seen = mine.get(e.community) ?? mine.set(e.community, new Set()).get(e.community)!;
        if (seen.has(e.id) || known.get(e.community)!.has(e.id) || taken.get(e.community)?.has(e.id) === true) {
          duplicates++;
          continue;
        }
        seen.add(e.id);
      }
      fresh.push(e);
      indices.push(index);
    }

    const problems: BatchProblem[] = [];
    const resolved: (StandingEvent | null)[] = [];
    const domainCommunities = new Set<string>();
    let unexpected: { error: unknown } | undefined;
    for (let i = 0; i < fresh.length; i++) {
      const e = fresh[i]!;
      if (e.type !== 'action' || e.domain === undefined) {
        resolved.push(e);
        continue;
      }
      domainCommunities.add(e.community);
      try {
        resolved.push(this.engine.resolve(e));
      } catch (error) {
        if (!(error instanceof EventConflictError || error instanceof EventValidationError)) {
          unexpected = { error };
          break;
        }
        problems.push({ index: indices[i]!, code: error.code, field: error.field, reason: error.reason });
        resolved.push(null);
      }
    }
    if (problems.length > 0 || unexpected !== undefined) {
      // The refused batch changed domain states: rebuild them from the store and the batches
      // before it in this group (a domain refuses an action before changing anything).
      for (const community of domainCommunities) {
        const before = earlier.flatMap((r) => r.prepared.fresh.filter((e) => e.community === community));
        await this.rebuildQuality(community, before);
      }
      throw unexpected !== undefined ? unexpected.error : new BatchRejectedError(problems);
    }
    for (const community of domainCommunities) touched.add(community);
    for (const [community, ids] of mine) {
      const set = taken.get(community) ?? taken.set(community, new Set()).get(community)!;
      for (const id of ids) set.add(id);
    }
    return { fresh, resolved, duplicates };
  }

  // ---- checkpoints and recovery -------------------------------------------------------------

  private saveCheckpoint(community: string): Promise<void> {
    return this.saveCheckpoints([community]);
  }

  /** Saves the checkpoints of `communities` in one transaction. */
  private async saveCheckpoints(communities: readonly string[]): Promise<void> {
    const sets = new Map<string, CheckpointSet>();
    for (const community of communities) {
      const position = this.applied.get(community);
      if (position === undefined) continue;
      const states: Record<string, TextParts> = { [this.qualityKey]: this.quality.snapshot(community) ?? '' };
      this.instances.forEach((instance, i) => (states[this.instanceKeys[i]!] = instance.scorer.snapshot(instance.state, community) ?? ''));
      sets.set(community, { sequence: position.sequence, states });
    }
    await this.store.saveCheckpointSets(sets);
    const now = Date.now();
    for (const community of sets.keys()) {
      this.sinceCheckpoint.set(community, 0);
      this.lastCheckpoint.set(community, now);
    }
  }

  /** Forgets everything the engine holds for `community`. */
  private reset(community: string): void {
    this.quality.restore(community, undefined);
    for (const instance of this.instances) instance.scorer.restore(instance.state, community, undefined);
    this.applied.delete(community);
    this.sinceCheckpoint.delete(community);
  }

  /**
   * Puts `community`'s saved states back into the quality stage and every instance; false (and
   * onCheckpointError told, with a CheckpointError naming the state) when one cannot be read.
   */
  private restored(community: string, saved: CheckpointSet): boolean {
    const text = (name: string) => (saved.states[name] === '' ? undefined : saved.states[name]);
    let state = this.qualityKey;
    try {
      this.quality.restore(community, text(this.qualityKey));
      this.instances.forEach((instance, i) => {
        state = this.instanceKeys[i]!;
        instance.scorer.restore(instance.state, community, text(state));
      });
      return true;
    } catch (error) {
      this.reset(community);
      this.onCheckpointError?.(new CheckpointError(community, state, error instanceof Error ? error.message : String(error)));
      return false;
    }
  }

  /** Whether a checkpoint set holds a state for the quality stage and every instance. */
  private usable(saved: CheckpointSet | undefined): saved is CheckpointSet {
    return saved !== undefined && saved.states[this.qualityKey] !== undefined && this.instanceKeys.every((name) => saved.states[name] !== undefined);
  }

  /**
   * Restores `community` from its checkpoint (when it covers every instance) and replays the rest.
   * `loaded` is what `open` already read in bulk: its checkpoint, its last stored event, and
   * the tail of its log after the checkpoint when that was read too.
   */
  private async recover(
    community: string,
    loaded?: { saved: CheckpointSet | undefined; last: { sequence: number; time: number } | undefined; tail: readonly StoredEvent[] | undefined },
  ): Promise<void> {
    const saved = loaded === undefined ? await this.store.loadCheckpoints(community) : loaded.saved;
    let usable = this.usable(saved);
    let after = 0;
    if (usable && !this.restored(community, saved!)) {
      // A checkpoint that cannot be read back costs a full replay, never the start.
      usable = false;
      loaded = undefined;
    }
    if (usable) {
      after = saved!.sequence;
      if (loaded?.last?.sequence === saved!.sequence) {
        // The checkpoint covers the whole log: nothing to replay.
        this.applied.set(community, loaded.last);
        this.sinceCheckpoint.set(community, 0);
        return;
      }
    } else {
      this.reset(community);
    }
    let position: { sequence: number; time: number } | undefined;
    const tail = loaded?.tail ?? eventsAfter(this.store, community, after);
    if (usable && !(loaded?.tail !== undefined && loaded.tail.length > 0)) {
      const last = await this.store.read(community, saved!.sequence - 1, 1);
      position = { sequence: saved!.sequence, time: last[0]?.sequence === saved!.sequence ? last[0].event.time : 0 };
    }
    let replayed = 0;
    for await (const { sequence, event } of tail) {
      let resolved: StandingEvent | null;
      try {
        resolved = this.engine.resolve(event);
      } catch (error) {
        // Only an erasure can leave a stored action its domain now refuses: skip it, as a
        // full replay does.
        this.onSkipped?.(community, sequence, error);
        resolved = null;
      }
      try {
        if (resolved !== null) this.engine.evolve(resolved);
      } catch (error) {
        // A scorer that threw on this event live threw here too: skipped the same way, so the
        // service still starts (ingest answered that batch 500 and kept it stored).
        this.onSkipped?.(community, sequence, error);
      }
      position = { sequence, time: event.time };
      replayed++;
    }
    if (position !== undefined) this.applied.set(community, position);
    this.sinceCheckpoint.set(community, replayed);
  }

  /** Rebuilds the domain states of `community` from its checkpoint, the stored log and `extra`. */
  private async rebuildQuality(community: string, extra: readonly StandingEvent[]): Promise<void> {
    const saved = await this.store.loadCheckpoints(community);
    const state = saved?.states[this.qualityKey];
    this.quality.restore(community, state === undefined || state === '' ? undefined : state);
    const after = state === undefined ? 0 : saved!.sequence;
    const resolveQuietly = (event: StandingEvent) => {
      if (event.type !== 'action' || event.domain === undefined) return;
      try {
        this.quality.resolve(event);
      } catch {
        // refused the same way by every replay
      }
    };
    for await (const { event } of eventsAfter(this.store, community, after)) resolveQuietly(event);
    for (const event of extra) resolveQuietly(event);
  }

  private emit(communities: ReadonlyMap<string, { sequence: number; time: number }>): void {
    if (communities.size === 0) return;
    for (const listener of this.listeners) {
      try {
        listener({ communities });
      } catch {
        // A listener's failure is its own: the batch is stored and applied whatever it does.
      }
    }
  }
}
