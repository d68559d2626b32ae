/**
 * The live engine's checkpoints: every `every` events of a community (and no sooner than `ms`
 * after its last one) the states of all instances and of the quality stage for that community
 * are saved together with the sequence they include, many communities to a transaction; a
 * restart puts them back (./recovery.ts). Each state is filed under a key naming what it belongs
 * to, so a state is never restored into an instance it was not saved from.
 */
import { createHash } from 'node:crypto';
import { CheckpointError } from '../../errors.js';
import type { ScorerInstance } from '../../engine/engine.js';
import { formatParams } from '../../params/format.js';
import type { QualityStage, QualityStageOptions } from '../../quality/stage.js';
import type { CheckpointSet, CheckpointStore } from '../../store/types.js';
import type { TextParts } from '../../util/json-parts.js';
import type { Positions } from '../../engine/replay.js';
import { RuleStage } from '../../moderation/rules/stage.js';

/**
 * What a saved state is filed under: the scorer, its revision (Scorer.revision) and all its
 * parameters' values (not the instance's display name), so a state is never restored into an
 * instance with other parameters, nor into a scorer whose state now means something else. A function-valued parameter (trust's decay or influence) counts by its source
 * text, never its name: two functions of one name are two parameters.
 */
export function checkpointKey(instance: Pick<ScorerInstance, 'scorer' | 'params'>): string {
  const values = Object.fromEntries(
    Object.entries(instance.params).map(([key, value]) => [key, typeof value === 'function' ? `fn:${createHash('sha256').update(String(value)).digest('hex').slice(0, 16)}` : value]),
  );
  const revision = instance.scorer.revision === undefined ? '' : `@${instance.scorer.revision}`;
  return `${instance.scorer.id}${revision} ${formatParams(values)}`;
}

/**
 * The least time between two checkpoints of a community by default, in the library as in
 * `standing serve`: a checkpoint snapshots every scorer's state of the community, O(state) on the
 * thread that applies events, so a busy community pays for one every 10 s at most (and a restart
 * replays about 10 s of its events at most, or checkpointEvery events, whichever is more).
 */
export const DEFAULT_CHECKPOINT_SECONDS = 10;

/** Communities whose checkpoints are saved in one transaction, or loaded in one read. */
export const CHECKPOINT_GROUP = 500;

export interface CheckpointsOptions {
  readonly store: CheckpointStore;
  readonly instances: readonly ScorerInstance[];
  readonly quality: QualityStage;
  /** The quality stage's domain options: its state is filed under a hash of them. */
  readonly qualityOptions: QualityStageOptions['options'];
  /** The applied position of each community: a checkpoint includes its sequence. */
  readonly positions: Positions;
  /** The moderation rules' stage, when rules are configured: its state is saved too. */
  readonly rules?: RuleStage | undefined;
  /** Events of one community between checkpoints… */
  readonly every: number;
  /** …and at least this many ms. */
  readonly ms: number;
}

export class Checkpoints {
  private readonly store: CheckpointStore;
  private readonly instances: readonly ScorerInstance[];
  private readonly quality: QualityStage;
  private readonly positions: Positions;
  private readonly rules: RuleStage | undefined;
  /** What the quality stage's state is filed under. */
  readonly qualityKey: string;
  /** What each instance's state is filed under (checkpointKey), in instance order. */
  private readonly instanceKeys: readonly string[];
  private readonly every: number;
  private readonly ms: number;
  /** Events applied per community since its last checkpoint. */
  private readonly since = new Map<string, number>();
  /** When each community's last checkpoint was saved (wall clock, ms). */
  private readonly last = new Map<string, number>();

  constructor(options: CheckpointsOptions) {
    this.store = options.store;
    this.instances = options.instances;
    this.quality = options.quality;
    this.positions = options.positions;
    this.rules = options.rules;
    this.instanceKeys = options.instances.map(checkpointKey);
    this.qualityKey = `quality ${createHash('sha256').update(JSON.stringify(options.qualityOptions ?? {})).digest('hex').slice(0, 16)}`;
    this.every = options.every;
    this.ms = options.ms;
  }

  /** Counts one more applied event of `community`. */
  counted(community: string): void {
    this.since.set(community, (this.since.get(community) ?? 0) + 1);
  }

  /** Says `count` events of `community` were applied since its checkpoint (after a replay). */
  replayed(community: string, count: number): void {
    this.since.set(community, count);
  }

  /** Forgets the count of `community`. */
  forget(community: string): void {
    this.since.delete(community);
  }

  /** Whether `community` has had enough events, for long enough, to be checkpointed now. */
  due(community: string): boolean {
    return (this.since.get(community) ?? 0) >= this.every && Date.now() - (this.last.get(community) ?? 0) >= this.ms;
  }

  /** Communities with events since their last checkpoint. */
  pending(): string[] {
    return [...this.since].filter(([, count]) => count > 0).map(([community]) => community);
  }

  /** Saves the checkpoints of `communities` in one transaction. */
  async save(communities: readonly string[]): Promise<void> {
    const sets = new Map<string, CheckpointSet>();
    for (const community of communities) {
      const position = this.positions.get(community);
      if (position === undefined) continue;
      const states: Record<string, TextParts> = { [this.qualityKey]: this.quality.snapshot(community) ?? '' };
      this.instances.forEach((instance, i) => (states[this.instanceKeys[i]!] = instance.scorer.snapshot(instance.state, community) ?? ''));
      if (this.rules !== undefined) states[RuleStage.CHECKPOINT_KEY] = this.rules.snapshot(community) ?? '';
      sets.set(community, { sequence: position.sequence, states });
    }
    await this.store.saveCheckpointSets(sets);
    const now = Date.now();
    for (const community of sets.keys()) {
      this.since.set(community, 0);
      this.last.set(community, now);
    }
  }

  /** Whether a checkpoint set holds a state for the quality stage, every instance and (when configured) the rules. */
  usable(saved: CheckpointSet | undefined): saved is CheckpointSet {
    return (
      saved !== undefined &&
      saved.states[this.qualityKey] !== undefined &&
      this.instanceKeys.every((name) => saved.states[name] !== undefined) &&
      (this.rules === undefined || saved.states[RuleStage.CHECKPOINT_KEY] !== undefined)
    );
  }

  /**
   * Puts `community`'s saved states back into the quality stage, every instance and the rules; when one
   * cannot be read, returns a CheckpointError naming it (the states before it are restored).
   */
  restore(community: string, saved: CheckpointSet): CheckpointError | undefined {
    const text = (name: string) => (saved.states[name] === '' ? undefined : saved.states[name]);
    let state = this.qualityKey;
    try {
      this.quality.restore(community, text(this.qualityKey));
      this.instances.forEach((instance, i) => {
        state = this.instanceKeys[i]!;
        instance.scorer.restore(instance.state, community, text(state));
      });
      if (this.rules !== undefined) {
        state = RuleStage.CHECKPOINT_KEY;
        const saved = text(state);
        this.rules.restore(community, typeof saved === 'string' ? saved : saved === undefined ? undefined : saved.join(''));
      }
      return undefined;
    } catch (error) {
      return new CheckpointError(community, state, error instanceof Error ? error.message : String(error));
    }
  }
}
