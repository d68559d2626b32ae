import { StandingError } from '../errors.js';

/** A command that could not finish for a reason outside standing itself (a service it talks to, say): exit status 1. */
export class CommandError extends StandingError {
  readonly code = 'COMMAND_FAILED' as const;
}
