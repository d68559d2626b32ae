/** Polls `check` until it returns a value other than undefined (bounded: a hung service fails the test, it is not timed). */
export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, boundMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
