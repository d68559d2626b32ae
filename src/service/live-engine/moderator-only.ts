/**
 * What a client may not post to POST /v1/events (docs/service.md#moderation): moderator events come
 * only through the moderation endpoints, which need the `moderate` scope and name the moderator
 * from the acting key. A player's appeal may be opened by the game with an ingest key.
 */
import type { StandingEvent } from '../../events/types.js';

/** Why `event` needs the moderation endpoints, as [field, reason], or undefined when a client may post it. */
export function moderatorOnly(event: StandingEvent): [field: string, reason: string] | undefined {
  if (event.moderator !== undefined) return ['moderator', 'is set by the service from the acting key, never taken from a request: post moderator events through the moderation endpoints'];
  switch (event.type) {
    case 'verdict':
      return ['type', `"verdict" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/verdicts or POST /v1/reports/verdicts`];
    case 'note':
      return ['type', '"note" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/notes'];
    case 'sanction':
      return ['type', '"sanction" is recorded only through the moderation endpoints (scope moderate): POST /v1/players/{id}/sanctions'];
    case 'appeal':
      return event.status === 'opened'
        ? undefined
        : ['status', `"${event.status}" decides an appeal: only a moderator does, through POST /v1/players/{id}/appeals/{appeal}/decision`];
    default:
      return undefined;
  }
}
