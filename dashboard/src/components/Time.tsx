/** An event time as the dashboard shows it: local time with the zone, the exact instant in `datetime`. */
import { formatTime } from '../format.js';

export function Time({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatTime(at)}</time>;
}
