// The tariffs module's face: the only file of it that other modules and the app's wiring import.
export { billOf } from './bill.ts';
export {
  demandLookbackFrom,
  demandSettingsKey,
  foldEarlierMonths,
  type EarlierMonths,
} from './demand-charges.ts';
export type { RangePrices } from './location-prices.ts';
export { adminTariffsRoutes, tariffsRoutes } from './tariffs.routes.ts';
export { TariffsService, locationPrices } from './tariffs.service.ts';
