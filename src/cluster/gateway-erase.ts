/**
 * A gateway's DELETE /v1/players/:id (admin), answered as `standing serve` answers it once every
 * partition's owner has erased: it publishes an erase command to every partition (./erase.ts),
 * each naming where its owner reports what the erasure changed (./ingest-protocol.ts), and waits
 * a bounded time for every report (./apply-outcomes.ts). All in: serve's `Erasure` (the
 * partitions' counts summed, their communities merged), or serve's 404 NOT_FOUND when no
 * partition removed or rewrote anything (../service/erased-or-unknown.ts). Some missing: 202
 * naming them, the commands durable in the log and applied by their owners when they reach them.
 */
import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { FastifyInstance } from 'fastify';
import { documented } from '../http/documented.js';
import { HttpProblem } from '../http/errors.js';
import { refTo } from '../http/schemas/common.js';
import { answer } from '../http/schemas/errors.js';
import { Erasure, ErasurePending, PlayerParams } from '../http/schemas/players.js';
import { erasedOrUnknown } from '../service/erased-or-unknown.js';
import type { ApplyOutcomes } from './apply-outcomes.js';
import { publishErase } from './erase.js';
import type { OutcomeMessage } from './ingest-protocol.js';
import type { ClusterConfig } from './nats.js';

export interface GatewayErase {
  readonly js: JetStreamClient;
  /** Where the owners' reports arrive. */
  readonly outcomes: ApplyOutcomes;
  readonly cluster: ClusterConfig;
  /** How long to wait for the owners before answering 202 (ms). */
  readonly waitMs: number;
}

export function gatewayEraseRoute(app: FastifyInstance, erase: GatewayErase): void {
  app.delete<{ Params: { id: string } }>(
    '/v1/players/:id',
    documented('admin', {
      operationId: 'eraseCluster',
      summary: "Erase the player's events from every partition of the cluster and recompute the communities they were in",
      description:
        "Publishes an erase command to every partition; each owning worker erases the player from its communities in PostgreSQL, recomputes them, purges the partition's messages up to the command from the log and reports what it changed. Answers as `standing serve` does once every partition has reported: 200 with the erasure's counts summed over the partitions, 404 NOT_FOUND when no stored event was by or about the player. 202 when some partitions did not report within the wait: the commands are durable in the log, and their owners apply them in order.",
      tags: ['players'],
      params: refTo(PlayerParams),
      response: { 200: answer(Erasure, 'the player is erased from every partition'), 202: ErasurePending },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 404: ['NOT_FOUND'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['LOG_UNAVAILABLE'] },
    }, 'every'),
    async (request, reply) => {
      const player = request.params.id;
      const partitions = Array.from({ length: erase.cluster.partitions }, (_, partition) => partition);
      const headers = { batch: randomUUID(), outcomeTo: erase.outcomes.subject };
      const waiting = erase.outcomes.expect(headers.batch, partitions);
      try {
        await publishErase(erase.js, erase.cluster, player, headers);
      } catch (error) {
        waiting.cancel();
        void reply.header('retry-after', '1');
        throw new HttpProblem(503, 'LOG_UNAVAILABLE', `the event log did not acknowledge the erase command on every partition (${(error as Error).message}): send it again`);
      }
      const outcomes = await waiting.settled(erase.waitMs);
      const pending = partitions.filter((partition) => !outcomes.has(partition));
      // The player is not named: the request's own log line has their id hashed (../http/log-redaction.ts), and an erasure cannot reach a log.
      if (pending.length > 0) {
        request.log.info({ pending }, 'erase commands published, not all applied within the wait');
        return reply.code(202).send({ player, erased: false, pending } satisfies ErasurePending);
      }
      const erased = summed(outcomes);
      erasedOrUnknown(player, erased);
      request.log.info({ communities: erased.communities, removed: erased.removed, rewritten: erased.rewritten }, 'player erased from every partition');
      return reply.code(200).send({ player, ...erased } satisfies Erasure);
    },
  );
}

/** The partitions' erasures as one: counts summed, communities merged and sorted. */
function summed(outcomes: ReadonlyMap<number, OutcomeMessage>): { communities: string[]; removed: number; rewritten: number } {
  const communities = new Set<string>();
  let removed = 0;
  let rewritten = 0;
  for (const { outcome } of outcomes.values()) {
    if (outcome.kind !== 'erased') continue;
    for (const community of outcome.communities) communities.add(community);
    removed += outcome.removed;
    rewritten += outcome.rewritten;
  }
  return { communities: [...communities].sort(), removed, rewritten };
}
