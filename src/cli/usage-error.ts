import { StandingError } from '../errors.js';

/** A command line that cannot run as given (exit status 2, like commander's own errors, which main.ts maps to 2 too). */
export class UsageError extends StandingError {
  readonly code = 'USAGE_INVALID' as const;
}
