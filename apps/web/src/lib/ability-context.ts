import { useAbility } from '@casl/react';
import type { abilityActions, abilitySubjects } from '@cm/contracts/abilities.ts';
import type { MongoAbility } from '@casl/ability';

/** An action of a permission rule. */
export type AbilityAction = (typeof abilityActions)[number];
/** A subject of a permission rule. */
export type AbilitySubject = (typeof abilitySubjects)[number];
/** The app's CASL ability. */
export type AppAbility = MongoAbility<[AbilityAction, AbilitySubject]>;

/**
 * The current user's ability, provided by the logged-in layout with `AbilityProvider`
 * (@casl/react). Kept apart from ability.ts so the guards do not load the CASL engine.
 */
export function useAppAbility(): AppAbility {
  return useAbility<AppAbility>();
}
