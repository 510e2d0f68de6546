import type { Aisle } from '../pantry/types.js';
import type { IsoDate } from '../kernel/dates.js';
import type { HouseholdId } from '../kernel/ids.js';
import type { PackageOf } from '../food/buy-amounts.js';

export const LINE_STATUSES = ['Buy', 'Purchased'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/**
 * Why a line is on the list: `Planned` the week's dishes need it; `PartlyInPantry` they need more than the pantry
 * likely holds (haveQuantity); `OptionalOnly` only optional ingredients want it (status Buy, but left out of the
 * list's to-buy count and price total); `Manual` only a hand-added amount; `AddedRecipe` only amounts a recipe added
 * (POST shopping-list/recipe), kept like hand-added ones. A food the pantry covers whole is not a line.
 */
export const REASON_CODES = ['Planned', 'PartlyInPantry', 'OptionalOnly', 'Manual', 'AddedRecipe'] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export type PriceSource = 'None' | 'FoodTable';

/**
 * What the household has said of a line's food: `Disliked` it matches one of the household's dislikes (matched like
 * guests' avoids, core/kernel/avoids.ts, but only a mark: the line stays); `Fits` it matches none; `NotAssessed` the
 * household has said nothing it dislikes.
 */
export const PREFERENCE_FITS = ['Fits', 'Disliked', 'NotAssessed'] as const;
export type PreferenceFit = (typeof PREFERENCE_FITS)[number];

/** One line of a shopping list. Quantities are in the line's `unit`. */
export interface ShoppingLine {
  readonly id: string;
  readonly foodKey: string;
  readonly displayName: string;
  /** What the week needs (derived part plus `extraQuantity`); the pantry's likely stock is `haveQuantity`. */
  readonly requiredQuantity: number;
  readonly unit: string;
  /** The part added by hand (POST items), kept when the list is derived again. */
  readonly extraQuantity: number;
  readonly status: LineStatus;
  /** Bought so far, in `purchasedUnit` when set (a unit that would not convert), else in `unit`. */
  readonly purchasedQuantity: number;
  readonly purchasedUnit: string | null;
  readonly reasonCode: ReasonCode;
  readonly haveQuantity: number;
  readonly relatedPlanEntryIds: readonly string[];
  readonly isManual: boolean;
  readonly addedAfterShopping: boolean;
  readonly aisle: string;
  readonly suggestedPrice: number | null;
  readonly suggestedProductName: string | null;
  readonly suggestedPriceSource: PriceSource;
  readonly suggestedPriceIsAggregate: boolean;
  /** The line's first tick queued its push already (once per line). */
  readonly tickNotified: boolean;
  readonly preferenceFit: PreferenceFit;
  /**
   * One package of the line's food as a shop sells it, when known (from the chain list price the line is priced
   * by, core/food/buy-amounts.ts `packageOfPrice`): what to buy is then counted in whole packages. Absent (or null)
   * when none is known.
   */
  readonly pack?: PackageOf | null;
}

/** Counts answered for a closed trip. */
export interface TripSummary {
  /** Lines bought whole (status Purchased) when the trip closed. */
  readonly linesBought: number;
  /** Lines still to buy (status Buy, OptionalOnly left out) when the trip closed. */
  readonly linesLeft: number;
  /** Purchased observations the closing wrote to the pantry. */
  readonly observationsWritten: number;
}

/** A line the closing ticked (markAllBought) and its state before, so that reopening can put it back. */
export interface ClosingTick {
  readonly lineId: string;
  readonly status: LineStatus;
  readonly purchasedQuantity: number;
  readonly purchasedUnit: string | null;
}

/** An amount still to buy that a closing carried into the next week's list (unticked=keep), in `unit`. */
export interface CarriedLine {
  readonly foodKey: string;
  readonly displayName: string;
  readonly quantity: number;
  readonly unit: string;
}

/** The closing's own doing, recorded on the list so that reopening undoes exactly it. */
export interface TripRecord {
  readonly summary: TripSummary;
  readonly observationIds: readonly string[];
  readonly closingTicks: readonly ClosingTick[];
  /** The lines carried into the next week's list (its plan) as hand-added amounts; absent when none were. */
  readonly carried?: { readonly planId: string; readonly lines: readonly CarriedLine[] };
}

/** What generate would add now that the list holds back (the week asks before buying more). */
export interface WouldAdd {
  readonly foodKey: string;
  readonly displayName: string;
  readonly quantity: number;
  readonly unit: string;
}

/** A day's dish and the portions the list applies for it (it follows a drop at once, a rise only on generate). */
export interface MadeForDay {
  readonly recipeId: string;
  readonly portions: number;
}

/** What a write sets: everything but the identity and the version. */
export interface ShoppingListContent {
  readonly generatedAt: Date;
  readonly completedAt: Date | null;
  /** Named references the list reports (never bought): the week's recipes' and those of recipes added by hand. */
  readonly skippedReferences: readonly string[];
  /** The references of recipes added by hand (POST shopping-list/recipe), kept when the list is derived again. */
  readonly addedReferences: readonly string[];
  /** What the closing of the trip did, while the list is closed (null while open). */
  readonly trip: TripRecord | null;
  /** In list order. */
  readonly lines: readonly ShoppingLine[];
  /**
   * Per date of the week with a dish: the dish and the portions the lines were made for. A derivation applies no
   * more than these for the same dish (a rise waits for generate); a new dish, a portions override or a generate
   * applies the day's portions as they are.
   */
  readonly madeFor: Readonly<Record<IsoDate, MadeForDay>>;
  /** What generate would add now, in list order (empty when nothing is held back). */
  readonly wouldAdd: readonly WouldAdd[];
  /** When a derivation first found more to add than the list holds; null while nothing is held back. */
  readonly staleSince: Date | null;
  /**
   * Each line's last change by a person, newest last (core/shopping/line-changes.ts): a change made offline and sent
   * later loses to a later one by someone else. Absent on a list no person has changed since it was kept.
   */
  readonly personChanges?: readonly LineChange[];
}

/**
 * What a person did to a line: ticked it (`Purchased`), unticked it (`Buy`), changed its amount (`Amount`: a part
 * bought, or an amount added by hand to it), or removed it (`Removed`).
 */
export type LineChangeKind = 'Purchased' | 'Buy' | 'Amount' | 'Removed';

/** A person's last change of one line, and when they made it (for a change sent late: when it was made offline). */
export interface LineChange {
  readonly lineId: string;
  readonly displayName: string;
  readonly change: LineChangeKind;
  readonly at: Date;
  /** The account that made it. */
  readonly by: string;
  /** The line as it was when removed (`Removed` only): put back when a later change of it arrives. */
  readonly line?: ShoppingLine;
}

/**
 * What the stored list was last derived from (`from`: the household's input revision and the price revision) and
 * until when that derivation holds (`until`: the first moment a pantry row it counted may stop counting). Not
 * content: recording it leaves the version (and the ETag) as it is.
 */
export interface Derivation {
  readonly from: string;
  readonly until: Date;
}

export interface ShoppingList extends ShoppingListContent {
  readonly id: string;
  readonly householdId: HouseholdId;
  readonly planId: string;
  /** Starts at 1; every write adds one (the weak ETag is the id and this). */
  readonly version: number;
  /** Null: derive again on the next read. */
  readonly derivation: Derivation | null;
}

/** A stored list without its lines: what a read needs to decide that the stored list is current. */
export type ListStamp = Pick<ShoppingList, 'id' | 'version' | 'completedAt' | 'derivation'>;

/**
 * A household's shopping settings, which every list answer echoes: `sharingOff` keeps list pushes (item added,
 * items ticked) from the other members; `priceCatalogueOn` false leaves suggested prices and better choices out.
 */
export interface ShoppingSettings {
  readonly sharingOff: boolean;
  readonly priceCatalogueOn: boolean;
}

export const shoppingSettingsOf = (h: ShoppingSettings): ShoppingSettings => ({ sharingOff: h.sharingOff, priceCatalogueOn: h.priceCatalogueOn });

/** Bounds of a hand-added or bought amount. */
export const SHOPPING_QUANTITY_MAX = 100_000;

/** One finished trip: the aisles of its ticks, in the order they were ticked (one entry per ticked line). */
export interface FinishedTrip {
  readonly listId: string;
  readonly finishedAt: Date;
  readonly aisles: readonly string[];
}

/** An order a person set by hand: every aisle once. */
export interface HandOrder {
  readonly aisles: readonly Aisle[];
  readonly setAt: Date;
}
