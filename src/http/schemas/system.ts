/** Health, the limits of a batch, and what the service runs. */
import { Type, type Static } from '@sinclair/typebox';
import { Id, refTo, StringEnum } from './common.js';

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

export const ScorerDefence = Type.Object(
  {
    param: Type.String({ description: 'the parameter' }),
    value: Type.String({ description: 'its value, as key=value text shows it' }),
    needs: Type.Optional(Type.String({ description: 'the event type it reads (match.start): it engages in a community at the first one, and is off there until then' })),
    engaged: Type.Optional(Type.Boolean({ description: "with `community`: whether it applies to that community's events now (always, for a defence without `needs`)" })),
  },
  { $id: 'ScorerDefence', additionalProperties: false },
);
export type ScorerDefence = Static<typeof ScorerDefence>;

export const ScorerInstance = Type.Object(
  {
    name: Type.String({ description: "the instance name: the scorer id and the parameters that differ from the defaults of the configuration's defences setting" }),
    scorer: Type.String({ description: 'the scorer id' }),
    params: Type.String({ description: 'every parameter, as key=value pairs' }),
    rankOneIsWorst: Type.Boolean({ description: 'rank 1 is the most harmful player (reports), not the best' }),
    direction: StringEnum(['higher is better', 'higher is worse'] as const, { description: 'what a higher score means' }),
    good: Type.String({ description: 'what a good score says of a player' }),
    bad: Type.String({ description: 'what a bad score says of a player' }),
    bar: Type.Union(
      [
        Type.Object({ kind: Type.Literal('signed'), span: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'half the range, around 0; absent: the community\'s largest magnitude' })) }, { additionalProperties: false }),
        Type.Object(
          {
            kind: Type.Literal('floor'),
            floor: Type.Number(),
            ceiling: Type.Number(),
            bands: Type.Optional(
              Type.Array(Type.Object({ band: Type.String(), from: Type.Optional(Type.Number({ description: 'the lowest score in the band; absent for the last, lowest band' })) }, { additionalProperties: false }), {
                description: "the score's bands, best first (reliability: green, yellow, orange, red): a row's `band` colours its bar",
              }),
            ),
            windowDays: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'the days of events the score and its band read (reliability: keepDays)' })),
          },
          { additionalProperties: false },
        ),
        Type.Object({ kind: Type.Literal('harm') }, { additionalProperties: false }),
      ],
      { description: "the range a score bar spans: signed, around 0; floor, from the scorer's floor to its ceiling (coloured by the row's band where the scorer has bands); harm, from 0 to the community's largest score, all of it the harmful side" },
    ),
    defences: Type.Object(
      {
        setting: StringEnum(['recommended', 'published'] as const, { description: "the configuration's `defences`: the parameters are the entry's over the scorer's recommended defences, or over its published method" }),
        on: Type.Array(refTo(ScorerDefence), { description: 'the defences the instance runs: the parameters of its recommended defences that differ from the published method' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ScorerInstance', additionalProperties: false },
);
export type ScorerInstance = Static<typeof ScorerInstance>;

export const ScorerList = Type.Object(
  {
    community: Type.Optional(Type.String({ description: 'the community asked about: each defence says whether it is engaged there' })),
    scorers: Type.Array(refTo(ScorerInstance)),
  },
  { $id: 'ScorerList', additionalProperties: false },
);

export const ScorerListQuery = Type.Object(
  { community: Type.Optional(Id('a community: each defence then says whether it is engaged there')) },
  { $id: 'ScorerListQuery', additionalProperties: false },
);
export type ScorerListQuery = Static<typeof ScorerListQuery>;

export const CommunityList = Type.Object(
  { communities: Type.Array(Type.Object({ community: Type.String(), sequence: Type.Integer({ minimum: 0, description: 'its last sequence' }) }, { additionalProperties: false })) },
  { $id: 'CommunityList', additionalProperties: false },
);
export type CommunityList = Static<typeof CommunityList>;

export const Metrics = Type.String({ $id: 'Metrics', description: 'Prometheus text exposition format' });
export type ScorerList = Static<typeof ScorerList>;
