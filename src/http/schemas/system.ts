/** Health, the limits of a batch, and what the service runs. */
import { Type, type Static } from '@sinclair/typebox';
import { refTo, StringEnum } from './common.js';

export const Health = Type.Object(
  {
    status: StringEnum(['ok'] as const),
    store: StringEnum(['sqlite', 'postgres'] as const),
    communities: Type.Integer({ minimum: 0, description: 'communities with events' }),
    events: Type.Integer({ minimum: 0, description: 'events held, over every community' }),
  },
  { $id: 'Health', additionalProperties: false },
);
export type Health = Static<typeof Health>;

export const ScorerInstance = Type.Object(
  {
    name: Type.String({ description: 'the instance name: the scorer id and the parameters that differ from the defaults' }),
    scorer: Type.String({ description: 'the scorer id' }),
    params: Type.String({ description: 'every parameter, as key=value pairs' }),
    rankOneIsWorst: Type.Boolean({ description: 'rank 1 is the most harmful player (reports), not the best' }),
  },
  { $id: 'ScorerInstance', additionalProperties: false },
);
export type ScorerInstance = Static<typeof ScorerInstance>;

export const ScorerList = Type.Object({ scorers: Type.Array(refTo(ScorerInstance)) }, { $id: 'ScorerList', additionalProperties: false });

export const CommunityList = Type.Object(
  { communities: Type.Array(Type.Object({ community: Type.String(), sequence: Type.Integer({ minimum: 0, description: 'its last sequence' }) }, { additionalProperties: false })) },
  { $id: 'CommunityList', additionalProperties: false },
);
export type CommunityList = Static<typeof CommunityList>;

export const Metrics = Type.String({ $id: 'Metrics', description: 'Prometheus text exposition format' });
export type ScorerList = Static<typeof ScorerList>;
