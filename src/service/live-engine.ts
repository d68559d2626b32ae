/**
 * The service's engine: the scorer instances of an Engine kept live over a durable EventStore.
 * This module holds them together; each step is its own module:
 *
 * - ingest (one batch = one HTTP request): every event validated at once, outside the queue
 *   (../events/batch.ts), then committed with the other batches waiting: duplicates
 *   dropped, domain actions resolved, the group stored in one transaction, and only then applied
 *   and acknowledged (./live-engine/group-commit.ts);
 * - durability: every `checkpointEvery` events of a community, no sooner than `checkpointSeconds`
 *   after its last checkpoint (and on close), the states of all instances and of the quality
 *   stage for that community are saved together with the sequence they include; on close only communities with events since their last checkpoint are saved,
 *   many communities to a transaction (./live-engine/checkpoints.ts);
 * - restart: opening restores each community from its checkpoint and replays the log tail,
 *   reaching exactly the state a full replay reaches (./live-engine/recovery.ts).
 */
import { BatchRejectedError, type BatchProblem, type CheckpointError } from '../errors.js';
import type { StandingEvent } from '../events/types.js';
import { DEFAULT_MAX_EVENT_DEPTH } from '../events/limits.js';
import { Engine, type ScorerInstance } from '../engine/engine.js';
import type { LogPosition, Positions } from '../engine/replay.js';
import { QualityStage, type QualityStageOptions } from '../quality/stage.js';
import type { AppliedChange, ErasureOutcome, EventStore, StoredEvent } from '../store/types.js';
import { eraseRewrite } from './erasure.js';
import { CHECKPOINT_GROUP, Checkpoints, DEFAULT_CHECKPOINT_SECONDS } from './live-engine/checkpoints.js';
import { EngineClosedError } from './live-engine/closed.js';
import { GroupCommit, type IngestOutcome, type Pending } from './live-engine/group-commit.js';
import { Recovery } from './live-engine/recovery.js';
import { validateIngest, type BatchLimits, type BatchSource } from '../events/batch.js';
import { SerialWriter } from './serial.js';
import type { CompiledRules } from '../moderation/rules/compile.js';
import { RuleStage, type RuleNotice } from '../moderation/rules/stage.js';

export type { IngestOutcome } from './live-engine/group-commit.js';

export interface LiveEngineOptions {
  readonly store: EventStore;
  readonly instances: readonly ScorerInstance[];
  readonly quality: QualityStageOptions;
  /** Events of one community between checkpoints (default 10,000)… */
  readonly checkpointEvery?: number;
  /** …and at least this many seconds after its last one (default DEFAULT_CHECKPOINT_SECONDS, 10): a checkpoint costs O(state), so not too often. */
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
  /**
   * Moderation rules (docs/moderation.md#rules), evaluated as events are applied; what they
   * decide is stored with the group of batches that triggered it. `tailShare`: what a
   * condition's `tail` measures (the queue's).
   */
  readonly rules?: { readonly compiled: CompiledRules; readonly tailShare: number } | undefined;
  /** Told when the store refused the rules' events (they are tried again after the next group). */
  readonly onRulesFailed?: (error: unknown) => void;
}

export class LiveEngine {
  readonly engine: Engine;
  readonly store: EventStore;
  readonly maxBatchEvents: number;
  readonly maxEventDepth: number;
  private readonly limits: BatchLimits;
  /** How far after the wall clock an event may be dated, in seconds; null: no bound. */
  readonly maxClockSkewSeconds: number | null;
  /** Last applied sequence and its event time, per community. */
  private readonly applied: Positions = new Map();
  private readonly checkpoints: Checkpoints;
  private readonly recovery: Recovery;
  private readonly writer: SerialWriter<StandingEvent[], IngestOutcome>;
  private readonly commit: GroupCommit;
  private readonly quality: QualityStage;
  private readonly listeners: ((change: AppliedChange) => void)[] = [];
  private readonly noticeListeners: ((notices: readonly RuleNotice[]) => void)[] = [];
  /** The moderation rules, when configured. */
  readonly rules: RuleStage | undefined;
  private closed = false;

