/** Every item of an async iterable of batches, in order. */
export async function collectBatches<T>(batches: AsyncIterable<readonly T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const batch of batches) out.push(...batch);
  return out;
}
