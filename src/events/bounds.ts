/**
 * Bounds on the values of event fields that docs/spec.md §1 leaves open, chosen so that no accepted event can poison a
 * community's scores: every accepted time is a moment a JavaScript `Date` can represent, and no
 * sum of accepted numbers can overflow to ±Infinity.
 */

/** The largest |epoch milliseconds| a `Date` represents (±100,000,000 days from 1970). */
export const MAX_TIME_MS = 8.64e15;

/** The largest |delta| an `action` may carry, and the bound a domain's computed delta is clamped to. */
export const MAX_DELTA = 1e9;

/** The most games one `played` event may add (the games since the player's last `played` event). */
export const MAX_GAMES_PER_EVENT = 1_000;

/** The largest |number| a domain payload field (a clustering position, a recommendation's stars) may hold. */
export const MAX_PAYLOAD_NUMBER = 1e9;
