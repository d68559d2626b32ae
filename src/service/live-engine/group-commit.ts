/**
 * Ingest's commit, one group of validated batches at a time (../../events/batch.ts ran before):
 * drop duplicates by `id` → resolve domain actions in the quality stage (a conflict refuses the
 * batch) → store the group of batches in one transaction → only then apply them to the scorers
 * and acknowledge. A batch is refused whole: any conflicting event and nothing of it is stored
 * or applied.
 */
import { ApplyFailedError, BatchRejectedError, EventConflictError, EventValidationError, type BatchProblem } from '../../errors.js';
import type { StandingEvent } from '../../events/types.js';
import type { Engine } from '../../engine/engine.js';
import type { LogPosition, Positions } from '../../engine/replay.js';
import type { EventLog, StoredEvent } from '../../store/types.js';
import type { Checkpoints } from './checkpoints.js';
import type { Recovery } from './recovery.js';
import type { RuleStage } from '../../moderation/rules/stage.js';

export interface IngestOutcome {
  /** Events stored and applied. */
  readonly accepted: number;
  /** Events ignored because their `id` was already accepted. */
  readonly duplicates: number;
  /** The last sequence of each community the batch reached. */
  readonly sequences: Readonly<Record<string, number>>;
}

/** One batch waiting in the group, and how to answer its request. */
export interface Pending {
  readonly batch: StandingEvent[];
  readonly done: { resolve(outcome: IngestOutcome): void; reject(error: unknown): void };
}

interface Prepared {
  readonly fresh: StandingEvent[];
  readonly resolved: (StandingEvent | null)[];
  readonly duplicates: number;
}

export interface GroupCommitOptions {
  readonly store: EventLog;
  readonly engine: Engine;
  readonly positions: Positions;
  readonly checkpoints: Checkpoints;
  /** Rebuilds domain states a refused batch or a failed commit changed. */
  readonly recovery: Recovery;
  /** Tells listeners of the communities a group changed, before any of its batches is answered. */
  readonly emit: (changed: ReadonlyMap<string, LogPosition>, appended: readonly StoredEvent[]) => void;
  /** The moderation rules' stage, when rules are configured: what it decides is stored after each group. */
  readonly rules?: RuleStage | undefined;
  /** Told when the store refused the rules' events (they are tried again after the next group). */
  readonly onRulesFailed?: (error: unknown) => void;
}

export class GroupCommit {
  private readonly store: EventLog;
  private readonly engine: Engine;
  private readonly positions: Positions;
  private readonly checkpoints: Checkpoints;
  private readonly recovery: Recovery;
  private readonly emit: GroupCommitOptions['emit'];
  private readonly rules: RuleStage | undefined;
  private readonly onRulesFailed: GroupCommitOptions['onRulesFailed'];

  constructor(options: GroupCommitOptions) {
    this.store = options.store;
    this.engine = options.engine;
    this.positions = options.positions;
    this.checkpoints = options.checkpoints;
    this.recovery = options.recovery;
    this.emit = options.emit;
    this.rules = options.rules;
    this.onRulesFailed = options.onRulesFailed;
  }

  /**
   * Commits `group`, answering each batch's request; checkpoints the communities that are due.
   * When the store refuses the group's transaction, each batch is committed alone (`split`, the
   * default) or every batch is refused with the store's error.
   */
  async run(group: readonly Pending[], { split = true }: { split?: boolean } = {}): Promise<void> {
    const ready: { batch: StandingEvent[]; prepared: Prepared; done: Pending['done'] }[] = [];
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
      for (const community of touched) await this.recovery.rebuildQuality(community, []);
      if (ready.length === 1 || !split) {
        for (const { done } of ready) done.reject(error);
        return;
      }
      // Validation refuses what a store cannot keep, but if the store refuses the group anyway,
      // each batch is committed alone (and resolved again from the stored state), so only the
      // batch it refuses fails.
      for (const { batch, done } of ready) await this.run([{ batch, done }]);
      return;
    }

    const changed = new Map<string, LogPosition>();
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
          this.engine.settle(event, resolved);
        } catch (error) {
          // A scorer's bug: the event is stored but not applied (as a replay that skips it);
          // only this batch's request fails.
          failure ??= new ApplyFailedError(error);
        }
        accepted++;
        const position = { sequence, time: event.time };
        this.positions.set(event.community, position);
        changed.set(event.community, position);
        this.checkpoints.counted(event.community);
        reached[event.community] = sequence;
      }
      outcomes.push(failure !== undefined ? { failure } : { accepted, duplicates: prepared.duplicates + prepared.fresh.length - accepted, sequences: reached });
    }
    // The rules' decisions on these events are stored before the batches are answered.
    const decided = await this.storeDecisions(changed);
    // Listeners hear of the change before anyone is told the batch is in.
    this.emit(changed, decided.length === 0 ? appended : [...appended, ...decided]);
    ready.forEach(({ done }, i) => {
      const outcome = outcomes[i]!;
      if ('failure' in outcome) done.reject(outcome.failure);
      else done.resolve(outcome);
    });
    for (const community of changed.keys()) {
      if (this.checkpoints.due(community) || this.rules?.wantsCheckpoint(community) === true) await this.checkpoints.save([community]);
    }
  }

  /**
   * Stores the events the rules decided and not yet stored (../../moderation/rules/stage.ts) in
   * one transaction, and applies them; adds the communities they reach to `changed`. When the
   * store refuses them they stay pending, and the next group tries again (their ids make a
   * repeat harmless).
   */
  async storeDecisions(changed: Map<string, LogPosition>): Promise<readonly StoredEvent[]> {
    const decided = this.rules?.pending() ?? [];
    if (decided.length === 0) return [];
    let stored: readonly StoredEvent[];
    try {
      stored = (await this.store.append(decided)).appended;
    } catch (error) {
      this.onRulesFailed?.(error);
      return [];
    }
    this.rules!.stored(new Set(decided.map((event) => event.id!)));
    for (const { community, sequence, event } of stored) {
      // A sanction or a note: no scorer uses it; the rules recognise their own by its id. Stored
      // is stored: a failure here is reported, never the commit's.
      try {
        this.engine.settle(event, event);
      } catch (error) {
        this.onRulesFailed?.(error);
      }
      const position = { sequence, time: event.time };
      this.positions.set(community, position);
      changed.set(community, position);
      this.checkpoints.counted(community);
    }
    return stored;
  }

  /**
   * What committing `batch` now would refuse, without storing or applying anything: the same
   * duplicates and quality stage as a commit. The caller restores the domain states it resolved
   * against (LiveEngine.check).
   */
  async check(batch: StandingEvent[]): Promise<readonly BatchProblem[]> {
    try {
      await this.prepare(batch, new Map(), new Set(), []);
      return [];
    } catch (error) {
      if (error instanceof BatchRejectedError) return error.problems;
      throw error;
    }
  }

  /** Duplicates and the quality stage for one batch; throws to refuse it. */
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
        await this.recovery.rebuildQuality(community, before);
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
}
