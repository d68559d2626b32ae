/**
 * A gateway's forwarded routes: each is registered on the gateway with its declaration on
 * `standing serve` (../http/declared.ts: the same schema, key check, rate limit and OpenAPI
 * entry), and its handler, which runs once the request has passed those, hands it to the worker
 * owning the community's partition (the community in the query, else in the body, else
 * `default`: ../http/request-community.ts; a moderation action naming two is refused before it
 * is forwarded), over NATS request–reply (./read-protocol.ts). The worker answers with the
 * single-node route code over its partition's live engine (./partition-services.ts); the gateway
 * passes the answer on with the stream sequence the partition's state includes (header
 * x-standing-stream-sequence). Answers carry the lease epoch of the worker that made them, and
 * one older than the partition's current epoch (./lease-epochs.ts) is a stale owner's: passed
 * over, the gateway waits for the current owner's.
 *
 * Routes that span communities ask every partition and merge the answers in the single-node
 * order (communities by name): GET /v1/communities, GET /v1/players/:id without `community`. A
 * worker serves reads without checking keys (the gateway did), so the merge keeps only the
 * communities the request's key may reach (../http/access.ts), as `standing serve`'s handlers do.
 * Which routes a gateway forwards and which it answers itself is ./gateway-api.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NatsConnection } from '@nats-io/transport-node';
import { unreachable } from '../errors.js';
import { mayReach } from '../http/access.js';
import { register, type DeclaredRoute } from '../http/declared.js';
import { requestCommunity } from '../http/request-community.js';
import { askOwner } from './ask-owner.js';
import type { LeaseEpochs } from './lease-epochs.js';
import type { ClusterConfig } from './nats.js';
import { partitionOf } from '../store/partitions.js';
import { FORWARDED_REQUEST_HEADERS, pickHeaders, readSubject, STREAM_SEQUENCE_HEADER, type ForwardedAnswer, type ForwardedRequest } from './read-protocol.js';

export interface GatewayReads {
  readonly nats: NatsConnection;
  readonly cluster: ClusterConfig;
  /** The largest message the NATS servers take (their max_payload), in bytes. */
  readonly maxPayload: number;
  /** Each partition's current lease epoch: answers from an older one are not taken. */
  readonly epochs: LeaseEpochs;
}

type Merge = (answers: readonly ForwardedAnswer[], request: FastifyRequest) => ForwardedAnswer;

/**
 * Who answers a forwarded request: the owner of one community's partition, every partition (their
 * answers merged), or the gateway itself (`here`: the answer's body, from what it holds).
 */
export type Plan = { readonly community: string } | { readonly merge: Merge } | { readonly here: () => unknown };

/** The owner of the request's community. */
export const toOwner = (request: FastifyRequest): Plan => ({ community: requestCommunity(request) });

/** GET /v1/players/:id: the owner of the query's community; without one, every partition, merged. */
export const toPlayerOwners = (request: FastifyRequest): Plan => ((request.query as { community?: unknown } | undefined)?.community === undefined ? { merge: mergePlayers } : toOwner(request));

/** GET /v1/communities: every partition, merged. */
export const toEveryPartition = (): Plan => ({ merge: mergeCommunities });

/** GET /v1/scorers: the owner of the query's community; without one, the gateway, from its configuration (`here`). */
export const toCommunityOwnerOr =
  (here: () => unknown) =>
  (request: FastifyRequest): Plan =>
    (request.query as { community?: unknown } | undefined)?.community === undefined ? { here } : toOwner(request);

/** Registers `route` on the gateway, each request answered by whom `plan` says. */
export function forwardRoute(app: FastifyInstance, route: DeclaredRoute, reads: GatewayReads, plan: (request: FastifyRequest) => Plan): void {
  register(app, route, async (request, reply) => {
    const planned = plan(request);
    if ('here' in planned) return planned.here();
    // A HEAD answer has no body to merge: the owner of the request's community gives it.
    const to = request.method === 'HEAD' ? toOwner(request) : planned;
    const forwarded: ForwardedRequest = {
      method: request.method,
      url: request.url,
      headers: pickHeaders(request.headers, FORWARDED_REQUEST_HEADERS),
      ...(request.body === undefined || request.body === null ? {} : { body: JSON.stringify(request.body) }),
    };
    let answer: ForwardedAnswer;
    if ('here' in to) unreachable('a forwarded plan answered here');
    else if ('community' in to) answer = await ask(reads, partitionOf(to.community, reads.cluster.partitions), forwarded, to.community);
    else {
      const all = await Promise.all(Array.from({ length: reads.cluster.partitions }, (_, p) => ask(reads, p, forwarded, undefined)));
      answer = all.find((a) => a.status >= 500) ?? to.merge(all, request);
    }
    await send(reply, answer);
    return reply;
  });
}

