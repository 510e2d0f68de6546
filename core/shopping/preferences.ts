import { avoidMatcher } from '../kernel/avoids.js';
import type { PreferenceFit } from './types.js';

/**
 * How a food fits what the household has said it prefers: its dislikes, in its own words, matched as guests' avoids
 * are (one matcher, core/kernel/avoids.ts) but soft: a disliked food is marked, never left out.
 */
export function preferenceFitter(dislikes: readonly string[]): (food: { readonly displayName: string; readonly foodKey: string }) => PreferenceFit {
  if (dislikes.length === 0) return () => 'NotAssessed';
  const matches = avoidMatcher(dislikes);
  return (food) => (matches(food) ? 'Disliked' : 'Fits');
}
