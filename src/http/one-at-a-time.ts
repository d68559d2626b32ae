/**
 * Runs async work one piece at a time, in arrival order: the moderation writes (the actions of
 * ./routes/moderation.ts and the batches of POST /v1/events that open appeals) check the
 * moderation book and then commit, and no other such write may slip between the two.
 */
export type OneAtATime = <T>(work: () => Promise<T>) => Promise<T>;

export function oneAtATime(): OneAtATime {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = chain.then(work);
    chain = result.catch(() => undefined);
    return result;
  };
}
