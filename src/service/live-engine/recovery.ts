/**
 * Bringing the live engine's communities back from the store: each from its checkpoint and the
 * log tail after it, reaching exactly the state a full replay reaches (scorers' snapshots are
 * exact). Opening loads checkpoints for many communities at a time and reads short tails
 * together; a community whose checkpoint covers its whole log costs no further read. The same
 * replay rebuilds a community after an erasure, and the quality stage alone after a refused batch.
 */
import type { CheckpointError } from '../../errors.js';
import type { StandingEvent } from '../../events/types.js';
import { Engine } from '../../engine/engine.js';
import { replayStored, replayStoredEvent, type LogPosition, type Positions } from '../../engine/replay.js';
import type { QualityStage } from '../../quality/stage.js';
import type { CheckpointSet, CheckpointStore, EventLog, StoredEvent } from '../../store/types.js';
import { eventsAfter } from '../../store/pages.js';
import { CHECKPOINT_GROUP, type Checkpoints } from './checkpoints.js';
import type { RuleStage } from '../../moderation/rules/stage.js';

/** Most log events `recoverAll` reads for one group of communities' tails at once (longer tails are paged alone). */
const TAIL_EVENTS = 20_000;

export interface RecoveryOptions {
  readonly store: EventLog & CheckpointStore;
  readonly engine: Engine;
  readonly quality: QualityStage;
  readonly checkpoints: Checkpoints;
  readonly positions: Positions;
  /** The moderation rules' stage, when rules are configured: reset with the scorers. */
  readonly rules?: RuleStage | undefined;
  /** Told when a checkpoint cannot be read back: that community is replayed from its log instead. */
  readonly onCheckpointError?: (error: CheckpointError) => void;
  /** Told about replayed events a domain refused (only possible after an erasure). */
  readonly onSkipped?: (community: string, sequence: number, error: unknown) => void;
}

/** What `recoverAll` read in bulk for one community. */
interface Loaded {
  /** Its checkpoint. */
  readonly saved: CheckpointSet | undefined;
  /** Its last stored event. */
  readonly last: LogPosition | undefined;
  /** The tail of its log after the checkpoint, when that was read too. */
  readonly tail: readonly StoredEvent[] | undefined;
}

export class Recovery {
  private readonly store: EventLog & CheckpointStore;
  private readonly engine: Engine;
  private readonly quality: QualityStage;
  private readonly checkpoints: Checkpoints;
  private readonly positions: Positions;
  private readonly rules: RuleStage | undefined;
  private readonly onCheckpointError: RecoveryOptions['onCheckpointError'];
  private readonly onSkipped: RecoveryOptions['onSkipped'];

  constructor(options: RecoveryOptions) {
    this.store = options.store;
    this.engine = options.engine;
    this.quality = options.quality;
    this.checkpoints = options.checkpoints;
    this.positions = options.positions;
    this.rules = options.rules;
    this.onCheckpointError = options.onCheckpointError;
    this.onSkipped = options.onSkipped;
  }

  /**
   * Restores every community of the store from its checkpoint and log tail. The rules evaluate a
   * tail only after a checkpoint saved under the same rules (making again, under the same ids,
   * the decisions a crash may have lost); they evaluate every community again from here on.
   */
  async recoverAll(): Promise<void> {
    await this.recoverEach();
    this.rules?.resume();
  }

  private async recoverEach(): Promise<void> {
    const communities = await this.store.communities();
    const last = await this.store.lastEvents();
    for (let first = 0; first < communities.length; first += CHECKPOINT_GROUP) {
      const group = communities.slice(first, first + CHECKPOINT_GROUP);
      const saved = await this.store.loadCheckpointSets(group);
      // The tails to replay, read together while they are short (an erasure's gaps only shorten them).
      const after = new Map<string, number>();
      let events = 0;
      for (const community of group) {
        const set = saved.get(community);
        const from = this.checkpoints.usable(set) ? set.sequence : 0;
        const length = (last.get(community)?.sequence ?? 0) - from;
        if (length > 0 && events + length <= TAIL_EVENTS) {
          after.set(community, from);
          events += length;
        }
      }
      const tails = new Map<string, StoredEvent[]>([...after.keys()].map((community) => [community, []]));
      for (const stored of await this.store.readTails(after)) tails.get(stored.community)!.push(stored);
      for (const community of group) await this.recover(community, { saved: saved.get(community), last: last.get(community), tail: tails.get(community) });
    }
  }

  /** Forgets everything the engine holds for `community`. */
  reset(community: string): void {
    this.quality.restore(community, undefined);
    for (const instance of this.engine.instances) instance.scorer.restore(instance.state, community, undefined);
    // The rules fold the replay, deciding nothing: what they decided on this log is in it already.
    this.rules?.restore(community, undefined);
    this.positions.delete(community);
    this.checkpoints.forget(community);
  }

  /**
   * Restores `community` from its checkpoint (when it covers every instance) and replays the rest.
   * `loaded` is what `recoverAll` already read in bulk.
   */
  async recover(community: string, loaded?: Loaded): Promise<void> {
    const saved = loaded === undefined ? await this.store.loadCheckpoints(community) : loaded.saved;
    let usable = this.checkpoints.usable(saved);
    let after = 0;
    if (usable) {
      const failure = this.checkpoints.restore(community, saved!);
      if (failure !== undefined) {
        // A checkpoint that cannot be read back costs a full replay, never the start.
        this.reset(community);
        this.onCheckpointError?.(failure);
        usable = false;
        loaded = undefined;
      }
    }
    if (usable) {
      after = saved!.sequence;
      if (loaded?.last?.sequence === saved!.sequence) {
        // The checkpoint covers the whole log: nothing to replay.
        this.positions.set(community, loaded.last);
        this.checkpoints.replayed(community, 0);
        return;
      }
    } else {
      this.reset(community);
    }
    let position: LogPosition | undefined;
    const tail = loaded?.tail ?? eventsAfter(this.store, community, after);
    if (usable && !(loaded?.tail !== undefined && loaded.tail.length > 0)) {
      const last = await this.store.read(community, saved!.sequence - 1, 1);
      position = { sequence: saved!.sequence, time: last[0]?.sequence === saved!.sequence ? last[0].event.time : 0 };
    }
    const onSkipped = this.onSkipped;
    const replayed = await replayStored(this.engine, tail, { onSkipped: onSkipped && ((sequence, error) => onSkipped(community, sequence, error)) });
    position = replayed.last ?? position;
    if (position !== undefined) this.positions.set(community, position);
    this.checkpoints.replayed(community, replayed.events);
  }

  /** Rebuilds the domain states of `community` from its checkpoint, the stored log and `extra`. */
  async rebuildQuality(community: string, extra: readonly StandingEvent[]): Promise<void> {
    const saved = await this.store.loadCheckpoints(community);
    const state = saved?.states[this.checkpoints.qualityKey];
    this.quality.restore(community, state === undefined || state === '' ? undefined : state);
    const after = state === undefined ? 0 : saved!.sequence;
    // An engine of no scorers: the quality stage alone, refusing what every replay refuses.
    const qualityOnly = new Engine([], { quality: this.quality });
    await replayStored(qualityOnly, eventsAfter(this.store, community, after));
    for (const event of extra) replayStoredEvent(qualityOnly, event);
  }
}
