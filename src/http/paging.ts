/** One page of a list: `limit` entries from `offset`, from the start (`asc`) or from the end (`desc`, last first). */
export function pageOf<T>(list: readonly T[], offset: number, limit: number, order: 'asc' | 'desc'): T[] {
  if (order === 'asc') return list.slice(offset, offset + limit);
  const end = Math.max(0, list.length - offset);
  return list.slice(Math.max(0, end - limit), end).reverse();
}
