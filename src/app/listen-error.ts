/** Why a role (serve, a gateway) cannot listen, in one line, when the reason is the address. */
import { StandingError } from '../errors.js';

/** The service cannot listen where it was told to (the port is taken, …). */
export class ListenError extends StandingError {
  readonly code = 'LISTEN_FAILED' as const;
}

/** `error` as a ListenError naming the address and the reason, when the address is the reason; else `error` itself. */
export function listenError(error: unknown, where: { readonly host: string; readonly port: number }): unknown {
  const reason = { EADDRINUSE: 'is in use', EACCES: 'needs privileges this process lacks', EADDRNOTAVAIL: 'is not an address of this machine' }[(error as NodeJS.ErrnoException).code ?? ''];
  return reason === undefined ? error : new ListenError(`port ${where.port} on ${where.host} ${reason}`);
}