  private constructor(options: LiveEngineOptions) {
    this.store = options.store;
    const quality = new QualityStage(options.quality);
    this.quality = quality;
    const rules = options.rules === undefined || options.rules.compiled.list.length === 0 ? undefined : new RuleStage(options.rules.compiled, options.instances, { tailShare: options.rules.tailShare });
    this.rules = rules;
    this.engine = new Engine(options.instances, { quality, ...(rules === undefined ? {} : { stage: rules }) });
    this.maxBatchEvents = options.maxBatchEvents ?? 10_000;
    this.maxEventDepth = options.maxEventDepth ?? DEFAULT_MAX_EVENT_DEPTH;
    this.maxClockSkewSeconds = options.maxClockSkewSeconds ?? null;
    this.limits = {
      maxSkewMs: options.maxClockSkewSeconds === undefined || options.maxClockSkewSeconds === null ? Infinity : options.maxClockSkewSeconds * 1000,
      clock: options.clock ?? Date.now,
      maxEventDepth: this.maxEventDepth,
    };
    this.checkpoints = new Checkpoints({
      store: this.store,
      instances: options.instances,
      quality,
      qualityOptions: options.quality.options,
      positions: this.applied,
      rules,
      every: options.checkpointEvery ?? 10_000,
      ms: (options.checkpointSeconds ?? DEFAULT_CHECKPOINT_SECONDS) * 1000,
    });
    this.recovery = new Recovery({
      store: this.store,
      engine: this.engine,
      quality,
      checkpoints: this.checkpoints,
      positions: this.applied,
      rules,
      onCheckpointError: options.onCheckpointError,
      onSkipped: options.onSkipped,
    });
    const commit = (this.commit = new GroupCommit({
      store: this.store,
      engine: this.engine,
      positions: this.applied,
      checkpoints: this.checkpoints,
      recovery: this.recovery,
      emit: (changed, appended) => this.emit(changed, appended),
      rules,
      onRulesFailed: options.onRulesFailed,
    }));
    this.writer = new SerialWriter((group) => commit.run(group));
  }

  /** Opens the engine over `store`, restoring every community from its checkpoint and log tail. */
  static async open(options: LiveEngineOptions): Promise<LiveEngine> {
    const live = new LiveEngine(options);
    await live.recovery.recoverAll();
    // A replay's breaker notices were raised before (or are raised again by the next evaluation).
    live.rules?.notices();
    return live;
  }

  /**
   * Stores what the rules decided and did not get to store (a crash between a commit and its
   * rules' events, made again by the replay of the log tail; or a store that refused them), as
   * the next group would. `standing serve` calls it once open, a worker once it holds a partition.
   */
  settleRules(): Promise<void> {
    if (this.rules === undefined || this.rules.pending().length === 0) return Promise.resolve();
    return this.writer.alone(async () => {
      const changed = new Map<string, LogPosition>();
      const stored = await this.commit.storeDecisions(changed);
      this.emit(changed, stored);
    });
  }

