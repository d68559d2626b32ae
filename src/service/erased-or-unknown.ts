/**
 * An erasure of a player no stored event is by or about changes nothing, and is an error for the
 * two ways an operator asks for one, `standing erase` and DELETE /v1/players/:id (404): a typo in
 * an id must not read as a player erased.
 */
import { PlayerUnknownError } from '../errors.js';
import type { ErasureOutcome } from '../store/types.js';

/** `outcome`, unless it removed and rewrote nothing: then PlayerUnknownError. */
export function erasedOrUnknown(player: string, outcome: ErasureOutcome): ErasureOutcome {
  if (outcome.removed === 0 && outcome.rewritten === 0) throw new PlayerUnknownError(player);
  return outcome;
}
