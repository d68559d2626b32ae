/** How far the live engine has applied each community's log. */

/** A community's last applied sequence and the event time of that event. */
export interface Position {
  readonly sequence: number;
  readonly time: number;
}

/** The position of every community with applied events, by name. */
export type Positions = Map<string, Position>;
