/** The built-in community quality domains (docs/spec.md §2.2). */
import { clustering } from './clustering.js';
import type { AnyQualityDomain } from './domain.js';
import { forum } from './forum.js';
import { minecraft } from './minecraft.js';
import { recommendation } from './recommendation.js';

export { clustering, type ClusteringOptions, type ClusteringState } from './clustering.js';
export { minecraft, DEFAULT_RARITY, type MinecraftOptions, type MinecraftState, type RarityTable } from './minecraft.js';
export { forum, DEFAULT_FORBIDDEN_WORDS, type ForumOptions, type ForumState } from './forum.js';
export { recommendation, type RecommendationOptions, type RecommendationState } from './recommendation.js';

export const BUILTIN_DOMAINS: readonly AnyQualityDomain[] = [clustering, minecraft, forum, recommendation];
