/** A command that could not finish for a reason outside standing's own errors (a service it talks to, say): exit status 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}
