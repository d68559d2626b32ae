/**
 * What the requests of a load run that did not succeed got, counted by kind: the status and the
 * answer's `error` code (`503 STORE_BUSY`, `500 INTERNAL`), `timeout` (the load generator gave
 * up waiting: the request may still have been served), or the connection error's code.
 */
export class Failures {
  private readonly counts = new Map<string, number>();

  /** Counts a non-2xx answer, by its status and the `error` of its JSON body. */
  answer(status: number, body: string): void {
    let code = '';
    try {
      const parsed = JSON.parse(body) as { error?: unknown };
      if (typeof parsed.error === 'string') code = ` ${parsed.error}`;
    } catch {
      // not JSON: the status alone
    }
    this.add(`${status}${code}`);
  }

  /** Counts a request that got no answer: autocannon's timeout, or a connection error. */
  error(error: Error & { code?: string }): void {
    this.add(error.message === 'request timed out' ? 'timeout' : `error ${error.code ?? error.message}`);
  }

  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }

  /** "2 × 503 STORE_BUSY, 1 × timeout", most frequent first; "" when none failed. */
  text(): string {
    return [...this.counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([kind, n]) => `${n} × ${kind}`)
      .join(', ');
  }

  private add(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }
}
