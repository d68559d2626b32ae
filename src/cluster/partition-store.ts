/**
 * The store as one partition's live engine sees it: only the communities of that partition, and
 * every write fenced by the epoch the worker's claim got (../store/partitions.ts), so a worker
 * whose lease was taken over stores nothing more, and the store refuses any write naming a
 * community of another partition (CommunityOutsidePartitionError). The append also records the stream sequence of
 * the message being applied, in the same statement: the partition's stored events and the point
 * in the stream they reach can never disagree. Erasure reaches the partition's communities only;
 * alerts are stored fenced too, and only the partition's open alerts are seen.
 */
import { partitionOf, type Fence, type PartitionWrites } from '../store/partitions.js';
import type { EventStore } from '../store/types.js';

export interface PartitionScope extends Fence {
  /** The stream sequence of the message being applied. */
  readonly streamSequence: () => number;
}

export function partitionStore(store: EventStore & PartitionWrites, scope: PartitionScope): EventStore {
  const mine = (community: string) => partitionOf(community, scope.partitions) === scope.partition;
  const fence: Fence = { stream: scope.stream, partition: scope.partition, partitions: scope.partitions, epoch: scope.epoch };
  const only = <T>(map: Map<string, T>) => new Map([...map].filter(([community]) => mine(community)));
  return {
    ...store,
    append: (events) => store.appendFenced(events, fence, scope.streamSequence()),
    saveCheckpoints: (community, checkpoint) => store.saveCheckpointSetsFenced(new Map([[community, checkpoint]]), fence),
    saveCheckpointSets: (checkpoints) => store.saveCheckpointSetsFenced(checkpoints, fence),
    appendAlerts: (alerts) => store.appendAlertsFenced(alerts, fence),
    openAlerts: async () => (await store.openAlerts()).filter((alert) => mine(alert.community)),
    communities: async () => (await store.communities()).filter(mine),
    sequences: async () => only(await store.sequences()),
    lastEvents: async () => only(await store.lastEvents()),
    // Only this partition's communities: the other partitions' owners erase theirs (./erase.ts).
    erase: async (player, rewrite) => store.eraseFenced(player, rewrite, fence, (await store.communities()).filter(mine)),
    // The store is the worker's, shared by its partitions: it closes it.
    close: () => Promise.resolve(),
  };
}
