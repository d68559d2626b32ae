/**
 * Before a batch over several partitions is published, each part the state could refuse (domain
 * actions, appeal openings) is checked by its partition's owner against its state
 * (./ingest-protocol.ts): the batch is refused whole, with serve's problems, before any part of
 * it is stored. Parts of events the state cannot refuse need no check.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import { BatchRejectedError, type BatchProblem } from '../errors.js';
import { HttpProblem } from '../http/errors.js';
import { opensAppeal } from '../moderation/appeal-openings.js';
import { askOwner } from './ask-owner.js';
import { checkSubject, type CheckAnswer, type CheckRequest } from './ingest-protocol.js';
import type { LeaseEpochs } from './lease-epochs.js';
import type { ClusterConfig } from './nats.js';
import type { PartitionPart } from './publish.js';

/** Whether the owner's state could refuse an event of `part`. */
export function stateCouldRefuse(part: PartitionPart): boolean {
  return part.events.some((e) => (e.type === 'action' && e.domain !== undefined) || opensAppeal(e));
}

/** A part's problems with their batch indices. */
export function inBatch(part: PartitionPart, problems: readonly BatchProblem[]): BatchProblem[] {
  return problems.map((p) => ({ ...p, index: part.indices[p.index] ?? p.index }));
}

const byIndex = (a: BatchProblem, b: BatchProblem) => a.index - b.index;

/**
 * Checks the parts the state could refuse, when the batch has more than one part; throws
 * BatchRejectedError as serve would (refused appeal openings first, else every other problem), or an
 * HttpProblem when an owner cannot be asked.
 */
export async function checkParts(nats: NatsConnection, epochs: LeaseEpochs, cluster: ClusterConfig, parts: readonly PartitionPart[]): Promise<void> {
  if (parts.length < 2) return;
  const checked = parts.filter(stateCouldRefuse);
  const answers = await Promise.all(checked.map((part) => ask(nats, epochs, cluster, part)));
  const appeals = answers.flatMap((answer, i) => inBatch(checked[i]!, answer.appeals)).sort(byIndex);
  if (appeals.length > 0) throw new BatchRejectedError(appeals);
  const problems = answers.flatMap((answer, i) => inBatch(checked[i]!, answer.problems)).sort(byIndex);
  if (problems.length > 0) throw new BatchRejectedError(problems);
}

/** How often a check with no worker to answer it is tried again, until cluster.applyTimeoutMs is spent (ms). */
const NO_OWNER_RETRY_MS = 250;

/**
 * The current owner's answer (./ask-owner.ts) within cluster.readTimeoutMs once one listens;
 * while no worker listens (a partition being taken or handed over), asked again until
 * cluster.applyTimeoutMs is spent, as long as a published part waits for its owner.
 */
async function ask(nats: NatsConnection, epochs: LeaseEpochs, cluster: ClusterConfig, part: PartitionPart): Promise<{ appeals: readonly BatchProblem[]; problems: readonly BatchProblem[] }> {
  const { partition } = part;
  const payload = JSON.stringify({ events: part.events } satisfies CheckRequest);
  const deadline = Date.now() + cluster.applyTimeoutMs;
  for (;;) {
    const reply = await askOwner<CheckAnswer>(nats, epochs, partition, checkSubject(cluster, partition), payload, cluster.readTimeoutMs);
    if (reply.kind === 'none' && Date.now() + NO_OWNER_RETRY_MS < deadline) {
      await new Promise((resolve) => setTimeout(resolve, NO_OWNER_RETRY_MS));
      continue;
    }
    switch (reply.kind) {
      case 'answer':
        if ('error' in reply.answer) throw new Error(`the worker owning partition ${partition} could not check the batch's part of it: ${reply.answer.error}`);
        return reply.answer;
      case 'none':
        throw new HttpProblem(503, 'PARTITION_UNAVAILABLE', `no worker served partition ${partition} within cluster.applyTimeoutMs (${cluster.applyTimeoutMs} ms) to check the batch's part of it (it is being handed over, or no worker runs): nothing was stored; retry after the lease length`);
      case 'stale':
        throw new HttpProblem(503, 'PARTITION_UNAVAILABLE', `only a stale owner of partition ${partition} checked the batch's part of it (lease epoch ${reply.epoch}, the partition's lease is at epoch ${epochs.current(partition)}): nothing was stored; retry after the lease length`);
      case 'late':
        throw new HttpProblem(504, 'READ_TIMEOUT', `the worker owning partition ${partition} did not check the batch's part of it within cluster.readTimeoutMs (${cluster.readTimeoutMs} ms): nothing was stored`, cluster.readTimeoutMs);
      case 'failed':
        throw new HttpProblem(503, 'PARTITION_UNAVAILABLE', `partition ${partition} could not be asked to check the batch's part of it (${reply.message}): nothing was stored; retry after the lease length`);
    }
  }
}
