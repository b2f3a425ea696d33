// The series module's face (price and carbon intensity series, issue 36): the only file of it
// that other modules and the app's wiring import.
export { adminSeriesRoutes, ingestSeriesRoutes, seriesRoutes } from './series.routes.ts';
export { SeriesService } from './series.service.ts';
export {
  locationCarbonTimeline,
  priceSeriesFacts,
  priceSeriesRevisions,
  priceSeriesValues,
  type SeriesPrices,
} from './sources.ts';
