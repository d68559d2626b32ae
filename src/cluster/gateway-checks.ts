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
import { checkSubject, type CheckAnswer, type CheckRequest } from './ingest-protocol.js';
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
 * BatchRejectedError as serve would (second open appeals first, else every other problem), or an
 * HttpProblem when an owner cannot be asked.
 */
export async function checkParts(nats: NatsConnection, cluster: ClusterConfig, parts: readonly PartitionPart[]): Promise<void> {
  if (parts.length < 2) return;
  const checked = parts.filter(stateCouldRefuse);
  const answers = await Promise.all(checked.map((part) => ask(nats, cluster, part)));
  const appeals = answers.flatMap((answer, i) => inBatch(checked[i]!, answer.appeals)).sort(byIndex);
  if (appeals.length > 0) throw new BatchRejectedError(appeals);
  const problems = answers.flatMap((answer, i) => inBatch(checked[i]!, answer.problems)).sort(byIndex);
  if (problems.length > 0) throw new BatchRejectedError(problems);
}

/** How often a check with no worker to answer it is tried again, until cluster.applyTimeoutMs is spent (ms). */
const NO_OWNER_RETRY_MS = 250;

const isNoResponders = (error: unknown) => (error as { isNoResponders?: () => boolean }).isNoResponders?.() === true || (error as Error).name === 'NoRespondersError';

/**
 * The owner's answer within cluster.readTimeoutMs once one answers; while no worker answers (a
 * partition being taken or handed over), asked again until cluster.applyTimeoutMs is spent, as
 * long as a published part waits for its owner.
 */
async function ask(nats: NatsConnection, cluster: ClusterConfig, part: PartitionPart): Promise<{ appeals: readonly BatchProblem[]; problems: readonly BatchProblem[] }> {
  const payload = JSON.stringify({ events: part.events } satisfies CheckRequest);
  const deadline = Date.now() + cluster.applyTimeoutMs;
  let answer: CheckAnswer | undefined;
  while (answer === undefined) {
    try {
      answer = (await nats.request(checkSubject(cluster, part.partition), payload, { timeout: cluster.readTimeoutMs })).json<CheckAnswer>();
    } catch (error) {
      const late = Date.now() + NO_OWNER_RETRY_MS >= deadline;
      if (isNoResponders(error) && !late) {
        await new Promise((resolve) => setTimeout(resolve, NO_OWNER_RETRY_MS));
        continue;
      }
      if (isNoResponders(error)) throw new HttpProblem(503, 'PARTITION_UNAVAILABLE', `no worker served partition ${part.partition} within cluster.applyTimeoutMs (${cluster.applyTimeoutMs} ms) to check the batch's part of it (it is being handed over, or no worker runs): nothing was stored; retry after the lease length`);
      throw new HttpProblem(504, 'READ_TIMEOUT', `the worker owning partition ${part.partition} did not check the batch's part of it within cluster.readTimeoutMs (${cluster.readTimeoutMs} ms): nothing was stored`, cluster.readTimeoutMs);
    }
  }
  if ('error' in answer) throw new Error(`the worker owning partition ${part.partition} could not check the batch's part of it: ${answer.error}`);
  return answer;
}
