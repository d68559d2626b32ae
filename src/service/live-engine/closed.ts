import { StandingError } from '../../errors.js';

/**
 * The live engine was given a batch to ingest or check after it closed: the service (or the
 * worker's partition) is stopping. Answered as SERVICE_STOPPING is, 503 with Retry-After: 1.
 */
export class EngineClosedError extends StandingError {
  readonly code = 'SERVICE_STOPPING' as const;
  constructor() {
    super('the engine is closed: the service is stopping; retry once it is back');
  }
}