  /** Told of the rules' circuit breakers tripping and resuming, after the commit that made them. */
  onRuleNotices(listener: (notices: readonly RuleNotice[]) => void): void {
    this.noticeListeners.push(listener);
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
   * ../events/limits.ts), so one client's batch cannot fail the commit of another's. With
   * `refuseModeration` (POST /v1/events) moderator events are refused (../events/batch.ts).
   */
  ingest(raw: readonly unknown[], source: BatchSource = {}): Promise<IngestOutcome> {
    if (this.closed) return Promise.reject(new EngineClosedError());
    let events: StandingEvent[];
    try {
      events = this.validate(raw, source);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writer.submit(events);
  }

  /**
   * The batch's events validated as ingest validates them (the same limits and problems); throws
   * BatchRejectedError or BatchTooLargeError. Needs no state.
   */
  validate(raw: readonly unknown[], source: BatchSource = {}): StandingEvent[] {
    return validateIngest(raw, this.maxBatchEvents, this.limits, source);
  }

  /**
   * What ingesting `raw` now would refuse, after every write before it, without storing or
   * applying anything: the problems of validation, else those of the commit (duplicates dropped,
   * domain actions resolved against the communities' states, which are restored afterwards).
   * An empty list: the batch would be accepted, if nothing else is written first.
   */
  check(raw: readonly unknown[], source: BatchSource = {}): Promise<readonly BatchProblem[]> {
    if (this.closed) return Promise.reject(new EngineClosedError());
    let events: StandingEvent[];
    try {
      events = this.validate(raw, source);
    } catch (error) {
      return error instanceof BatchRejectedError ? Promise.resolve(error.problems) : Promise.reject(error);
    }
    return this.writer.alone(async () => {
      const resolving = new Set(events.flatMap((e) => (e.type === 'action' && e.domain !== undefined ? [e.community] : [])));
      // In memory, so restoring cannot fail: the states are exactly those before the check.
      const before = [...resolving].map((community) => [community, this.quality.snapshot(community)] as const);
      try {
        return await this.commit.check(events);
      } finally {
        for (const [community, snapshot] of before) this.quality.restore(community, snapshot);
      }
    });
  }

  /**
   * Ingests several batches as one group commit (one transaction), each accepted or refused on
   * its own as concurrent requests are, and answers each: the outcome, or the reason it was
   * refused (BatchRejectedError, ApplyFailedError after it was stored). A store failure fails
   * every batch of the group (none is stored), rather than committing them one by one.
   */
  async ingestGroup(raws: readonly (readonly unknown[])[], source: BatchSource = {}): Promise<PromiseSettledResult<IngestOutcome>[]> {
    if (this.closed) throw new EngineClosedError();
    const answers: Promise<IngestOutcome>[] = [];
    const pending: Pending[] = [];
    for (const raw of raws) {
      try {
        const batch = this.validate(raw, source);
        answers.push(new Promise<IngestOutcome>((resolve, reject) => pending.push({ batch, done: { resolve, reject } })));
      } catch (error) {
        answers.push(Promise.reject(error));
      }
    }
    // Settled by the commit; a store failure is thrown by run() after settling nothing.
    const committed = this.writer.alone(() => this.commit.run(pending, { split: false }));
    committed.catch((error: unknown) => {
      for (const { done } of pending) done.reject(error);
    });
    return Promise.allSettled(answers);
  }

  /** Erases every event naming `player` (see ./erasure.ts), then rebuilds the communities it changed. */
  erase(player: string): Promise<ErasureOutcome> {
    return this.writer.alone(async () => {
      const outcome = await this.store.erase(player, eraseRewrite(player));
      for (const community of outcome.communities) {
        this.recovery.reset(community);
        await this.recovery.recover(community);
        this.rules?.resume(community);
        await this.checkpoints.save([community]);
      }
      this.emit(new Map(outcome.communities.map((c) => [c, this.applied.get(c) ?? { sequence: 0, time: 0 }])), [], true);
      return outcome;
    });
  }

  /** Saves a checkpoint of every community with events since its last one. */
  checkpoint(): Promise<void> {
    return this.writer.alone(async () => {
      const due = this.checkpoints.pending();
      for (let first = 0; first < due.length; first += CHECKPOINT_GROUP) await this.checkpoints.save(due.slice(first, first + CHECKPOINT_GROUP));
    });
  }

  /** Waits for pending writes, saves checkpoints and closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.checkpoint();
    await this.store.close();
  }

  private emit(communities: ReadonlyMap<string, LogPosition>, events: readonly StoredEvent[], erased = false): void {
    const notices = this.rules?.notices() ?? [];
    if (notices.length > 0) {
      for (const listener of this.noticeListeners) {
        try {
          listener(notices);
        } catch {
          // A listener's failure is its own.
        }
      }
    }
    if (communities.size === 0) return;
    const change: AppliedChange = erased ? { communities, events, erased } : { communities, events };
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own: the batch is stored and applied whatever it does.
      }
    }
  }
}
