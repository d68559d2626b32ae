/** How far the live engine has applied each community's log. */
import type { LogPosition } from '../../engine/replay.js';

/** Each community with applied events: its last applied sequence and the event time of that event. */
export type Positions = Map<string, LogPosition>;
