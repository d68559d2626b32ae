/** The command line's own errors, each mapped to an exit status by main.ts. */
import { StandingError } from '../errors.js';

/** A command line that cannot run as given (exit status 2, like commander's own errors, which main.ts maps to 2 too). */
export class UsageError extends StandingError {
  readonly code = 'USAGE_INVALID' as const;
}

/** A command that could not finish for a reason outside standing itself (a service it talks to, say): exit status 1. */
export class CommandError extends StandingError {
  readonly code = 'COMMAND_FAILED' as const;
}
