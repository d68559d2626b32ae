/**
 * Claims on cases (docs/moderation.md#claims): POST /v1/players/:id/case/claim takes or renews a
 * moderator's claim on a player's case for a while (claims.minutes, at most claims.maxMinutes),
 * DELETE releases it. While a claim is in force, another moderator's verdict on the player,
 * sanction, lift or appeal decision is refused 409 CASE_CLAIMED naming the claimant and the end
 * (`claimedByAnother`, called by ./moderation.ts inside its one-at-a-time section). Notes and
 * appeal openings are never held back. Claims are kept in the store (ClaimStore), so every
 * process of a cluster sees the same ones, and they run on the wall clock: a claim is about the
 * moderators' time, not the events'.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_COMMUNITY } from '../../events/types.js';
import { allows, moderatorName } from '../../service/keys.js';
import type { CaseClaim, ClaimStore } from '../../store/types.js';
import { verifiedKey } from '../auth.js';
import type { AccessConfig } from '../context.js';
import { declared, register } from '../declared.js';
import { documented } from '../documented.js';
import { HttpProblem } from '../errors.js';
import { refuseSecondCommunity } from '../request-community.js';
import { Claim, ClaimBody, ClaimQuery, type ClaimBody as ClaimBodyType } from '../schemas/access.js';
import { refTo } from '../schemas/common.js';
import { answer } from '../schemas/errors.js';
import { PlayerParams } from '../schemas/players.js';

export const CLAIM_ROUTES = {
  claim: declared('POST', '/v1/players/:id/case/claim', {
    ...documented('moderate', {
      operationId: 'claimCase',
      summary: "Claim a player's case for a while, so no other moderator acts on it meanwhile (or renew your claim)",
      description:
        "While the claim is in force, another moderator's verdict on the player, sanction, lift or appeal decision is refused 409 CASE_CLAIMED; notes and appeal openings are not. Claiming again renews it. 409 CASE_CLAIMED when another moderator holds it. The community is the body's `community` (default `default`).",
      tags: ['moderation'],
      params: refTo(PlayerParams),
      body: refTo(ClaimBody),
      response: { 200: answer(Claim, 'the claim is yours until `until`') },
      errors: { 400: ['REQUEST_INVALID', 'BODY_UNREADABLE'], 409: ['CASE_CLAIMED'], 413: ['BODY_TOO_LARGE'], 415: ['BODY_UNREADABLE'], 503: ['STORE_BUSY'] },
    }),
    preValidation: [refuseSecondCommunity],
  }),
  release: declared(
    'DELETE',
    '/v1/players/:id/case/claim',
    documented('moderate', {
      operationId: 'releaseCase',
      summary: 'Release your claim on a player\'s case (a senior moderator may release anyone\'s)',
      description: '404 when no claim is in force; 409 CASE_CLAIMED when another moderator holds it and the key lacks `senior`.',
      tags: ['moderation'],
      params: refTo(PlayerParams),
      querystring: refTo(ClaimQuery),
      response: { 200: answer(Claim, 'the claim released') },
      errors: { 400: ['REQUEST_INVALID'], 404: ['NOT_FOUND'], 409: ['CASE_CLAIMED'], 503: ['STORE_BUSY'] },
    }),
  ),
};

const at = (ms: number): string => new Date(ms).toISOString();

/** The 409 naming who holds the case and until when. */
function claimed(claim: CaseClaim): HttpProblem {
  return new HttpProblem(
    409,
    'CASE_CLAIMED',
    `the case of player ${JSON.stringify(claim.player)} in community ${JSON.stringify(claim.community)} is claimed by ${JSON.stringify(claim.moderator)} until ${at(claim.until)}: wait for the claim to end, or ask them to release it`,
  );
}

/** Refuses, with 409 CASE_CLAIMED, an action on the case of `player` by another moderator than the one holding it. */
export async function refuseIfClaimedByAnother(store: ClaimStore, request: FastifyRequest, community: string, player: string): Promise<void> {
  const claim = await store.caseClaim(community, player, Date.now());
  if (claim !== undefined && claim.moderator !== moderatorName(verifiedKey(request)!)) throw claimed(claim);
}

export function claimRoutes(app: FastifyInstance, store: ClaimStore, config: AccessConfig['claims']): void {
  register<{ Params: { id: string }; Body: ClaimBodyType }>(app, CLAIM_ROUTES.claim, async (request) => {
    const { community = DEFAULT_COMMUNITY, minutes = config.minutes } = request.body ?? {};
    if (minutes > config.maxMinutes) throw new HttpProblem(400, 'REQUEST_INVALID', `body/minutes is ${minutes}; a claim lasts at most claims.maxMinutes (${config.maxMinutes})`);
    const moderator = moderatorName(verifiedKey(request)!);
    const now = Date.now();
    const claim = await store.claimCase({ community, player: request.params.id, moderator, claimedAt: now, until: now + minutes * 60_000 });
    if (claim.moderator !== moderator) throw claimed(claim);
    return claim;
  });

  register<{ Params: { id: string }; Querystring: { community?: string } }>(app, CLAIM_ROUTES.release, async (request) => {
    const { community = DEFAULT_COMMUNITY } = request.query;
    const player = request.params.id;
    const key = verifiedKey(request)!;
    const now = Date.now();
    const released = await store.releaseCase(community, player, allows(key, 'senior') ? undefined : moderatorName(key), now);
    if (released !== undefined) return released;
    const held = await store.caseClaim(community, player, now);
    if (held !== undefined) throw claimed(held);
    throw new HttpProblem(404, 'NOT_FOUND', `no claim is in force on the case of player ${JSON.stringify(player)} in community ${JSON.stringify(community)}`);
  });
}
