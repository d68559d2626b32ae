/**
 * A gateway's DELETE /v1/players/:id (admin): publishes an erase command to every partition
 * (./erase.ts), then waits a bounded time for every partition's owner to have applied it (the
 * stream sequence PostgreSQL records for the partition reaching the command's). 200 when all
 * have, 202 when some have not yet: the commands are durable in the log and their owners apply
 * them when they reach them.
 */
import type { JetStreamClient } from '@nats-io/jetstream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { documented } from '../http/documented.js';
import { HttpProblem } from '../http/errors.js';
import { refTo } from '../http/schemas/common.js';
import { PlayerParams } from '../http/schemas/players.js';
import type { PartitionWrites } from '../store/partitions.js';
import { publishErase } from './erase.js';
import type { ClusterConfig } from './nats.js';

export const ClusterErasure = Type.Object(
  {
    player: Type.String(),
    erased: Type.Boolean({ description: "true: every partition's owner has erased the player from PostgreSQL and purged the log; false: not yet, they will when they reach the command" }),
    pending: Type.Array(Type.Integer({ minimum: 0 }), { description: 'partitions that have not applied the command yet' }),
  },
  { additionalProperties: false },
);

export interface GatewayErase {
  readonly js: JetStreamClient;
  readonly store: PartitionWrites;
  readonly cluster: ClusterConfig;
  /** How long to wait for the owners before answering 202 (ms). */
  readonly waitMs: number;
}

export function gatewayEraseRoute(app: FastifyInstance, erase: GatewayErase): void {
  app.delete<{ Params: { id: string } }>(
    '/v1/players/:id',
    documented('admin', {
      operationId: 'eraseCluster',
      summary: "Erase the player's events from every partition of the cluster",
      description:
        "Publishes an erase command to every partition; each owning worker erases the player from its communities in PostgreSQL, recomputes them and purges the partition's messages up to the command from the log. Answers 200 once every partition has, 202 when some have not within the wait (they will, in order).",
      tags: ['players'],
      params: refTo(PlayerParams),
      response: { 200: ClusterErasure, 202: ClusterErasure },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['LOG_UNAVAILABLE'] },
    }),
    async (request, reply) => {
      const player = request.params.id;
      let sequences: number[];
      try {
        sequences = await publishErase(erase.js, erase.cluster, player);
      } catch (error) {
        void reply.header('retry-after', '1');
        throw new HttpProblem(503, 'LOG_UNAVAILABLE', `the event log did not acknowledge the erase command on every partition (${(error as Error).message}): send it again`);
      }
      const deadline = Date.now() + erase.waitMs;
      let pending: number[];
      for (;;) {
        const reached = await erase.store.streamSequences(erase.cluster.stream);
        pending = sequences.flatMap((seq, partition) => ((reached.get(partition) ?? 0) >= seq ? [] : [partition]));
        if (pending.length === 0 || Date.now() >= deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The player is not named: the request's own log line has their id hashed (../http/log-redaction.ts), and an erasure cannot reach a log.
      request.log.info({ pending }, 'erase commands published');
      return reply.code(pending.length === 0 ? 200 : 202).send({ player, erased: pending.length === 0, pending });
    },
  );
}