async function send(reply: FastifyReply, answer: ForwardedAnswer): Promise<void> {
  void reply.code(answer.status).headers(answer.headers);
  if (answer.streamSequence > 0) void reply.header(STREAM_SEQUENCE_HEADER, String(answer.streamSequence));
  await reply.send(answer.body);
}

function problem(status: number, code: string, message: string, headers: Record<string, string> = {}, limit?: number): ForwardedAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ error: code, message, ...(limit === undefined ? {} : { limit }) }),
    streamSequence: 0,
    epoch: 0,
  };
}

/**
 * One partition's answer: the first reply carrying the partition's current lease epoch or a newer
 * one (a stale owner may answer too: its replies are passed over); a missing owner, a late one or
 * only stale ones as an error answer naming the partition.
 */
async function ask(reads: GatewayReads, partition: number, request: ForwardedRequest, community: string | undefined): Promise<ForwardedAnswer> {
  const { cluster, nats, epochs } = reads;
  const of = community === undefined ? `partition ${partition}` : `partition ${partition} (community ${JSON.stringify(community)})`;
  const payload = JSON.stringify(request);
  if (Buffer.byteLength(payload) > reads.maxPayload) {
    return problem(413, 'BODY_TOO_LARGE', `the request makes a message of ${Buffer.byteLength(payload)} bytes, over the NATS servers' max_payload (${reads.maxPayload} bytes)`, {}, reads.maxPayload);
  }
  const retry = { 'retry-after': String(Math.ceil(cluster.leaseSeconds)) };
  const reply = await askOwner<ForwardedAnswer>(nats, epochs, partition, readSubject(cluster, partition), payload, cluster.readTimeoutMs);
  switch (reply.kind) {
    case 'answer':
      return reply.answer;
    case 'stale':
      return problem(503, 'PARTITION_UNAVAILABLE', `only a stale owner of ${of} answered within cluster.readTimeoutMs (lease epoch ${reply.epoch}, the partition's lease is at epoch ${epochs.current(partition)}): retry after the lease length`, retry);
    case 'none':
      return problem(503, 'PARTITION_UNAVAILABLE', `no worker serves ${of} right now (it is being handed over, or no worker runs): retry after the lease length`, retry);
    case 'late':
      return problem(504, 'READ_TIMEOUT', `the worker owning ${of} did not answer within cluster.readTimeoutMs (${cluster.readTimeoutMs} ms)`, retry, cluster.readTimeoutMs);
    case 'failed':
      return problem(503, 'PARTITION_UNAVAILABLE', `${of} could not be asked: ${reply.message}`, retry);
  }
}

const json = (answer: ForwardedAnswer) => JSON.parse(answer.body) as Record<string, unknown>;
/** A merged 200 answer (its stream sequences are per community, in the body). */
const merged = (body: unknown): ForwardedAnswer => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body), streamSequence: 0, epoch: 0 });
const byCommunity = (a: { community: string }, b: { community: string }) => (a.community < b.community ? -1 : a.community > b.community ? 1 : 0);

/** GET /v1/communities: every partition's communities the request may reach, by name. */
const mergeCommunities: Merge = (answers, request) => {
  const communities = answers
    .flatMap((a) => json(a).communities as { community: string }[])
    .filter((c) => mayReach(request, c.community))
    .sort(byCommunity);
  return merged({ communities });
};

/** GET /v1/players/:id without a community: the player's communities the request may reach from every partition, by name; 404 when none has the player. */
const mergePlayers: Merge = (answers, request) => {
  const found = answers.filter((a) => a.status === 200);
  if (found.length === 0) return answers.find((a) => a.status !== 200) ?? answers[0]!;
  const communities = found
    .flatMap((a) => json(a).communities as { community: string }[])
    .filter((c) => mayReach(request, c.community))
    .sort(byCommunity);
  const player = json(found[0]!).player as string;
  if (communities.length === 0) return problem(404, 'NOT_FOUND', `player "${player}" has no score`);
  return merged({ player, communities });
};
